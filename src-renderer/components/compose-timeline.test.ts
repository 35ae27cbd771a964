// composeTimeline: chosen takes replace their turn's span; gaps keep the base layout's lengths.
import { describe, expect, it } from 'vitest';
import { composeTimeline } from './compose-timeline';
import type { ProjectTurn } from '../../src-shared/contract/projects';

const base = { clipId: 'A', numSamples: 10, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 4 }, { turnIndex: 1, startSample: 6, endSample: 9 }] };
const clipA = { sampleRateHz: 8, pcm: Float32Array.from([1, 1, 1, 1, 0.1, 0.1, 2, 2, 2, 0.3]) };
const clipB = { sampleRateHz: 8, pcm: Float32Array.from([0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 0]) };

function turns(chosen1: 'a' | 'b'): ProjectTurn[] {
  return [
    { turnIndex: 0, takes: [{ takeId: 'a0', clipId: 'A', seed: 1, startSample: 0, endSample: 4, createdAtMs: 0 }], chosenTakeId: 'a0', previousTakeId: null },
    {
      turnIndex: 1,
      takes: [
        { takeId: 'a', clipId: 'A', seed: 1, startSample: 6, endSample: 9, createdAtMs: 0 },
        { takeId: 'b', clipId: 'B', seed: 2, startSample: 6, endSample: 11, createdAtMs: 1 },
      ],
      chosenTakeId: chosen1,
      previousTakeId: null,
    },
  ];
}

describe('composeTimeline', () => {
  it('returns the base clip untouched while every chosen take is its own', () => {
    const out = composeTimeline(base, turns('a'), { A: clipA, B: clipB })!;
    expect(out.pcm).toBe(clipA.pcm);
    expect(out.regions).toEqual([{ turnIndex: 0, startSample: 0, endSample: 4 }, { turnIndex: 1, startSample: 6, endSample: 9 }]);
  });

  it('silences gaps once a take from another clip is chosen', () => {
    const out = composeTimeline({ ...base, clipId: 'C' }, turns('a'), { A: clipA, B: clipB })!;
    expect(Array.from(out.pcm)).toEqual([1, 1, 1, 1, 0, 0, 2, 2, 2, 0]);
  });

  it('makes room for a longer take and shifts what follows', () => {
    const out = composeTimeline(base, turns('b'), { A: clipA, B: clipB })!;
    // 4 (turn 0) + 2 (gap) + 5 (take b) + 1 (tail) = 12 samples
    expect(Array.from(out.pcm)).toEqual([1, 1, 1, 1, 0, 0, 5, 5, 5, 5, 5, 0]);
    expect(out.regions[1]).toEqual({ turnIndex: 1, startSample: 6, endSample: 11 });
  });

  it('waits for audio that is not loaded yet', () => {
    expect(composeTimeline(base, turns('b'), { A: clipA })).toBeNull();
  });
});

describe('composeTimeline with edits', () => {
  const rate = 1000; // 1 sample per ms keeps the arithmetic readable
  const base = { clipId: 'b', numSamples: 30, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 10 }, { turnIndex: 1, startSample: 15, endSample: 30 }] };
  const pcm = new Float32Array(30).fill(0.5);
  const turn = (turnIndex: number, start: number, end: number, edit?: import('../../src-shared/contract/projects').TurnEdit) => ({
    turnIndex,
    takes: [{ takeId: `k${turnIndex}`, clipId: 'b', seed: 1, startSample: start, endSample: end, createdAtMs: 0 }],
    chosenTakeId: `k${turnIndex}`,
    previousTakeId: null,
    ...(edit ? { edit } : {}),
  });

  it('trims, moves the gap and applies gain, and the regions follow', () => {
    const out = composeTimeline(base, [turn(0, 0, 10, { trimStartMs: 2, trimEndMs: 3, gapBeforeMs: null, gainDb: 0 }), turn(1, 15, 30, { trimStartMs: 0, trimEndMs: 0, gapBeforeMs: 20, gainDb: -6 })], { b: { sampleRateHz: rate, pcm } })!;
    expect(out.regions).toEqual([
      { turnIndex: 0, startSample: 0, endSample: 5 },
      { turnIndex: 1, startSample: 25, endSample: 40 },
    ]);
    expect(out.pcm.length).toBe(40);
    expect(out.pcm[0]).toBe(0.5);
    expect(out.pcm[10]).toBe(0); // the moved gap is silence
    expect(out.pcm[30]).toBeCloseTo(0.5 * 10 ** (-6 / 20), 6);
    expect(pcm[20]).toBe(0.5); // the clip's audio is never changed in place
  });

  it('a trim longer than the take leaves it empty instead of failing', () => {
    const out = composeTimeline(base, [turn(0, 0, 10, { trimStartMs: 8, trimEndMs: 8, gapBeforeMs: null, gainDb: 0 }), turn(1, 15, 30)], { b: { sampleRateHz: rate, pcm } })!;
    expect(out.regions[0]).toEqual({ turnIndex: 0, startSample: 0, endSample: 0 });
  });
});
