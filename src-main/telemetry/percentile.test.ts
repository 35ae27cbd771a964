// Unit tests for latency summaries (percentiles by the one rule of src-shared/percentile.ts).
import { describe, expect, it } from 'vitest';
import { summariseLatencies } from './percentile';

describe('summariseLatencies', () => {
  it('interpolates its median and p95 between closest ranks', () => {
    // [10,20,30,40]: median rank 1.5 → 25; p95 rank 2.85 → 30 + 0.85 × 10 = 38.5
    expect(summariseLatencies([40, 10, 30, 20])).toMatchObject({ medianMs: 25, maxMs: 40 });
    expect(summariseLatencies([40, 10, 30, 20])!.p95Ms).toBeCloseTo(38.5, 10);
  });

  it('summarises mean, median, p95, p99 and max', () => {
    const values = Array.from({ length: 101 }, (_, i) => i); // 0..100: rank q × 100 = value
    expect(summariseLatencies(values)).toEqual({ numSamples: 101, meanMs: 50, medianMs: 50, p95Ms: 95, p99Ms: 99, maxMs: 100 });
    expect(summariseLatencies([])).toBeNull();
  });
});
