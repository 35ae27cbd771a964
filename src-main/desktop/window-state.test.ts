// Window placement from a saved state and today's displays: kept where it was when its title bar is
// on a display, centred (no x/y) when that display is gone, clamped to fit, defaults for garbage;
// and the state file round-trips through the data folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, placeWindow, readWindowState, windowStatePath, writeWindowState } from './window-state';

const laptop = { x: 0, y: 0, width: 1920, height: 1050 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('placeWindow', () => {
  it('keeps a window that is on a current display', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1600, height: 1000 }, maximized: true };
    expect(placeWindow(saved, [laptop, rightMonitor])).toEqual({ x: 2000, y: 100, width: 1600, height: 1000, maximized: true });
  });

  it('centres (no x/y) a window whose monitor was unplugged, shrunk to the primary display', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 2400, height: 1300 }, maximized: false };
    expect(placeWindow(saved, [laptop])).toEqual({ width: 1920, height: 1050, maximized: false });
  });

  it('needs enough of the title bar on a display: a window dragged almost off-screen is centred', () => {
    // Only 50 px of the title bar (x 1870..1920) is on the laptop: less than the 120 px required.
    const saved = { bounds: { x: 1870, y: 10, width: 1200, height: 800 }, maximized: false };
    expect(placeWindow(saved, [laptop])).toEqual({ width: 1200, height: 800, maximized: false });
    // A title bar above the top of every display is not reachable either.
    expect(placeWindow({ bounds: { x: 100, y: -500, width: 1200, height: 800 } }, [laptop])).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it('pulls a window that is too big for its display back inside it', () => {
    const saved = { bounds: { x: 1000, y: 500, width: 3000, height: 2000 }, maximized: false };
    expect(placeWindow(saved, [laptop])).toEqual({ x: 0, y: 0, width: 1920, height: 1050, maximized: false });
  });

  it('uses the defaults for missing, malformed or non-finite state and never goes below the minimum size', () => {
    for (const garbage of [null, 'x', {}, { bounds: { x: 'a', y: 0, width: 1, height: 1 } }, { bounds: { x: 0, y: 0, width: Infinity, height: 1 } }]) {
      expect(placeWindow(garbage, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
    }
    expect(placeWindow({ bounds: { x: 10, y: 10, width: 20, height: 20 } }, [laptop])).toEqual({ x: 10, y: 10, width: 800, height: 560, maximized: false });
  });
});

describe('window state file', () => {
  it('round-trips and reads a corrupt file as nothing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'winstate-'));
    try {
      expect(readWindowState(dir)).toBeNull();
      const state = { bounds: { x: 1, y: 2, width: 1000, height: 700 }, maximized: false };
      await writeWindowState(dir, state);
      expect(readWindowState(dir)).toEqual(state);
      writeFileSync(windowStatePath(dir), '{"bounds":');
      expect(readWindowState(dir)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
