// The counter RNG: a pure function of (seed, frame, codebook, draw), same in another process,
// and uniform enough (mean and a 16-bucket chi-square) for sampling.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counterUniform, isValidSeed } from './counter-rng';

describe('counter rng', () => {
  it('returns the same number for the same counter, in any call order', () => {
    const a = counterUniform(42, 7, 3, 0);
    counterUniform(1, 2, 3, 4);
    expect(counterUniform(42, 7, 3, 0)).toBe(a);
  });

  it('changes when any one of seed, frame, codebook or draw changes', () => {
    const base = counterUniform(42, 7, 3, 0);
    expect(counterUniform(43, 7, 3, 0)).not.toBe(base);
    expect(counterUniform(42, 8, 3, 0)).not.toBe(base);
    expect(counterUniform(42, 7, 4, 0)).not.toBe(base);
    expect(counterUniform(42, 7, 3, 1)).not.toBe(base);
    expect(counterUniform(42 + 2 ** 32, 7, 3, 0)).not.toBe(base);
  });

  it('stays in [0, 1) with mean near 1/2 and a flat histogram', () => {
    const numDraws = 64_000;
    const buckets = new Array(16).fill(0);
    let sum = 0;
    for (let i = 0; i < numDraws; i++) {
      const u = counterUniform(1234, i >> 4, i & 15, 0);
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      buckets[Math.floor(u * 16)]++;
    }
    // mean of U(0,1) is 0.5 with standard error 1/sqrt(12·64000) ≈ 0.0011
    expect(Math.abs(sum / numDraws - 0.5)).toBeLessThan(0.006);
    const expected = numDraws / 16;
    const chiSquare = buckets.reduce((acc, n) => acc + (n - expected) ** 2 / expected, 0);
    // 15 degrees of freedom: P(χ² > 37.7) ≈ 0.001
    expect(chiSquare).toBeLessThan(37.7);
  });

  it('gives the same numbers in a separate node process', () => {
    const here = counterUniform(987654321, 123, 15, 2);
    const module = path.join(import.meta.dirname, 'counter-rng.ts');
    const script = `import('${module}').then(m => console.log(m.counterUniform(987654321, 123, 15, 2)))`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' }).trim();
    expect(Number(out)).toBe(here);
  });

  it('accepts non-negative safe integers as seeds only', () => {
    expect(isValidSeed(0)).toBe(true);
    expect(isValidSeed(2 ** 53 - 1)).toBe(true);
    expect(isValidSeed(-1)).toBe(false);
    expect(isValidSeed(1.5)).toBe(false);
  });
});
