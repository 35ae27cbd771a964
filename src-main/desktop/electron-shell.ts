/**
 * The Electron side of the desktop affordances, kept to thin adapters over the pure modules beside
 * it: native dialogs as a DialogPort, the application menu, notifications, and export downloads
 * (the renderer's exports go through Electron's download, whose save dialog we set up and whose
 * chosen path we grant).
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, Menu, Notification, shell, type MenuItemConstructorOptions, type Session } from 'electron';
import type { MenuCommand } from '../../src-shared/contract/desktop';
import { buildAppMenu } from './app-menu';
import type { DesktopService, DialogPort } from './desktop-service';

const parentWindow = (): BrowserWindow | undefined => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];

export function electronDialogs(): DialogPort {
  return {
    async showOpen(o) {
      const properties: ('openFile' | 'multiSelections')[] = o.multiple ? ['openFile', 'multiSelections'] : ['openFile'];
      const options = { title: o.title, filters: o.filters, defaultPath: o.defaultPath, properties };
      const win = parentWindow();
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? [] : result.filePaths;
    },
    async showSave(o) {
      const options = { title: o.title, filters: o.filters, defaultPath: o.defaultPath };
      const win = parentWindow();
      const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
  };
}

export function installAppMenu(send: (command: MenuCommand) => void): void {
  const template = buildAppMenu({
    platform: process.platform,
    appName: app.getName(),
    isDev: !app.isPackaged,
    send,
    openExternal: (url) => void shell.openExternal(url),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template as MenuItemConstructorOptions[]));
}

export function showNotification(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body }).show();
}

/** Exports (the renderer's downloads: audio in any format, benchmark reports): a native save dialog, and the chosen file granted. */
export function handleExportDownloads(session: Session, desktop: DesktopService): void {
  session.on('will-download', (_event, item) => {
    // Audio exports (wav, mp3, opus, …) and benchmark reports (json, md, html) all arrive here.
    const ext = path.extname(item.getFilename()).slice(1).toLowerCase();
    item.setSaveDialogOptions({
      title: 'Export',
      defaultPath: path.join(app.getPath('documents'), item.getFilename()),
      filters: [...(ext ? [{ name: `${ext.toUpperCase()} file`, extensions: [ext] }] : []), { name: 'All files', extensions: ['*'] }],
    });
    item.once('done', (_e, state) => {
      if (state === 'completed' && item.getSavePath()) desktop.grantExport(item.getSavePath());
    });
  });
}
