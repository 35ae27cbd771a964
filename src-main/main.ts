/**
 * Electron composition root: checks the native modules, builds the shared stack with a
 * utilityProcess engine host and the desktop service (dialogs, grants, imports), registers IPC,
 * the menu, notifications and export downloads, and opens the window. No logic lives here.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, session } from 'electron';
import { EVENTS } from '../src-shared/ipc-contract';
import { FileGrants } from './access/file-grants';
import { createBackgroundNotifier } from './desktop/background-notifier';
import { DesktopService } from './desktop/desktop-service';
import { electronDialogs, handleExportDownloads, installAppMenu, showNotification } from './desktop/electron-shell';
import { createMainWindow } from './desktop/electron-window';
import { checkNativeModules, formatNativeChecks } from './desktop/native-modules';
import { registerDesktopIpc, sendToWindow } from './ipc/desktop-ipc';
import { registerIpc } from './ipc/register-ipc';
import { createStudioStack } from './app/studio-stack';
import { defaultUserDataDir } from './platform/paths';
import { spawnUtilityHost } from './engine-client/utility-host';
import { CONTENT_SECURITY_POLICY } from './headless/static-files';

const here = path.dirname(fileURLToPath(import.meta.url));
const warn = (m: string) => console.warn(m);

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  for (const line of formatNativeChecks(checkNativeModules())) console.log(line);
  // The same data folder as the CLI and headless host (STUDIO_DATA_DIR or the OS's per-user folder).
  const dataDir = defaultUserDataDir();
  const grants = new FileGrants();
  const desktop = new DesktopService({ dialogs: electronDialogs(), grants, dataDir });
  const stack = createStudioStack({
    hostKind: 'electron',
    version: app.getVersion(),
    userDataDir: dataDir,
    model: process.env.STUDIO_MODEL,
    spawnHost: (args) => spawnUtilityHost(path.join(here, 'engine-host.js'), args),
    desktop,
    grants, // one set: what the dialogs grant is what the project service checks
  });
  const notifier = createBackgroundNotifier({ isWindowFocused: () => BrowserWindow.getFocusedWindow() !== null, show: showNotification });
  registerIpc(stack.dispatcher, stack.services, warn, { onDidCall: (c, ms, ok) => notifier.onDidCall(c, ms, ok), onDidEmit: (e, p) => notifier.onDidEmit(e, p) });
  registerDesktopIpc((paths) => desktop.acceptDroppedPaths(paths), warn);
  installAppMenu((command) => {
    const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    if (win) sendToWindow(win.webContents, EVENTS.onDidInvokeMenu, { command });
  });
  handleExportDownloads(session.defaultSession, desktop);
  void stack.host.start().catch((err: Error) => console.error(`[studio] engine host failed to start: ${err.message}`));
  const openWindow = () =>
    createMainWindow({
      dataDir,
      preloadPath: path.join(here, '../preload/preload.cjs'),
      devUrl: process.env.ELECTRON_RENDERER_URL ?? null,
      indexHtml: path.join(here, '../renderer/index.html'),
    });
  openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('window-all-closed', () => {
    void stack.dispose().finally(() => app.quit());
  });
}

void start();
