/**
 * The main window's size and position, remembered in <data>/window-state.json and checked against
 * the displays present now: a saved window whose title bar is on no display (a monitor unplugged)
 * opens centred at its saved size, shrunk to fit; anything malformed falls back to the defaults.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../services/project-service';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** What BrowserWindow gets: x/y only when the saved position is on a display. */
export interface WindowPlacement {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_WINDOW_SIZE = { width: 1400, height: 900 } as const;
export const MIN_WINDOW_SIZE = { width: 800, height: 560 } as const;
/** How much of the title bar must be on a display for the saved position to be kept (px). */
const TITLE_BAR_HEIGHT_PX = 32;
const MIN_VISIBLE_TITLE_PX = 120;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function parseState(value: unknown): WindowState | null {
  if (!value || typeof value !== 'object') return null;
  const { bounds, maximized } = value as { bounds?: Partial<Rect>; maximized?: unknown };
  if (!bounds || ![bounds.x, bounds.y, bounds.width, bounds.height].every(isNum)) return null;
  return { bounds: bounds as Rect, maximized: maximized === true };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window given the saved state (any JSON, possibly garbage) and the work areas
 * of the current displays (primary first).
 */
export function placeWindow(saved: unknown, workAreas: readonly Rect[]): WindowPlacement {
  const state = parseState(saved);
  const primary = workAreas[0];
  const fit = (w: number, h: number, area: Rect | undefined) => ({
    width: Math.round(Math.max(MIN_WINDOW_SIZE.width, Math.min(w, area?.width ?? w))),
    height: Math.round(Math.max(MIN_WINDOW_SIZE.height, Math.min(h, area?.height ?? h))),
  });
  if (!state) return { ...fit(DEFAULT_WINDOW_SIZE.width, DEFAULT_WINDOW_SIZE.height, primary), maximized: false };
  const { bounds } = state;
  const titleBar: Rect = { x: bounds.x, y: bounds.y, width: Math.max(bounds.width, MIN_WINDOW_SIZE.width), height: TITLE_BAR_HEIGHT_PX };
  const home = workAreas.find((area) => {
    const o = overlap(titleBar, area);
    return o.width >= MIN_VISIBLE_TITLE_PX && o.height > 0;
  });
  const size = fit(bounds.width, bounds.height, home ?? primary);
  if (!home) return { ...size, maximized: state.maximized };
  // Keep it on its display: pull it back if its size shrank past the right or bottom edge.
  const x = Math.round(Math.min(Math.max(bounds.x, home.x), home.x + home.width - size.width));
  const y = Math.round(Math.min(Math.max(bounds.y, home.y), home.y + home.height - size.height));
  return { ...size, x, y, maximized: state.maximized };
}

export function windowStatePath(dataDir: string): string {
  return path.join(dataDir, WINDOW_STATE_FILE);
}

/** The saved state as parsed JSON, or null when there is none or it does not parse. */
export function readWindowState(dataDir: string): unknown {
  try {
    return JSON.parse(readFileSync(windowStatePath(dataDir), 'utf8'));
  } catch {
    return null;
  }
}

export async function writeWindowState(dataDir: string, state: WindowState): Promise<void> {
  await writeFileAtomic(windowStatePath(dataDir), `${JSON.stringify(state)}\n`);
}
