/**
 * Renderer entry: mounts the app shell. Theme follows the OS (prefers-color-scheme in app.css).
 */
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(<App />);
