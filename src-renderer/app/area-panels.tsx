/**
 * Which panel each main area shows. Every area is wrapped in the studio session (autosave,
 * crash-recovery prompt, shortcuts, voice data), which starts once; the Timeline area composes
 * the project bar, editor, generation controls and timeline.
 */
import { useEffect, type ComponentType } from 'react';
import type { Area } from './shell.slice';
import { SettingsPanel } from '../features/settings/SettingsPanel';
import { VoicePanel } from '../features/voice/VoicePanel';
import { loadVoiceData } from '../features/voice/voice-actions';
import { EditorPanel } from '../features/editor/EditorPanel';
import { GenerationPanel } from '../features/timeline/GenerationPanel';
import { TimelinePanel } from '../features/timeline/TimelinePanel';
import { generate } from '../features/timeline/generate-actions';
import { useStudioKeys } from '../features/timeline/useStudioKeys';
import { LibraryPanel } from '../features/library/LibraryPanel';
import { ProjectBar, RecoveryPrompt } from '../features/projects/ProjectBar';
import { checkRecovery, startAutosave } from '../features/projects/project-actions';
import { BenchPanel } from '../features/bench/BenchPanel';
import { ModelsPanel } from '../features/models/ModelsPanel';
import { SpeakPanel } from '../features/speak/SpeakPanel';
import '../components/studio.css';

let sessionStarted = false;

function useStudioSession(): void {
  useStudioKeys();
  useEffect(() => {
    if (sessionStarted) return;
    sessionStarted = true;
    void checkRecovery();
    void loadVoiceData();
    startAutosave();
  }, []);
}

function withSession(Panel: ComponentType): ComponentType {
  return function SessionPanel() {
    useStudioSession();
    return (
      <>
        <RecoveryPrompt />
        <Panel />
      </>
    );
  };
}

function Workspace() {
  return (
    <div className="workspace">
      <ProjectBar />
      <EditorPanel onSubmit={() => void generate()} />
      <GenerationPanel />
      <TimelinePanel />
    </div>
  );
}

export const AREA_PANELS: Record<Area, ComponentType> = {
  speak: withSession(SpeakPanel),
  voice: withSession(VoicePanel),
  timeline: withSession(Workspace),
  library: withSession(LibraryPanel),
  bench: withSession(BenchPanel),
  models: withSession(ModelsPanel),
  settings: withSession(SettingsPanel),
};
