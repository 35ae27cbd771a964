/**
 * A turn's region dragged on the Timeline's waveform, as a turn edit: moving the region (by its
 * label) moves the gap before it; its left edge trims the take's start where the edge is dropped
 * (the gap grows by the same amount, so the turn's words stay put and only the cut moves); its
 * right edge trims the end (later turns follow). Trims never go below 0, gaps stay within the
 * shared limits. Pure.
 */
import { TURN_EDIT_LIMITS, type TurnEdit } from '../../../src-shared/contract/projects';
import { NO_EDIT } from '../../components/compose-timeline';

export interface RegionDrop {
  /** Where the region was before the drag, in seconds on the composed timeline. */
  fromStartS: number;
  fromEndS: number;
  /** Where it was dropped. */
  toStartS: number;
  toEndS: number;
  /** Silence before the turn before the drag (its start minus the previous turn's end). */
  gapBeforeS: number;
}

/** Changes smaller than this are a click, not a drag. */
const MIN_CHANGE_MS = 5;

const clamp = (v: number, r: { min: number; max: number }) => Math.max(r.min, Math.min(r.max, v));
const ms = (s: number) => Math.round(s * 1000);

/** The edit patch for a dropped region, or null when nothing moved. */
export function editForRegionDrop(drop: RegionDrop, current: TurnEdit | undefined): Partial<TurnEdit> | null {
  const edit = { ...NO_EDIT, ...current };
  const dStartMs = ms(drop.toStartS - drop.fromStartS);
  const dEndMs = ms(drop.toEndS - drop.fromEndS);
  const gapMs = ms(drop.gapBeforeS);
  const startMoved = Math.abs(dStartMs) >= MIN_CHANGE_MS;
  const endMoved = Math.abs(dEndMs) >= MIN_CHANGE_MS;
  if (!startMoved && !endMoved) return null;
  // Both edges by the same amount: a move.
  if (startMoved && endMoved && Math.abs(dStartMs - dEndMs) < MIN_CHANGE_MS) {
    return { gapBeforeMs: clamp(gapMs + dStartMs, TURN_EDIT_LIMITS.gapBeforeMs) };
  }
  if (startMoved) {
    // Cannot un-trim past the take's first sample, nor pull the start before the previous turn.
    const trimStartMs = clamp(Math.max(edit.trimStartMs + dStartMs, 0), TURN_EDIT_LIMITS.trimMs);
    const applied = trimStartMs - edit.trimStartMs;
    return { trimStartMs, gapBeforeMs: clamp(gapMs + applied, TURN_EDIT_LIMITS.gapBeforeMs) };
  }
  return { trimEndMs: clamp(edit.trimEndMs - dEndMs, TURN_EDIT_LIMITS.trimMs) };
}
