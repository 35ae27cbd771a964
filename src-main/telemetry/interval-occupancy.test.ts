// Unit tests for client occupancy integrated from send/receive transitions.
import { describe, expect, it } from 'vitest';
import { meanOccupancy } from './interval-occupancy';

describe('meanOccupancy', () => {
  it('integrates overlapping requests exactly over the window', () => {
    // window [0, 1000]; A [−200, 600] contributes 600; B [100, 1300] contributes 900; C [400, 500] 100
    // (600 + 900 + 100) / 1000 = 1.6 outstanding on average
    const intervals = [
      { startMs: -200, endMs: 600 },
      { startMs: 100, endMs: 1300 },
      { startMs: 400, endMs: 500 },
    ];
    expect(meanOccupancy(intervals, 0, 1000)).toBeCloseTo(1.6, 12);
  });

  it('gives exactly N for N clients that are always outstanding', () => {
    // 3 clients, each back-to-back 250 ms requests covering [0, 2000]
    const intervals = [0, 1, 2].flatMap(() => Array.from({ length: 8 }, (_, i) => ({ startMs: i * 250, endMs: (i + 1) * 250 })));
    expect(meanOccupancy(intervals, 500, 1500)).toBeCloseTo(3, 12);
  });

  it('counts nothing outside the window and returns 0 for an empty window', () => {
    expect(meanOccupancy([{ startMs: 0, endMs: 10 }], 20, 30)).toBe(0);
    expect(meanOccupancy([{ startMs: 0, endMs: 10 }], 5, 5)).toBe(0);
  });
});
