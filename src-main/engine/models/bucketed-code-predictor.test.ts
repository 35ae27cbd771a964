// BucketedCodePredictor over a fake inner stage that records each call's rows and answers with codes
// derived from the row alone: every call has the bucket's row count and the padding rows' codes are dropped.
import { describe, expect, it } from 'vitest';
import { BucketedCodePredictor } from './bucketed-code-predictor';
import type { CodePredictorRow, CodePredictorStage } from './stages';

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
