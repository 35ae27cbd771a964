// @vitest-environment jsdom
// Autosave against an in-memory bridge: the project counts as unsaved until the write that
// covers its latest change has finished, and a pending write is flushed when the page goes away.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import type { StudioBridge } from '../../../src-shared/ipc-contract';
import type { ProjectDocument } from '../../../src-shared/contract/projects';
import { checkRecovery, deleteProjectFile, newProject, saveProject, startAutosave } from './project-actions';
import { applyProjectDocument, hasUnsavedChanges, toProjectDocument } from '../../shared-state/project-document';
import { DEFAULT_DOCUMENT, UNTITLED_PROJECT_NAME } from '../../shared-state/project-defaults';

interface AutosaveCall {
  project: ProjectDocument;
  finish(): void;
}

function recordingBridge(calls: AutosaveCall[]): StudioBridge {
  return {
    invoke: (channel, request) => {
      if (channel !== 'studio:projects.autosave') return Promise.resolve({ ok: true, value: null as never });
      return new Promise((resolve) => {
        calls.push({ project: (request as { project: ProjectDocument }).project, finish: () => resolve({ ok: true, value: { savedAtMs: 1234 } as never }) });
      });
    },
    on: () => () => {},
  };
}

describe('startAutosave', () => {
  let calls: AutosaveCall[];
  let stop: () => void;

  beforeEach(() => {
    resetStore();
    calls = [];
    setBridge(recordingBridge(calls));
  });
  afterEach(() => {
    stop?.();
    setBridge(null);
  });

  it('keeps the project unsaved until the autosave of its latest change has finished', async () => {
    stop = startAutosave(5);
    expect(hasUnsavedChanges()).toBe(false);
    useStudioStore.getState().setProjectMeta({ projectName: 'First' });
    expect(hasUnsavedChanges()).toBe(true);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].project.name).toBe('First');
    expect(hasUnsavedChanges()).toBe(true);
    calls[0].finish();
    await vi.waitFor(() => expect(hasUnsavedChanges()).toBe(false));
    expect(useStudioStore.getState().lastAutosavedAtMs).toBe(1234);
  });

  it('stays unsaved when a change arrives while an older autosave is still being written', async () => {
    stop = startAutosave(5);
    useStudioStore.getState().setProjectMeta({ projectName: 'Before' });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    useStudioStore.getState().setProjectMeta({ projectName: 'After' });
    calls[0].finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(hasUnsavedChanges()).toBe(true);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].project.name).toBe('After');
    calls[1].finish();
    await vi.waitFor(() => expect(hasUnsavedChanges()).toBe(false));
  });

  it('writes a pending autosave at once when the page is hidden', () => {
    stop = startAutosave(60_000);
    useStudioStore.getState().setProjectMeta({ projectName: 'Leaving' });
    expect(calls).toHaveLength(0);
    window.dispatchEvent(new Event('pagehide'));
    expect(calls).toHaveLength(1);
    expect(calls[0].project.name).toBe('Leaving');
  });

  it('does not autosave an untouched new project whose only change is the loaded voice defaults', async () => {
    stop = startAutosave(5);
    useStudioStore.getState().updateVoiceSettings({ voice: 'vivian', seed: 3 });
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toHaveLength(0);
    expect(hasUnsavedChanges()).toBe(false);
    useStudioStore.getState().setEditorText('<speak>Typed.</speak>');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].project.editor.text).toBe('<speak>Typed.</speak>');
  });

  it('does not write over a recovered autosave while the recovery prompt is open', async () => {
    const recovered = { project: { name: 'Recovered' } as ProjectDocument, path: null, autosavedAtMs: 1 };
    useStudioStore.getState().setRecovery(recovered);
    stop = startAutosave(5);
    useStudioStore.getState().setProjectMeta({ projectName: 'New session' });
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toHaveLength(0);
  });
});

