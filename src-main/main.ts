/**
 * Electron composition root: builds the shared runtime with a utilityProcess engine host,
 * registers IPC and opens the window (contextIsolation + sandbox on, nodeIntegration off,
 * a strict CSP, navigation and new windows blocked). No logic lives here.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, session, shell } from 'electron';
import { registerIpc } from './ipc/register-ipc';
import { createStudioRuntime } from './runtime/studio-runtime';
import { spawnUtilityHost } from './engine-host/utility-host';
import { CONTENT_SECURITY_POLICY } from './headless/static-files';

const here = path.dirname(fileURLToPath(import.meta.url));

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Qwen3-TTS Studio',
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(path.join(here, '../renderer/index.html'));
  return win;
}

async function start(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  const runtime = createStudioRuntime({
    hostKind: 'electron',
    version: app.getVersion(),
    userDataDir: process.env.STUDIO_DATA_DIR ?? app.getPath('userData'),
    model: process.env.STUDIO_MODEL,
    spawnHost: (args) => spawnUtilityHost(path.join(here, 'engine-host.js'), args),
  });
  registerIpc(runtime.dispatcher, runtime.services, (m) => console.warn(m));
  void runtime.host.start().catch((err: Error) => console.error(`[studio] engine host failed to start: ${err.message}`));
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    void runtime.dispose().finally(() => app.quit());
  });
}

void start();
