/**
 * Which panel each main area shows. Every area is wrapped in the studio session (autosave,
 * recovery prompt, shortcuts, voice data and saved voices), which starts once, and in an error
 * boundary with Try again / Reload page. Speak, the home (with the voice library's panel, composed
 * here), is in the first chunk; every other area (Timeline with CodeMirror and wavesurfer,
 * Benchmark with recharts) is its own chunk loaded when first opened (budget:
 * scripts/renderer-budget.test.ts); a chunk that fails to load (the host restarted or is away)
 * says so and is loaded again by itself, at the latest when the host is back.
 */
import { Suspense, useEffect, type ComponentType } from 'react';
import { AREA_LABELS, type Area } from './shell.slice';
import { useStudioStore } from '../store/store';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { lazyWithRetry } from '../components/lazy-with-retry';
import { loadSavedVoices, loadVoiceData } from '../shared-state/voice-actions';
import { useStudioKeys } from './useStudioKeys';
import { RecoveryPrompt } from '../features/projects/ProjectBar';
import { checkRecovery, startAutosave } from '../features/projects/project-actions';
import { SpeakPanel } from '../features/speak/SpeakPanel';
import { SavedVoicesPanel } from '../features/voice-library/SavedVoicesPanel';
import '../components/studio.css';

const VoicePanel = lazyWithRetry(() => import('../features/voice/VoicePanel').then((m) => m.VoicePanel));
const Workspace = lazyWithRetry(() => import('./Workspace').then((m) => m.Workspace));
const LibraryPanel = lazyWithRetry(() => import('../features/library/LibraryPanel').then((m) => m.LibraryPanel));
const RenderPanel = lazyWithRetry(() => import('../features/render/RenderPanel').then((m) => m.RenderPanel));
const BenchPanel = lazyWithRetry(() => import('../features/bench/BenchPanel').then((m) => m.BenchPanel));
const ModelsPanel = lazyWithRetry(() => import('../features/models/ModelsPanel').then((m) => m.ModelsPanel));
const SettingsPanel = lazyWithRetry(() => import('../features/settings/SettingsPanel').then((m) => m.SettingsPanel));

let sessionStarted = false;

let numConnectsLoaded = 0;

function useStudioSession(): number {
  useStudioKeys();
  const numConnects = useStudioStore((s) => s.numConnects);
  useEffect(() => {
    if (sessionStarted) return;
    sessionStarted = true;
    void checkRecovery();
    void loadVoiceData();
    void loadSavedVoices(); // every screen shows saved voices by name (clips record their ids)
    startAutosave();
  }, []);
  useEffect(() => {
    // Back after the host went away: it may have restarted on another model or library.
    if (numConnects > 1 && numConnects > numConnectsLoaded) {
      void loadVoiceData();
      void loadSavedVoices();
    }
    numConnectsLoaded = Math.max(numConnectsLoaded, numConnects);
  }, [numConnects]);
  return numConnects;
}

function withSession(Panel: ComponentType, area: Area): ComponentType {
  return function SessionPanel() {
    const numConnects = useStudioSession();
    return (
      <ErrorBoundary label={`The ${AREA_LABELS[area]} area`} retryKey={numConnects}>
        <RecoveryPrompt />
        <Suspense fallback={<p className="hint" data-testid="area-loading">Loading…</p>}>
          <Panel />
        </Suspense>
      </ErrorBoundary>
    );
  };
}

/** Speak with the voice library's panel under its speaker (the two features meet here, not in each other). */
function SpeakWithVoiceLibrary() {
  return <SpeakPanel voiceLibrary={<SavedVoicesPanel />} />;
}

export const AREA_PANELS: Record<Area, ComponentType> = {
  speak: withSession(SpeakWithVoiceLibrary, 'speak'),
  voice: withSession(VoicePanel, 'voice'),
  timeline: withSession(Workspace, 'timeline'),
  library: withSession(LibraryPanel, 'library'),
  render: withSession(RenderPanel, 'render'),
  bench: withSession(BenchPanel, 'bench'),
  models: withSession(ModelsPanel, 'models'),
  settings: withSession(SettingsPanel, 'settings'),
};
