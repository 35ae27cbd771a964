// @vitest-environment jsdom
// Desktop menu commands and dropped files against a scripted bridge: Save As asks main's dialog for
// a path and saves there, a cancelled dialog changes nothing, View items switch areas, dropped SSML
// lands in the editor, imports and refusals come back as one notice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../ipc/client';
import { resetStore, useStudioStore } from '../store/store';
import type { StudioBridge } from '../../src-shared/ipc-contract';
import { acceptDroppedFiles, runMenuCommand } from './desktop-actions';

function scriptedBridge(answers: Record<string, unknown>, calls: [string, unknown][]): StudioBridge {
  return {
    invoke: (channel, request) => {
      calls.push([channel, request]);
      return Promise.resolve({ ok: true, value: answers[channel] as never });
    },
    on: () => () => {},
  };
}

describe('desktop actions', () => {
  let calls: [string, unknown][];
  beforeEach(() => {
    resetStore();
    calls = [];
  });
  afterEach(() => setBridge(null));

  it('saves as the path the save dialog returned, and does nothing when it is cancelled', async () => {
    setBridge(scriptedBridge({ 'studio:desktop.showSaveProject': { path: '/home/u/talk.studio.json' }, 'studio:projects.save': { path: '/home/u/talk.studio.json', savedAtMs: 5 }, 'studio:projects.listRecent': [] }, calls));
    useStudioStore.getState().setProjectMeta({ projectName: 'Talk' });
    expect(await runMenuCommand('save-project-as')).toBeNull();
    expect(calls[0]).toEqual(['studio:desktop.showSaveProject', { suggestedName: 'Talk' }]);
    expect(calls[1]![0]).toBe('studio:projects.save');
    expect((calls[1]![1] as { path: string }).path).toBe('/home/u/talk.studio.json');
    expect(useStudioStore.getState().projectPath).toBe('/home/u/talk.studio.json');

    calls.length = 0;
    setBridge(scriptedBridge({ 'studio:desktop.showSaveProject': { path: null } }, calls));
    await runMenuCommand('save-project-as');
    expect(calls.map((c) => c[0])).toEqual(['studio:desktop.showSaveProject']);
  });

  it('switches areas from the View menu and reports imports', async () => {
    setBridge(scriptedBridge({ 'studio:desktop.showImportAudio': { imported: [{ originalName: 'me.wav', path: '/data/imports/1-me.wav', sizeBytes: 4 }] } }, calls));
    await runMenuCommand('show-bench');
    expect(useStudioStore.getState().area).toBe('bench');
    expect(await runMenuCommand('import-audio')).toMatch(/Imported 1 audio file into the data folder: me\.wav → \/data\/imports\/1-me\.wav/);
  });

  it('puts dropped SSML in the editor and reports refused files', async () => {
    setBridge(scriptedBridge({}, calls));
    const notice = await acceptDroppedFiles([
      { kind: 'ssml', name: 'scene.ssml', text: '<speak>Hi</speak>' },
      { kind: 'refused', name: 'x.png', reason: 'x.png: drop audio, text, SSML or a project' },
    ]);
    const s = useStudioStore.getState();
    expect([s.editorText, s.editorFormat, s.area]).toEqual(['<speak>Hi</speak>', 'ssml', 'timeline']);
    expect(notice).toBe('scene.ssml is in the editor. x.png: drop audio, text, SSML or a project');
  });

  it('turns a failed dialog call into a notice', async () => {
    setBridge({ invoke: () => Promise.resolve({ ok: false, error: { code: 'unsupported', message: 'native dialogs exist only in the desktop app', details: {} } }), on: () => () => {} });
    expect(await runMenuCommand('open-project')).toBe('native dialogs exist only in the desktop app');
  });
});
