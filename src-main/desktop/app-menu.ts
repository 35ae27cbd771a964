/**
 * The application menu as a plain template (the subset of Electron's MenuItemConstructorOptions it
 * uses), so it is tested without Electron: File (open, save, save as, import, quit), Edit, View
 * (the studio's areas, zoom, full screen, dev tools), Window and Help, with the usual shortcuts.
 * Items the renderer carries out call `send(command)`; the rest are Electron roles.
 */
import type { MenuCommand } from '../../src-shared/contract/desktop';

export interface MenuItemTemplate {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItemTemplate[];
}

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Dev tools and reload in the View menu. */
  isDev: boolean;
  send(command: MenuCommand): void;
  openExternal(url: string): void;
}

export const HELP_URL = 'https://github.com/QwenLM/Qwen3-TTS';

const AREA_ITEMS: [MenuCommand, string][] = [
  ['show-voice', 'Voice'],
  ['show-timeline', 'Timeline'],
  ['show-library', 'Library'],
  ['show-bench', 'Benchmark'],
  ['show-models', 'Models'],
  ['show-settings', 'Settings'],
];

export function buildAppMenu(o: AppMenuOptions): MenuItemTemplate[] {
  const isMac = o.platform === 'darwin';
  const command = (label: string, cmd: MenuCommand, accelerator?: string): MenuItemTemplate => ({ label, accelerator, click: () => o.send(cmd) });
  const separator: MenuItemTemplate = { type: 'separator' };
  const menu: MenuItemTemplate[] = [];
  if (isMac) {
    menu.push({ label: o.appName, submenu: [{ role: 'about' }, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }] });
  }
  menu.push({
    label: '&File',
    submenu: [
      command('Open Project…', 'open-project', 'CmdOrCtrl+O'),
      command('Save Project', 'save-project', 'CmdOrCtrl+S'),
      command('Save Project As…', 'save-project-as', 'CmdOrCtrl+Shift+S'),
      separator,
      command('Import Audio…', 'import-audio', 'CmdOrCtrl+I'),
      separator,
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  menu.push({
    label: '&Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, separator, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
  });
  menu.push({
    label: '&View',
    submenu: [
      ...AREA_ITEMS.map(([cmd, label], i) => command(label, cmd, `CmdOrCtrl+${i + 1}`)),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
      ...(o.isDev ? [separator, { role: 'reload' }, { role: 'toggleDevTools' }] : []),
    ],
  });
  menu.push({ label: '&Window', submenu: isMac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }] });
  menu.push({ label: '&Help', role: 'help', submenu: [{ label: 'Qwen3-TTS on GitHub', click: () => o.openExternal(HELP_URL) }] });
  return menu;
}
