// The exponential sum that stands in for 1/d in exact-sinc.ts (the true peak's far field): within 5e-4 of 1/d
// over every distance it is built for (checked on a fine logarithmic grid), and short enough to run
// per sample (31 terms up to 10⁷ samples). Its use is checked end to end in true-peak.test.ts.
import { describe, expect, it } from 'vitest';
import { exponentialSumForInverse } from './exact-sinc';

function relativeErrors(nearHalfWidth: number, maxDistance: number): { worst: number; numTerms: number } {
  const { rates, weights } = exponentialSumForInverse(nearHalfWidth, maxDistance);
  let worst = 0;
  for (let d = nearHalfWidth; d <= maxDistance; d *= 1.003) {
    let sum = 0;
    for (let j = 0; j < rates.length; j++) sum += weights[j] * Math.exp(-rates[j] * d);
    worst = Math.max(worst, Math.abs(sum * d - 1));
  }
  return { worst, numTerms: rates.length };
}

describe('exponentialSumForInverse', () => {
  it.each([
    [8, 1e3],
    [8, 1e7],
    [8, 2e8], // an hour at 48 kHz
    [64, 1e5],
  ])('approximates 1/d within 5e-4 for d from %i to %d', (nearHalfWidth, maxDistance) => {
    const { worst, numTerms } = relativeErrors(nearHalfWidth, maxDistance);
    expect(worst).toBeLessThan(5e-4); // measured 2.9e-4
    expect(numTerms).toBeLessThanOrEqual(36);
  });
});
