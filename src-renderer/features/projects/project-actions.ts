/**
 * Projects from the renderer's side: the store ⇄ ProjectDocument mapping, save / open / new,
 * autosave (debounced, on every change to the document, voice or timeline; flushed when the page
 * is hidden or unloaded) and crash recovery (an autosave left by an unsaved session is offered at
 * start with a prompt). An untouched new project, whose only change is the voice defaults loaded at
 * start, is not autosaved, so opening and closing the app leaves nothing to restore. Every write
 * records the project revision it covered: the bar says "unsaved changes" until the latest is on disk.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { PROJECT_SCHEMA_VERSION, type ProjectDocument } from '../../../src-shared/contract/projects';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { createDebouncedTask } from '../../components/debounced-task';
import { useStudioStore, type StudioState } from '../../store/store';
import { DEFAULT_DOCUMENT, UNTITLED_PROJECT_NAME, defaultEditorSsmlOptions, randomId } from '../../shared-state/project-defaults';
import { autosaveIsInItsFile } from './recovery-check';

export const AUTOSAVE_DELAY_MS = 800;

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

export async function saveProject(): Promise<void> {
  const s = useStudioStore.getState();
  const revision = s.projectRevision;
  try {
    const saved = await call(CHANNELS.saveProject, { project: toProjectDocument(), ...(s.projectPath ? { path: s.projectPath } : {}) });
    s.setProjectMeta({ projectPath: saved.path });
    s.setSaved('save', saved.savedAtMs, revision);
    // The saved file is now the truth: the autosave slot would only offer a stale copy next session.
    if (revision === useStudioStore.getState().projectRevision) await call(CHANNELS.discardRecovery, {}).catch(() => null);
    s.setProjectError(null);
    s.setRecentProjects(await call(CHANNELS.listRecent, {}));
  } catch (err) {
    s.setProjectError(toStudioError(err).message);
  }
}

/**
 * Saves the current document as a new project named `name` (a new id, so a new file in the
 * projects folder); the project it was copied from stays as it was last saved.
 */
export async function saveProjectAs(name: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) return;
  useStudioStore.getState().setProjectMeta({ projectId: randomId(), projectName: trimmed, projectPath: null });
  await saveProject();
  await refreshProjectFiles();
}

/** Starts an empty project (the caller has confirmed discarding unsaved changes). */
export function newProject(): void {
  const s = useStudioStore.getState();
  s.setProjectMeta({ projectId: randomId(), projectName: UNTITLED_PROJECT_NAME, projectPath: null });
  s.setEditorText(DEFAULT_DOCUMENT);
  s.setEditorFormat('ssml');
  s.setEditorSsmlOptions(defaultEditorSsmlOptions());
  s.setTimeline({ baseLayout: null, turns: [] });
  s.setProjectError(null);
  // The previous project's autosave is not this one's (the caller confirmed losing it).
  void call(CHANNELS.discardRecovery, {}).catch(() => null);
}

export async function refreshProjectFiles(): Promise<void> {
  try {
    useStudioStore.getState().setProjectFiles(await call(CHANNELS.listProjects, {}));
  } catch (err) {
    useStudioStore.getState().setProjectError(toStudioError(err).message);
  }
}

/** Deletes a project file from the projects folder; the open project, if it was that file, becomes unsaved. */
export async function deleteProjectFile(path: string): Promise<void> {
  const s = useStudioStore.getState();
  try {
    await call(CHANNELS.deleteProject, { path });
    if (useStudioStore.getState().projectPath === path) s.setProjectMeta({ projectPath: null });
    s.setRecentProjects(await call(CHANNELS.listRecent, {}));
    await refreshProjectFiles();
  } catch (err) {
    s.setProjectError(toStudioError(err).message);
  }
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

/**
 * At start: an autosave of the project this page already shows (restored from the session after a
 * reload) comes back silently, with its timeline, keeping the session's newer text and voice; an
 * autosave its project file already holds (same document, or the file saved later) is dropped; an
 * autosave of any other project is unsaved work from a session that ended without saving: prompt.
 */
export async function checkRecovery(): Promise<void> {
  try {
    const s = useStudioStore.getState();
    const recovery = await call(CHANNELS.readRecovery, {});
    if (recovery && recovery.project.id === useStudioStore.getState().projectId) {
      const now = useStudioStore.getState();
      const keep = { text: now.editorText, format: now.editorFormat, ssmlOptions: now.editorSsmlOptions, voice: now.voiceSettings, name: now.projectName };
      await applyProjectDocument(recovery.project, recovery.path);
      const after = useStudioStore.getState();
      after.setEditorText(keep.text);
      after.setEditorFormat(keep.format);
      after.setEditorSsmlOptions(keep.ssmlOptions);
      after.updateVoiceSettings(keep.voice);
      after.setProjectMeta({ projectName: keep.name });
    } else if (recovery && (await autosaveIsInItsFile(recovery))) {
      await call(CHANNELS.discardRecovery, {}).catch(() => null);
    } else {
      s.setRecovery(recovery);
    }
    s.setRecentProjects(await call(CHANNELS.listRecent, {}));
  } catch (err) {
    useStudioStore.getState().setProjectError(toStudioError(err).message);
  }
}

export async function answerRecovery(restore: boolean): Promise<void> {
  const recovery = useStudioStore.getState().recovery;
  useStudioStore.getState().setRecovery(null);
  if (!recovery) return;
  if (restore) await applyProjectDocument(recovery.project, recovery.path);
  else await call(CHANNELS.discardRecovery, {}).catch(() => null);
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
function isUntouchedProject(s: StudioState): boolean {
  return s.projectPath === null && s.projectName === UNTITLED_PROJECT_NAME && s.editorText === DEFAULT_DOCUMENT && s.turns.length === 0;
}

function isProjectChange(s: StudioState, prev: StudioState): boolean {
  return s.editorText !== prev.editorText || s.editorFormat !== prev.editorFormat || s.editorSsmlOptions !== prev.editorSsmlOptions || s.voiceSettings !== prev.voiceSettings || s.turns !== prev.turns || s.projectName !== prev.projectName;
}

/**
 * Starts autosaving: returns the stop function. Changes made while a recovery prompt is open are
 * not saved over it. A pending autosave is written at once when the page is hidden or unloaded.
 */
export function startAutosave(delayMs = AUTOSAVE_DELAY_MS): () => void {
  const autosave = createDebouncedTask(() => {
    const now = useStudioStore.getState();
    if (now.recovery) return;
    const revision = now.projectRevision;
    if (isUntouchedProject(now)) {
      now.markNothingToSave(revision);
      return;
    }
    void call(CHANNELS.autosave, { project: toProjectDocument(now), path: now.projectPath })
      .then((r) => useStudioStore.getState().setSaved('autosave', r.savedAtMs, revision))
      .catch((err: unknown) => useStudioStore.getState().setProjectError(`autosave failed: ${toStudioError(err).message}`));
  }, delayMs);
  const unsubscribe = useStudioStore.subscribe((s, prev) => {
    if (!isProjectChange(s, prev)) return;
    s.markProjectChanged();
    if (!s.recovery) autosave.schedule();
  });
  const flush = autosave.flush;
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  const hasWindow = typeof window !== 'undefined';
  if (hasWindow) {
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
  }
  return () => {
    autosave.cancel();
    unsubscribe();
    if (hasWindow) {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
    }
  };
}
