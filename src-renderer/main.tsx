/**
 * Renderer entry: restores the last session (area, voice, texts, project) and Speak's take history, and mounts the app shell
 * inside an error boundary.
 */
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { startSessionPersistence } from './app/session-persist';
import { useStudioStore } from './store/store';
import { applyTheme, readTheme } from './features/settings/theme';
import { startSpeakTakesPersistence } from './features/speak/speak-takes-persist';

// Before the first render, so a reload opens on the same area with the same voice and text.
startSessionPersistence(useStudioStore, window.localStorage);
startSpeakTakesPersistence(useStudioStore, window.localStorage);
applyTheme(readTheme(window.localStorage), window.localStorage);

// The last line of defence: whatever the shell throws, the page says so and offers a reload, never blank.
createRoot(document.getElementById('root')!).render(
  <ErrorBoundary label="The studio">
    <App />
  </ErrorBoundary>,
);
