// BucketedCodePredictor and BucketedCodec over fake inner stages that record each call's rows and answer
// from the row alone: calls have the planned row counts, padding rows' results are dropped, order is kept.
import { describe, expect, it } from 'vitest';
import { BucketedCodec, BucketedCodePredictor, codecChunks } from './bucketed-stages';
import type { CodecStage, CodecWindow, CodePredictorRow, CodePredictorStage } from './stages';

function fakeInner(): CodePredictorStage & { calls: CodePredictorRow[][] } {
  const calls: CodePredictorRow[][] = [];
  return {
    calls,
    predict: async (rows) => {
      calls.push([...rows]);
      return rows.map((r) => [r.c0 * 10, r.c0 * 10 + 1]);
    },
    dispose: async () => {},
  };
}

const row = (c0: number): CodePredictorRow => ({ hidden: new Float32Array(2), c0, warpers: { doSample: true, temperature: 0.9, topK: 50, topP: 1 }, uniforms: new Float64Array(2) });

describe('BucketedCodePredictor', () => {
  it('pads one row to the bucket size and returns only the real row', async () => {
    const inner = fakeInner();
    const codes = await new BucketedCodePredictor(inner, 8).predict([row(3)]);
    expect(codes).toEqual([[30, 31]]);
    expect(inner.calls.map((c) => c.length)).toEqual([8]);
  });

  it('splits 19 rows into three calls of 8 and keeps the rows in order', async () => {
    const inner = fakeInner();
    const rows = Array.from({ length: 19 }, (_, i) => row(i + 1));
    const codes = await new BucketedCodePredictor(inner, 8).predict(rows);
    expect(inner.calls.map((c) => c.length)).toEqual([8, 8, 8]);
    expect(codes).toEqual(rows.map((r) => [r.c0 * 10, r.c0 * 10 + 1]));
    expect(inner.calls[2].slice(0, 3).map((r) => r.c0)).toEqual([17, 18, 19]);
  });

  it('makes no call for an empty batch', async () => {
    const inner = fakeInner();
    expect(await new BucketedCodePredictor(inner, 8).predict([])).toEqual([]);
    expect(inner.calls).toEqual([]);
  });
});

describe('codecChunks', () => {
  it('keeps rows × frames within the limit with calls of even size', () => {
    expect(codecChunks(64, 33, 2, 160)).toEqual(Array(16).fill(4));
    expect(codecChunks(9, 33, 2, 160)).toEqual([3, 3, 3]);
    expect(codecChunks(8, 16, 2, 160)).toEqual([8]);
    expect(codecChunks(17, 16, 2, 160)).toEqual([9, 8]);
  });

  it('never splits below minRows per call, and 0 means one call', () => {
    expect(codecChunks(5, 200, 2, 160)).toEqual([2, 2, 1]);
    expect(codecChunks(64, 33, 2, 0)).toEqual([64]);
    expect(codecChunks(0, 8, 2, 160)).toEqual([]);
  });
});

describe('BucketedCodec', () => {
  function fakeCodec(): CodecStage & { calls: number[][]; released: number[] } {
    const calls: number[][] = [];
    const released: number[] = [];
    const pcmOf = (w: CodecWindow) => Float32Array.from(w, (frame) => frame[0]);
    return {
      calls,
      released,
      sampleRateHz: 24000,
      samplesPerFrame: 1,
      streaming: true,
      decode: async (w) => pcmOf(w),
      decodeBatch: async (ws) => (calls.push(ws.map((w) => w[0][0])), ws.map(pcmOf)),
      decodeStreamBatch: async (rows) => (calls.push(rows.map((r) => r.sequenceId!)), rows.map((r) => Float32Array.of(r.window[0][0], r.numDecodedFrames + r.window.length))),
      releaseStream: (id) => released.push(id),
      dispose: async () => {},
    };
  }
  const win = (id: number, numFrames: number): CodecWindow => Array.from({ length: numFrames }, () => [id, 0]);

  it('pads a lone window to minRows and drops the copy', async () => {
    const inner = fakeCodec();
    const pcm = await new BucketedCodec(inner, 2, 160).decode(win(7, 1));
    expect([...pcm]).toEqual([7]);
    expect(inner.calls).toEqual([[7, 7]]);
  });

  it('splits stream rows by rows × frames and returns each row its own PCM, in order', async () => {
    const inner = fakeCodec();
    const codec = new BucketedCodec(inner, 2, 160);
    const rows = Array.from({ length: 9 }, (_, i) => ({ sequenceId: 100 + i, window: win(i + 1, 33), numDecodedFrames: i }));
    const out = await codec.decodeStreamBatch!(rows);
    expect(inner.calls).toEqual([[100, 101, 102], [103, 104, 105], [106, 107, 108]]);
    expect(out.map((pcm) => pcm[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(out.map((pcm) => pcm[1])).toEqual(rows.map((r) => r.numDecodedFrames + 33));
    expect(codec.streaming).toBe(true);
    expect(codec.callSizes).toEqual([3, 3, 3]);
  });

  it('pads a lone stream row with a copy of the same sequence and passes releases through', async () => {
    const inner = fakeCodec();
    const codec = new BucketedCodec(inner, 2, 160);
    const out = await codec.decodeStreamBatch!([{ sequenceId: 5, window: win(3, 1), numDecodedFrames: 4 }]);
    expect(inner.calls).toEqual([[5, 5]]);
    expect(out.map((pcm) => [...pcm])).toEqual([[3, 5]]);
    codec.releaseStream!(5);
    expect(inner.released).toEqual([5]);
  });
});