describe('the editor’s SSML reading in the project', () => {
  beforeEach(() => {
    resetStore();
    setBridge({ invoke: () => Promise.resolve({ ok: true, value: null as never }), on: () => () => {} });
  });
  afterEach(() => setBridge(null));

  it('is saved with the document and restored when the project opens; older projects read as auto, strict', async () => {
    useStudioStore.getState().setEditorSsmlOptions({ dialect: 'azure', lenient: true });
    const doc = toProjectDocument();
    expect(doc.editor.ssmlOptions).toEqual({ dialect: 'azure', lenient: true });
    resetStore();
    await applyProjectDocument(doc, null);
    expect(useStudioStore.getState().editorSsmlOptions).toEqual({ dialect: 'azure', lenient: true });
    const { ssmlOptions: _dropped, ...older } = doc.editor;
    await applyProjectDocument({ ...doc, editor: older }, null);
    expect(useStudioStore.getState().editorSsmlOptions).toEqual({ dialect: 'auto', lenient: false });
  });
});

describe('saveProject', () => {
  afterEach(() => setBridge(null));

  it('discards the autosave slot after a save, so the next session does not offer a stale copy', async () => {
    resetStore();
    const channels: string[] = [];
    setBridge({
      invoke: async (channel) => {
        channels.push(channel);
        const answers: Record<string, unknown> = { 'studio:projects.save': { path: '/p/a.qtts.json', savedAtMs: 5 }, 'studio:projects.listRecent': [], 'studio:projects.discardRecovery': { discarded: true } };
        return { ok: true, value: answers[channel] as never };
      },
      on: () => () => {},
    });
    await saveProject();
    expect(channels).toContain('studio:projects.discardRecovery');
    expect(useStudioStore.getState().projectPath).toBe('/p/a.qtts.json');
  });
});

