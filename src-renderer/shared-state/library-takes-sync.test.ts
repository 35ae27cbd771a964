// Library takes ↔ Timeline takes: a clip's stored takes join their turns (the Library's choice
// chosen, revert back to the clip's own audio), takes of missing turns are left out, and the turns
// whose choice an edit changed are found.
import { describe, expect, it } from 'vitest';
import type { ClipRecord } from '../../src-shared/contract/library';
import type { ProjectTurn } from '../../src-shared/contract/projects';
import { changedChoices, turnsWithLibraryTakes } from './library-takes-sync';

const own = (turnIndex: number): ProjectTurn => ({
  turnIndex,
  takes: [{ takeId: `own${turnIndex}`, clipId: 'c1', seed: 7, startSample: turnIndex * 100, endSample: turnIndex * 100 + 100, createdAtMs: 1, label: 'Take 1', voice: 'ryan' }],
  chosenTakeId: `own${turnIndex}`,
  previousTakeId: null,
});
const take = (id: string, turnIndex: number, seed: number) => ({ id, seed, voice: 'aiden', numSamples: 240, createdAtMs: seed, takeOf: { clipId: 'c1', turnIndex } }) as unknown as ClipRecord;

describe('turnsWithLibraryTakes', () => {
  const ids = () => {
    let n = 0;
    return () => `k${++n}`;
  };

  it("appends each turn's takes oldest first and chooses the Library's choice", () => {
    const turns = turnsWithLibraryTakes([own(0), own(1)], [take('t1', 1, 11), take('t2', 1, 12)], { 1: 't2' }, ids());
    expect(turns[0]).toEqual(own(0));
    expect(turns[1].takes.map((t) => [t.clipId, t.label, t.seed, t.voice, t.startSample, t.endSample])).toEqual([
      ['c1', 'Take 1', 7, 'ryan', 100, 200],
      ['t1', 'Take 2', 11, 'aiden', 0, 240],
      ['t2', 'Take 3', 12, 'aiden', 0, 240],
    ]);
    expect(turns[1].chosenTakeId).toBe('k2');
    expect(turns[1].previousTakeId).toBe('own1');
  });

  it('keeps the own audio chosen without a choice, and leaves out takes of turns the clip lacks', () => {
    const turns = turnsWithLibraryTakes([own(0)], [take('t1', 0, 11), take('t9', 4, 99)], {}, ids());
    expect(turns).toHaveLength(1);
    expect(turns[0].takes.map((t) => t.clipId)).toEqual(['c1', 't1']);
    expect([turns[0].chosenTakeId, turns[0].previousTakeId]).toEqual(['own0', null]);
  });

  it('ignores a stored choice whose take is gone', () => {
    expect(turnsWithLibraryTakes([own(0)], [], { 0: 'deleted' }, ids())[0].chosenTakeId).toBe('own0');
  });
});

describe('changedChoices', () => {
  it('names the turns whose chosen take changed, and new turns', () => {
    const before = [own(0), own(1)];
    const after = [own(0), { ...own(1), chosenTakeId: 'x' }, own(2)];
    expect(changedChoices(before, after)).toEqual([1, 2]);
    expect(changedChoices(before, before)).toEqual([]);
  });
});
