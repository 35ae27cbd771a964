// Takes bookkeeping in the timeline slice: a full generation lays out turns, a regeneration adds a chosen take, choose and revert swap.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStudioStore } from '../../store/store';
import type { ClipRecord } from '../../../src-shared/contract/library';

const clip = { id: 'c1', createdAtMs: 5, seed: 42, numSamples: 100, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 40 }, { turnIndex: 1, startSample: 50, endSample: 100 }] } as ClipRecord;
let n = 0;
const ids = () => `t${++n}`;

describe('timeline slice', () => {
  beforeEach(() => {
    resetStore();
    n = 0;
  });

  it('gives every turn of a full generation one chosen take of that clip', () => {
    useStudioStore.getState().setBaseClip(clip, null, [], ids);
    const { turns, baseLayout } = useStudioStore.getState();
    expect(baseLayout).toEqual({ clipId: 'c1', numSamples: 100, turnSpans: clip.turnSpans });
    expect(turns.map((t) => [t.turnIndex, t.takes.length, t.chosenTakeId])).toEqual([[0, 1, 't1'], [1, 1, 't2']]);
  });

  it('chooses a new take, remembers the previous one and reverts to it', () => {
    const s = useStudioStore.getState();
    s.setBaseClip(clip, null, [], ids);
    s.addTake(1, { takeId: 'new', clipId: 'c2', seed: 7, startSample: 50, endSample: 120, createdAtMs: 9 });
    let turn = useStudioStore.getState().turns[1];
    expect([turn.chosenTakeId, turn.previousTakeId, turn.takes.length]).toEqual(['new', 't2', 2]);
    useStudioStore.getState().revertTake(1);
    turn = useStudioStore.getState().turns[1];
    expect([turn.chosenTakeId, turn.previousTakeId]).toEqual(['t2', 'new']);
    useStudioStore.getState().chooseTake(1, 'missing');
    expect(useStudioStore.getState().turns[1].chosenTakeId).toBe('t2');
    expect(useStudioStore.getState().turns[0].chosenTakeId).toBe('t1');
  });
});

describe('timeline edits and undo/redo', () => {
  beforeEach(() => {
    resetStore();
    n = 0;
    useStudioStore.getState().setBaseClip(clip, null, [], ids);
  });

  it('undoes and redoes every edit: a new take, a choice, a trim, a gain', () => {
    const s = () => useStudioStore.getState();
    s().addTake(1, { takeId: 'new', clipId: 'c2', seed: 7, startSample: 0, endSample: 70, createdAtMs: 9 });
    s().chooseTake(1, 't2');
    s().setTurnEdit(0, { trimStartMs: 100 }, 1_000);
    s().setTurnEdit(0, { gainDb: -6 }, 1_100);
    expect(s().turns[0].edit).toEqual({ trimStartMs: 100, trimEndMs: 0, gapBeforeMs: null, gainDb: -6 });
    s().undo();
    expect(s().turns[0].edit).toEqual({ trimStartMs: 100, trimEndMs: 0, gapBeforeMs: null, gainDb: 0 });
    s().undo();
    expect(s().turns[0].edit).toBeUndefined();
    s().undo();
    expect(s().turns[1].chosenTakeId).toBe('new');
    s().undo();
    expect(s().turns[1].takes).toHaveLength(1);
    s().undo(); // nothing left: no-op
    expect(s().turns[1].takes).toHaveLength(1);
    s().redo();
    s().redo();
    expect(s().turns[1]).toMatchObject({ chosenTakeId: 't2' });
    expect(s().turns[1].takes).toHaveLength(2);
    s().setTurnEdit(1, { gapBeforeMs: 300 }, 5_000); // a new edit drops what was undone
    expect(s().redoStack).toEqual([]);
  });

  it('merges quick edits of one field into one undo step, and a full generation clears the history', () => {
    const s = () => useStudioStore.getState();
    s().setTurnEdit(1, { trimEndMs: 1 }, 1_000);
    s().setTurnEdit(1, { trimEndMs: 12 }, 1_300);
    s().setTurnEdit(1, { trimEndMs: 120 }, 1_600);
    s().setTurnEdit(1, { trimEndMs: 150 }, 4_000);
    expect(s().undoStack).toHaveLength(2);
    s().undo();
    expect(s().turns[1].edit?.trimEndMs).toBe(120);
    s().setBaseClip(clip, null, [], ids);
    expect([s().undoStack.length, s().redoStack.length]).toEqual([0, 0]);
  });
});
