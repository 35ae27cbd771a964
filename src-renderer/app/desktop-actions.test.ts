// @vitest-environment jsdom
// Desktop menu commands and dropped files against a scripted bridge: Save As asks main's dialog for
// a path and saves there, a cancelled dialog changes nothing, View items switch areas, dropped SSML
// lands in the editor, imports and refusals come back as one notice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../ipc/client';
import { resetStore, useStudioStore } from '../store/store';
import { StudioError } from '../../src-shared/errors';
import { installScriptedBridge } from '../testing/scripted-bridge';
import { acceptDroppedFiles, runMenuCommand } from './desktop-actions';

describe('desktop actions', () => {
  beforeEach(() => resetStore());
  afterEach(() => setBridge(null));

  it('saves as the path the save dialog returned, and does nothing when it is cancelled', async () => {
    let bridge = installScriptedBridge({ 'studio:desktop.showSaveProject': { path: '/home/u/talk.studio.json' }, 'studio:projects.save': { path: '/home/u/talk.studio.json', savedAtMs: 5 }, 'studio:projects.listRecent': [] });
    useStudioStore.getState().setProjectMeta({ projectName: 'Talk' });
    expect(await runMenuCommand('save-project-as')).toBeNull();
    expect(bridge.calls[0]).toEqual({ channel: 'studio:desktop.showSaveProject', request: { suggestedName: 'Talk' } });
    expect(bridge.calls[1].channel).toBe('studio:projects.save');
    expect((bridge.calls[1].request as { path: string }).path).toBe('/home/u/talk.studio.json');
    expect(useStudioStore.getState().projectPath).toBe('/home/u/talk.studio.json');

    bridge = installScriptedBridge({ 'studio:desktop.showSaveProject': { path: null } });
    await runMenuCommand('save-project-as');
    expect(bridge.calls.map((c) => c.channel)).toEqual(['studio:desktop.showSaveProject']);
  });

  it('switches areas from the View menu and reports imports', async () => {
    installScriptedBridge({ 'studio:desktop.showImportAudio': { imported: [{ originalName: 'me.wav', path: '/data/imports/1-me.wav', sizeBytes: 4 }] } });
    await runMenuCommand('show-bench');
    expect(useStudioStore.getState().area).toBe('bench');
    expect(await runMenuCommand('import-audio')).toMatch(/Imported 1 audio file into the data folder: me\.wav → \/data\/imports\/1-me\.wav/);
  });

  it('puts dropped SSML in the editor and reports refused files', async () => {
    installScriptedBridge({});
    const notice = await acceptDroppedFiles([
      { kind: 'ssml', name: 'scene.ssml', text: '<speak>Hi</speak>' },
      { kind: 'refused', name: 'x.png', reason: 'x.png: drop audio, text, SSML or a project' },
    ]);
    const s = useStudioStore.getState();
    expect([s.editorText, s.editorFormat, s.area]).toEqual(['<speak>Hi</speak>', 'ssml', 'timeline']);
    expect(notice).toBe('scene.ssml is in the editor. x.png: drop audio, text, SSML or a project');
  });

  it('turns a failed dialog call into a notice', async () => {
    installScriptedBridge({}, () => {
      throw new StudioError('unsupported', 'native dialogs exist only in the desktop app');
    });
    expect(await runMenuCommand('open-project')).toBe('native dialogs exist only in the desktop app');
  });
});
