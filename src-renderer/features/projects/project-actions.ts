/**
 * Projects from the renderer's side: save / new / the project files, autosave (debounced, on every change to the document, voice or timeline; flushed when the page
 * is hidden or unloaded) and crash recovery (an autosave left by an unsaved session is offered at
 * start with a prompt). An untouched new project, whose only change is the voice defaults loaded at
 * start, is not autosaved, so opening and closing the app leaves nothing to restore. Every write
 * records the project revision it covered: the bar says "unsaved changes" until the latest is on disk.
 * The store ⇄ ProjectDocument mapping and opening a file are shared-state/project-document.ts.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { createDebouncedTask } from '../../components/debounced-task';
import { useStudioStore, type StudioState } from '../../store/store';
import { DEFAULT_DOCUMENT, UNTITLED_PROJECT_NAME, defaultEditorSsmlOptions, randomId } from '../../shared-state/project-defaults';
import { applyProjectDocument, isUntouchedProject, toProjectDocument } from '../../shared-state/project-document';
import { autosaveIsInItsFile } from './recovery-check';

export const AUTOSAVE_DELAY_MS = 800;

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
