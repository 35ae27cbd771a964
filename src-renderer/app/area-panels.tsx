/**
 * Which panel each main area shows. Every area is wrapped in the studio session (autosave,
 * recovery prompt, shortcuts, voice data and saved voices), which starts once. Speak, the home,
 * is in the first chunk; every other area (Timeline with CodeMirror and wavesurfer, Benchmark with
 * recharts) is its own chunk loaded when first opened (budget: scripts/renderer-budget.test.ts).
 */
import { Suspense, lazy, useEffect, type ComponentType } from 'react';
import type { Area } from './shell.slice';
import { loadVoiceData } from '../features/voice/voice-actions';
import { loadSavedVoices } from '../features/voice-library/voice-library-actions';
import { useStudioKeys } from '../features/timeline/useStudioKeys';
import { RecoveryPrompt } from '../features/projects/ProjectBar';
import { checkRecovery, startAutosave } from '../features/projects/project-actions';
import { SpeakPanel } from '../features/speak/SpeakPanel';
import '../components/studio.css';

const VoicePanel = lazy(() => import('../features/voice/VoicePanel').then((m) => ({ default: m.VoicePanel })));
const Workspace = lazy(() => import('../features/timeline/Workspace').then((m) => ({ default: m.Workspace })));
const LibraryPanel = lazy(() => import('../features/library/LibraryPanel').then((m) => ({ default: m.LibraryPanel })));
const RenderPanel = lazy(() => import('../features/render/RenderPanel').then((m) => ({ default: m.RenderPanel })));
const BenchPanel = lazy(() => import('../features/bench/BenchPanel').then((m) => ({ default: m.BenchPanel })));
const ModelsPanel = lazy(() => import('../features/models/ModelsPanel').then((m) => ({ default: m.ModelsPanel })));
const SettingsPanel = lazy(() => import('../features/settings/SettingsPanel').then((m) => ({ default: m.SettingsPanel })));

let sessionStarted = false;

function useStudioSession(): void {
  useStudioKeys();
  useEffect(() => {
    if (sessionStarted) return;
    sessionStarted = true;
    void checkRecovery();
    void loadVoiceData();
    void loadSavedVoices(); // every screen shows saved voices by name (clips record their ids)
    startAutosave();
  }, []);
}

function withSession(Panel: ComponentType): ComponentType {
  return function SessionPanel() {
    useStudioSession();
    return (
      <>
        <RecoveryPrompt />
        <Suspense fallback={<p className="hint" data-testid="area-loading">Loading…</p>}>
          <Panel />
        </Suspense>
      </>
    );
  };
}

export const AREA_PANELS: Record<Area, ComponentType> = {
  speak: withSession(SpeakPanel),
  voice: withSession(VoicePanel),
  timeline: withSession(Workspace),
  library: withSession(LibraryPanel),
  render: withSession(RenderPanel),
  bench: withSession(BenchPanel),
  models: withSession(ModelsPanel),
  settings: withSession(SettingsPanel),
};
