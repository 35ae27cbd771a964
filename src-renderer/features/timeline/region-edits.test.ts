// Dragging a turn's region: a move sets the gap before it, the left edge trims the start and keeps
// the words in place (the gap grows with the trim), the right edge trims the end; bounds hold.
import { describe, expect, it } from 'vitest';
import { editForRegionDrop } from './region-edits';

const at = { fromStartS: 2, fromEndS: 4, gapBeforeS: 0.15 };

describe('editForRegionDrop', () => {
  it('moves the gap before a turn dragged by its label', () => {
    expect(editForRegionDrop({ ...at, toStartS: 2.5, toEndS: 4.5 }, undefined)).toEqual({ gapBeforeMs: 650 });
    expect(editForRegionDrop({ ...at, toStartS: 1, toEndS: 3 }, undefined)).toEqual({ gapBeforeMs: 0 }); // not below 0
  });

  it('trims the start where the left edge is dropped, the gap growing by as much', () => {
    expect(editForRegionDrop({ ...at, toStartS: 2.3, toEndS: 4 }, undefined)).toEqual({ trimStartMs: 300, gapBeforeMs: 450 });
  });

  it('gives back a trimmed start when the left edge goes back, but never below 0', () => {
    const trimmed = { trimStartMs: 300, trimEndMs: 0, gapBeforeMs: 450, gainDb: 0 };
    expect(editForRegionDrop({ ...at, gapBeforeS: 0.45, toStartS: 1.8, toEndS: 4 }, trimmed)).toEqual({ trimStartMs: 100, gapBeforeMs: 250 });
    expect(editForRegionDrop({ ...at, gapBeforeS: 0.45, toStartS: 1, toEndS: 4 }, trimmed)).toEqual({ trimStartMs: 0, gapBeforeMs: 150 });
  });

  it('trims the end where the right edge is dropped', () => {
    expect(editForRegionDrop({ ...at, toStartS: 2, toEndS: 3.6 }, undefined)).toEqual({ trimEndMs: 400 });
    expect(editForRegionDrop({ ...at, toStartS: 2, toEndS: 4.9 }, { trimStartMs: 0, trimEndMs: 200, gapBeforeMs: null, gainDb: 0 })).toEqual({ trimEndMs: 0 });
  });

  it('reads a click (no movement) as no edit', () => {
    expect(editForRegionDrop({ ...at, toStartS: 2.001, toEndS: 4.001 }, undefined)).toBeNull();
  });
});
