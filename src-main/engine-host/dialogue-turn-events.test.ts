// A dialogue turn's parts run side by side but stream one after another: a later part's chunks
// wait for the parts before it, then go out at their offset in the turn; progress adds the parts up.
import { describe, expect, it } from 'vitest';
import type { AudioChunk } from '../../src-shared/synthesis';
import { DialogueTurnEvents } from './dialogue-turn-events';

const chunk = (startSample: number, numSamples: number): AudioChunk => ({ requestId: 'r#turn', turnIndex: 0, startSample, sampleRateHz: 24000, pcm: new Float32Array(numSamples) });
const placed = (chunks: AudioChunk[]) => chunks.map((c) => [c.turnIndex, c.startSample, c.pcm.length]);
const progress = (numFramesDone: number, numFramesEstimated: number) => ({ requestId: 'r', turnIndex: 0, numFramesDone, numFramesEstimated });

describe('DialogueTurnEvents', () => {
  // parts: 0 → turn 0; 1, 2 → turn 1 (a tuned word and the rest); 3 → turn 2
  const make = () => new DialogueTurnEvents([0, 1, 1, 2]);

  it('passes a turn’s first part through under the turn’s index', () => {
    const events = make();
    expect(placed(events.audio(1, chunk(0, 8)))).toEqual([[1, 0, 8]]);
    expect(placed(events.audio(3, chunk(0, 4)))).toEqual([[2, 0, 4]]);
  });

  it('holds a later part’s chunks until the parts before it finish, then places them after those', () => {
    const events = make();
    expect(events.audio(2, chunk(0, 5))).toEqual([]); // part 2 runs ahead of part 1
    expect(placed(events.audio(1, chunk(0, 8)))).toEqual([[1, 0, 8]]);
    expect(placed(events.audio(1, chunk(8, 4)))).toEqual([[1, 8, 4]]);
    expect(events.audio(2, chunk(5, 5))).toEqual([]);
    // 12 samples streamed by part 1: part 2's chunks go out at 12 and 17
    expect(placed(events.finishPart(1))).toEqual([[1, 12, 5], [1, 17, 5]]);
    expect(placed(events.audio(2, chunk(10, 3)))).toEqual([[1, 22, 3]]);
    expect(events.finishPart(2)).toEqual([]);
  });

  it('reports a turn’s progress once each part has reported, with the parts’ frames added up', () => {
    const events = make();
    expect(events.progress(0, progress(3, 10))).toMatchObject({ turnIndex: 0, numFramesDone: 3, numFramesEstimated: 10 });
    expect(events.progress(1, progress(2, 6))).toBeNull(); // part 2 has not reported: the turn's estimate is unknown
    expect(events.progress(2, progress(1, 4))).toMatchObject({ turnIndex: 1, numFramesDone: 3, numFramesEstimated: 10 });
    events.finishPart(2); // a finished part's estimate is what it made: 1 frame
    expect(events.progress(1, progress(5, 6))).toMatchObject({ turnIndex: 1, numFramesDone: 6, numFramesEstimated: 7 });
  });
});
