/**
 * The studio window: placed where it was last time (window-state.ts, checked against today's
 * displays), its size and position saved to the data folder as it changes; contextIsolation and
 * sandbox on, nodeIntegration off, navigation and new windows blocked.
 */
import { BrowserWindow, screen, shell } from 'electron';
import { MIN_WINDOW_SIZE, placeWindow, readWindowState, writeWindowState } from './window-state';

const SAVE_DELAY_MS = 500;

export interface MainWindowOptions {
  dataDir: string;
  preloadPath: string;
  /** The dev server URL, or null to load the built page. */
  devUrl: string | null;
  indexHtml: string;
}

export function createMainWindow(o: MainWindowOptions): BrowserWindow {
  const primary = screen.getPrimaryDisplay();
  const workAreas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
  const placement = placeWindow(readWindowState(o.dataDir), workAreas);
  const win = new BrowserWindow({
    width: placement.width,
    height: placement.height,
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : { center: true }),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: 'Qwen3-TTS Studio',
    webPreferences: {
      preload: o.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  if (placement.maximized) win.maximize();
  trackWindowState(win, o.dataDir);
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  if (o.devUrl) void win.loadURL(o.devUrl);
  else void win.loadFile(o.indexHtml);
  return win;
}

function trackWindowState(win: BrowserWindow, dataDir: string): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    void writeWindowState(dataDir, { bounds: win.getNormalBounds(), maximized: win.isMaximized() }).catch(() => {});
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event as 'resize', later);
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    save();
  });
}
