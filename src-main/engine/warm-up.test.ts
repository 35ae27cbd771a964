// The warm-up's start-up line: the buckets warmed per stage with the talker's KV buffer bytes, and for the
// buckets left cold what their first use costs at the warm-up's own mean cost a bucket and what they would hold.
import { describe, expect, it } from 'vitest';
import { describeWarmUp, type WarmUpReport } from './warm-up';

const GIB = 1024 ** 3;

describe('warm-up description', () => {
  it('names the cold buckets with their estimated first-use cost and their KV bytes', () => {
    const report: WarmUpReport = { durationMs: 21_000, numBuckets: 42, numBucketsLeftOut: 48, byStage: { talker: 16, prefill: 16, codePredictor: 2, codec: 8 }, talkerBytes: { warmed: 7.5 * GIB, leftOut: 106 * GIB } };
    // 21,000 ms / 42 buckets = 500 ms a bucket; 48 cold × 500 ms = 24.0 s
    expect(describeWarmUp(report)).toBe(
      "engine: warm-up 42 buckets in 21000 ms (talker decode 16 holding 7.5 GiB of KV buffers, prefill 16, code predictor 2, codec 8 × 2 state sets; 48 past graphCapture.maxBuckets or half the device's memory left cold; their first use costs ~500 ms each, ~24.0 s in all, and their talker KV buffers 106.0 GiB)",
    );
  });

  it('says nothing of cost where no bucket was left cold', () => {
    const line = describeWarmUp({ durationMs: 100, numBuckets: 4, numBucketsLeftOut: 0, byStage: { talker: 1, prefill: 1, codePredictor: 1, codec: 1 }, talkerBytes: { warmed: 0, leftOut: 0 } });
    expect(line).toMatch(/0 past graphCapture.maxBuckets or half the device's memory left cold\)$/);
  });
});
