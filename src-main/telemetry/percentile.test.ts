// Unit tests for latency percentiles (linear interpolation between closest ranks).
import { describe, expect, it } from 'vitest';
import { percentile, summariseLatencies } from './percentile';

describe('percentile', () => {
  it('interpolates between closest ranks like numpy', () => {
    // [10,20,30,40]: median rank 1.5 → 25; p95 rank 2.85 → 30 + 0.85 × 10 = 38.5
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(25);
    expect(percentile([40, 10, 30, 20], 0.95)).toBeCloseTo(38.5, 10);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('summarises mean, median, p95, p99 and max', () => {
    const values = Array.from({ length: 101 }, (_, i) => i); // 0..100: rank q × 100 = value
    expect(summariseLatencies(values)).toEqual({ numSamples: 101, meanMs: 50, medianMs: 50, p95Ms: 95, p99Ms: 99, maxMs: 100 });
    expect(summariseLatencies([])).toBeNull();
  });
});
