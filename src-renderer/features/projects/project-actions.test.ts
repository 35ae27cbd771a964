// @vitest-environment jsdom
// Autosave against an in-memory bridge: the project counts as unsaved until the write that
// covers its latest change has finished, and a pending write is flushed when the page goes away.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridge } from '../../ipc/client';
import { resetStore, useStudioStore } from '../../store/store';
import type { StudioBridge } from '../../../src-shared/ipc-contract';
import type { ProjectDocument } from '../../../src-shared/contract/projects';
import { applyProjectDocument, hasUnsavedChanges, startAutosave, toProjectDocument } from './project-actions';

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