describe('recovery, new project and deleting a project file', () => {
  const autosaved = (id: string, name: string): ProjectDocument => ({ ...toProjectDocument(), id, name, editor: { text: '<speak>autosaved text</speak>', inputFormat: 'ssml' } });
  let recovery: { project: ProjectDocument; path: string | null; autosavedAtMs: number } | null;
  /** The project files on disk by path, with when each was saved. */
  let files: Record<string, { project: ProjectDocument; savedAtMs: number; outsideFolder?: boolean }>;
  let calls: { channel: string; request: unknown }[];
  beforeEach(() => {
    resetStore();
    calls = [];
    files = {};
    setBridge({
      invoke: (channel, request) => {
        calls.push({ channel, request });
        if (channel === 'studio:projects.readRecovery') return Promise.resolve({ ok: true, value: recovery as never });
        if (channel === 'studio:projects.list') return Promise.resolve({ ok: true, value: Object.entries(files).filter(([, f]) => !f.outsideFolder).map(([path, f]) => ({ path, name: f.project.name, savedAtMs: f.savedAtMs })) as never });
        // Opening a file puts it first in recent projects with the time it was opened (project-service.ts).
        if (channel === 'studio:projects.listRecent') return Promise.resolve({ ok: true, value: Object.entries(files).map(([path, f]) => ({ path, name: f.project.name, savedAtMs: 10_000 })) as never });
        if (channel === 'studio:projects.open') {
          const { path } = request as { path: string };
          const file = files[path];
          return Promise.resolve(file ? { ok: true, value: { path, project: JSON.parse(JSON.stringify(file.project)) } as never } : { ok: false, error: { code: 'not-found', message: `no project file at ${path}`, details: {} } });
        }
        return Promise.resolve({ ok: true, value: { deleted: true, discarded: true } as never });
      },
      on: () => () => {},
    });
  });
  afterEach(() => setBridge(null));

  it('asks about an autosave of another project (a session that ended unsaved)', async () => {
    recovery = { project: autosaved('other-project', 'Left unsaved'), path: null, autosavedAtMs: 1 };
    await checkRecovery();
    expect(useStudioStore.getState().recovery?.project.name).toBe('Left unsaved');
  });

  it('does not ask about an autosave its saved project file already holds, and drops it', async () => {
    const saved = autosaved('saved-project', 'Saved');
    files['/p/saved.qtts.json'] = { project: saved, savedAtMs: 100 };
    // Keys in another order and an absent optional member, as the file reads back: the same document.
    recovery = { project: { ...saved, editor: { inputFormat: 'ssml', text: saved.editor.text, ssmlOptions: undefined } }, path: '/p/saved.qtts.json', autosavedAtMs: 200 };
    await checkRecovery();
    expect(useStudioStore.getState().recovery).toBeNull();
    expect(calls.map((c) => c.channel)).toContain('studio:projects.discardRecovery');
  });

  it('asks when the autosave is newer than its file and differs, or the file is gone; not when the file was saved after it', async () => {
    const saved = autosaved('saved-project', 'Saved');
    const edited = { ...saved, editor: { ...saved.editor, text: '<speak>edited after the save</speak>' } };
    files['/p/saved.qtts.json'] = { project: saved, savedAtMs: 100 };
    recovery = { project: edited, path: '/p/saved.qtts.json', autosavedAtMs: 200 };
    await checkRecovery();
    expect(useStudioStore.getState().recovery?.project.editor.text).toBe('<speak>edited after the save</speak>');

    useStudioStore.getState().setRecovery(null);
    files['/p/saved.qtts.json'].savedAtMs = 300; // saved again after that autosave
    await checkRecovery();
    expect(useStudioStore.getState().recovery).toBeNull();

    delete files['/p/saved.qtts.json'];
    await checkRecovery();
    expect(useStudioStore.getState().recovery?.path).toBe('/p/saved.qtts.json');

    // A file outside the projects folder has no file time to go by (recent projects only say when it was opened): asked.
    useStudioStore.getState().setRecovery(null);
    files['/elsewhere/saved.qtts.json'] = { project: saved, savedAtMs: 100, outsideFolder: true };
    recovery = { project: edited, path: '/elsewhere/saved.qtts.json', autosavedAtMs: 200 };
    await checkRecovery();
    expect(useStudioStore.getState().recovery?.path).toBe('/elsewhere/saved.qtts.json');
  });

  it('brings back the autosave of the project this page shows (a reload) without asking, keeping the newer text', async () => {
    const s = useStudioStore.getState();
    s.setProjectMeta({ projectId: 'same-project', projectName: 'Reloaded' });
    s.setEditorText('<speak>newer text from the session</speak>');
    recovery = { project: autosaved('same-project', 'Reloaded'), path: null, autosavedAtMs: 1 };
    await checkRecovery();
    expect(useStudioStore.getState().recovery).toBeNull();
    expect(useStudioStore.getState().editorText).toBe('<speak>newer text from the session</speak>');
  });

  it('starts a new empty project with a new id and drops the old autosave', () => {
    const s = useStudioStore.getState();
    s.setProjectMeta({ projectId: 'old', projectName: 'Old', projectPath: '/data/projects/old.studio.json' });
    s.setEditorText('<speak>old</speak>');
    newProject();
    const n = useStudioStore.getState();
    expect(n.projectId).not.toBe('old');
    expect(n.projectPath).toBeNull();
    expect(n.projectName).toBe(UNTITLED_PROJECT_NAME);
    expect(n.editorText).toBe(DEFAULT_DOCUMENT);
    expect(n.turns).toEqual([]);
    expect(calls.map((c) => c.channel)).toContain('studio:projects.discardRecovery');
  });

  it('deleting the open project file leaves the document open and unsaved to any path', async () => {
    useStudioStore.getState().setProjectMeta({ projectPath: '/data/projects/a.studio.json' });
    await deleteProjectFile('/data/projects/a.studio.json');
    expect(calls.find((c) => c.channel === 'studio:projects.delete')?.request).toEqual({ path: '/data/projects/a.studio.json' });
    expect(useStudioStore.getState().projectPath).toBeNull();
    expect(useStudioStore.getState().projectError).toBeNull();
  });
});
