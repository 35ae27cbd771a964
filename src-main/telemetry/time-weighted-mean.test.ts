// Unit tests for the time-weighted mean of timestamped status samples.
import { describe, expect, it } from 'vitest';
import { timeWeightedMean } from './time-weighted-mean';

describe('timeWeightedMean', () => {
  it('weights each sample by how long it held inside the window', () => {
    // samples: t=0 → 2, t=100 → 5, t=250 → 1, t=400 → 3; window [50, 350]
    // [50,100): 2 × 50 = 100; [100,250): 5 × 150 = 750; [250,350]: 1 × 100 = 100
    // area 950 over 300 ms → 3.1666…
    const points = [
      { tMs: 0, value: 2 },
      { tMs: 100, value: 5 },
      { tMs: 250, value: 1 },
      { tMs: 400, value: 3 },
    ];
    expect(timeWeightedMean(points, 50, 350)).toBeCloseTo(950 / 300, 10);
  });

  it('differs from the plain sample mean when samples are unevenly spaced', () => {
    // value 10 for 10 ms then 0 for 990 ms: time-weighted 0.1, plain mean of the two samples 5
    const points = [
      { tMs: 0, value: 10 },
      { tMs: 10, value: 0 },
    ];
    expect(timeWeightedMean(points, 0, 1000)).toBeCloseTo(0.1, 10);
  });

  it('holds the first sample before it and ignores samples outside the window', () => {
    // first sample at 200 (value 4) holds back to the window start 100; sample at 900 is after the end
    // [100,300): 4 × 200 = 800; [300,500]: 2 × 200 = 400 → 1200 / 400 = 3
    const points = [
      { tMs: 900, value: 100 },
      { tMs: 200, value: 4 },
      { tMs: 300, value: 2 },
    ];
    expect(timeWeightedMean(points, 100, 500)).toBeCloseTo(3, 10);
  });

  it('returns null without samples or for an empty window', () => {
    expect(timeWeightedMean([], 0, 10)).toBeNull();
    expect(timeWeightedMean([{ tMs: 0, value: 1 }], 5, 5)).toBeNull();
  });

  it('matches a 1 ms brute-force integration on random step functions', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 20; trial++) {
      const points = Array.from({ length: 15 }, () => ({ tMs: Math.floor(rand() * 1000), value: Math.floor(rand() * 9) }));
      const sorted = [...points].sort((a, b) => a.tMs - b.tMs);
      let area = 0;
      for (let t = 200; t < 800; t++) {
        const before = sorted.filter((p) => p.tMs <= t);
        area += before.length ? before[before.length - 1].value : sorted[0].value;
      }
      expect(timeWeightedMean(points, 200, 800)).toBeCloseTo(area / 600, 6);
    }
  });
});
