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
