// The one percentile rule (linear interpolation between closest ranks, numpy's default).
import { describe, expect, it } from 'vitest';
import { percentile, percentileOrNull } from './percentile';

describe('percentile', () => {
  it('interpolates between closest ranks like numpy, whatever the order', () => {
    // [10,20,30,40]: median rank 1.5 → 25; p95 rank 2.85 → 30 + 0.85 × 10 = 38.5
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(25);
    expect(percentile([40, 10, 30, 20], 0.95)).toBeCloseTo(38.5, 10);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([3, 1, 2], 1)).toBe(3);
  });

  it('gives the midpoint as the median of an even count (the comparison charts) and not a nearest rank (the old dashboard)', () => {
    // nearest rank would give 20 for the median of [10, 20, 30, 40] and 40 for its p95
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([10, 20, 30, 40], 0.95)).not.toBe(40);
    expect(percentile([1, 2], 0.5)).toBe(1.5);
  });

  it('does not reorder its input, and has no value for an empty list', () => {
    const values = [3, 1, 2];
    percentile(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
    expect(percentile([], 0.5)).toBeNaN();
    expect(percentileOrNull([], 0.5)).toBeNull();
    expect(percentileOrNull([5, 1], 0.5)).toBe(3);
  });
});
