/**
 * The open project as a document: the store ⇄ ProjectDocument mapping (applying one loads the audio
 * of every clip its takes use), opening a project file, and whether starting over (New, re-opening a
 * clip from the Library) would lose work. Projects saves, autosaves and recovers through it; the
 * Library re-opens clips through it.
 */
import { CHANNELS } from '../../src-shared/ipc-contract';
import { PROJECT_SCHEMA_VERSION, type ProjectDocument } from '../../src-shared/contract/projects';
import { toStudioError } from '../../src-shared/errors';
import { call } from '../ipc/client';
import { useStudioStore, type StudioState } from '../store/store';
import { DEFAULT_DOCUMENT, UNTITLED_PROJECT_NAME, defaultEditorSsmlOptions } from './project-defaults';

export function toProjectDocument(s: StudioState = useStudioStore.getState()): ProjectDocument {
  return {
    schemaVersion: PROJECT_SCHEMA_VERSION,
    id: s.projectId,
    name: s.projectName,
    editor: { text: s.editorText, inputFormat: s.editorFormat, ssmlOptions: { ...s.editorSsmlOptions } },
    voice: s.voiceSettings,
    baseClipId: s.baseLayout?.clipId ?? null,
    turns: s.turns,
  };
}

/** Puts a project into the store and loads the audio of every clip its takes use. */
export async function applyProjectDocument(project: ProjectDocument, path: string | null): Promise<void> {
  const s = useStudioStore.getState();
  s.setProjectMeta({ projectId: project.id, projectName: project.name, projectPath: path });
  s.setEditorText(project.editor.text);
  s.setEditorFormat(project.editor.inputFormat);
  s.setEditorSsmlOptions({ ...defaultEditorSsmlOptions(), ...project.editor.ssmlOptions });
  s.updateVoiceSettings(project.voice);
  const clipIds = new Set<string>(project.turns.flatMap((t) => t.takes.map((k) => k.clipId)));
  if (project.baseClipId) clipIds.add(project.baseClipId);
  for (const id of clipIds) {
    try {
      const [clip, audio] = await Promise.all([call(CHANNELS.getClip, { id }), call(CHANNELS.readClipAudio, { id })]);
      useStudioStore.getState().addClip(clip, audio);
    } catch (err) {
      useStudioStore.getState().setProjectError(`clip ${id} of this project could not be loaded: ${toStudioError(err).message}`);
    }
  }
  const base = project.baseClipId ? useStudioStore.getState().clips[project.baseClipId] : undefined;
  useStudioStore.getState().setTimeline({
    baseLayout: base ? { clipId: base.id, numSamples: base.numSamples, turnSpans: base.turnSpans } : null,
    turns: base ? project.turns : [],
  });
}

export async function openProject(path: string): Promise<void> {
  try {
    const opened = await call(CHANNELS.openProject, { path });
    await applyProjectDocument(opened.project, opened.path);
    useStudioStore.getState().markInFile(useStudioStore.getState().projectRevision);
    useStudioStore.getState().setProjectError(null);
  } catch (err) {
    useStudioStore.getState().setProjectError(toStudioError(err).message);
  }
}

/** True while a change to the project has not been written by a save or autosave yet. */
export function hasUnsavedChanges(s: StudioState = useStudioStore.getState()): boolean {
  return s.projectRevision !== s.savedRevision;
}

/**
 * True when starting over (New, Re-open a clip) would lose work: changes the project file does not hold,
 * autosaved or not (an autosave is a recovery copy that the next project's autosave replaces).
 */
export function hasChangesOutsideItsFile(s: StudioState = useStudioStore.getState()): boolean {
  return s.projectRevision !== s.fileRevision && !isUntouchedProject(s);
}

/** A new project nobody has written, named or generated in yet. */
export function isUntouchedProject(s: StudioState): boolean {
  return s.projectPath === null && s.projectName === UNTITLED_PROJECT_NAME && s.editorText === DEFAULT_DOCUMENT && s.turns.length === 0;
}
