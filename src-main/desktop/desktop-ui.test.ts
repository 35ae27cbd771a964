// The application menu (shortcuts, which items reach the renderer, platform differences) and the
// background notifier (only long renders and finished benchmarks, only while the window is unfocused).
import { describe, expect, it } from 'vitest';
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { MENU_COMMANDS, type MenuCommand } from '../../src-shared/contract/desktop';
import { buildAppMenu, type MenuItemTemplate } from './app-menu';
import { createBackgroundNotifier } from './background-notifier';

function flatten(items: MenuItemTemplate[]): MenuItemTemplate[] {
  return items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);
}

function menuFor(platform: NodeJS.Platform, isDev = false) {
  const sent: MenuCommand[] = [];
  const opened: string[] = [];
  const menu = buildAppMenu({ platform, appName: 'Qwen3-TTS Studio', isDev, send: (c) => sent.push(c), openExternal: (u) => opened.push(u) });
  return { menu, items: flatten(menu), sent, opened };
}

describe('application menu', () => {
  it('has the usual shortcuts and sends each renderer command once', () => {
    const { items, sent } = menuFor('linux');
    const byLabel = Object.fromEntries(items.filter((i) => i.label).map((i) => [i.label, i]));
    expect(byLabel['Open Project…']!.accelerator).toBe('CmdOrCtrl+O');
    expect(byLabel['Save Project']!.accelerator).toBe('CmdOrCtrl+S');
    expect(byLabel['Save Project As…']!.accelerator).toBe('CmdOrCtrl+Shift+S');
    expect(byLabel['Import Audio…']!.accelerator).toBe('CmdOrCtrl+I');
    expect(byLabel['Timeline']!.accelerator).toBe('CmdOrCtrl+2');
    for (const item of items) item.click?.();
    expect([...sent].sort()).toEqual([...MENU_COMMANDS].sort());
    const roles = items.map((i) => i.role).filter(Boolean);
    expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'quit', 'togglefullscreen', 'zoomIn']));
    expect(roles).not.toContain('toggleDevTools');
    const accelerators = items.map((i) => i.accelerator).filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length); // no shortcut used twice
  });

  it('puts the app menu first on macOS and dev tools only in development', () => {
    const mac = menuFor('darwin', true);
    expect(mac.menu[0]!.label).toBe('Qwen3-TTS Studio');
    expect(mac.items.map((i) => i.role)).toEqual(expect.arrayContaining(['about', 'hideOthers', 'toggleDevTools', 'front']));
    expect(menuFor('win32').menu[0]!.label).toBe('&File');
  });
});

describe('background notifier', () => {
  function setup(focused: boolean) {
    const shown: string[] = [];
    const n = createBackgroundNotifier({ isWindowFocused: () => focused, show: (t, b) => shown.push(`${t}: ${b}`), minRenderMs: 10_000 });
    return { n, shown };
  }

  it('notifies a long render or a finished benchmark while the window is in the background', () => {
    const { n, shown } = setup(false);
    n.onDidCall(CHANNELS.synthesize, 9_999, true); // too short
    n.onDidCall(CHANNELS.listClips, 60_000, true); // not a render
    n.onDidCall(CHANNELS.synthesize, 12_340, true);
    n.onDidCall(CHANNELS.synthesize, 15_000, false);
    n.onDidEmit(EVENTS.onDidSample, {});
    n.onDidEmit(EVENTS.onDidFinishRun, { status: 'done', error: null });
    n.onDidEmit(EVENTS.onDidFinishRun, { status: 'failed', error: 'engine crashed' });
    expect(shown).toEqual([
      'Render finished: Your audio is ready (took 12.3 s).',
      'Render failed: The render stopped after 15.0 s; open the studio for the reason.',
      'Benchmark finished: The results are on the Benchmark page.',
      'Benchmark failed: engine crashed',
    ]);
  });

  it('stays quiet while the window has focus', () => {
    const { n, shown } = setup(true);
    n.onDidCall(CHANNELS.synthesize, 60_000, true);
    n.onDidEmit(EVENTS.onDidFinishRun, { status: 'done', error: null });
    expect(shown).toEqual([]);
  });
});
