// Each logits processor against numbers computed by hand in the comments.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMinNewTokens,
  applyRepetitionPenalty,
  applySuppressRange,
  applyTemperature,
  applyTopK,
  applyTopP,
  kthLargest,
  kthLargestBySort,
  softmax,
} from './logits-processors';

const f32 = (xs: number[]) => Float32Array.from(xs);

describe('logits processors', () => {
  it('divides positive and multiplies negative logits by the penalty, once per distinct past id', () => {
    const logits = f32([2, -2, 1, 0.5]);
    applyRepetitionPenalty(logits, [0, 1, 0, 0, 1], 2);
    // id 0: 2 / 2 = 1; id 1: -2 * 2 = -4; ids 2, 3 untouched (not in the past set)
    expect(Array.from(logits)).toEqual([1, -4, 1, 0.5]);
  });

  it('leaves a zero logit at zero under the penalty', () => {
    const logits = f32([0, 3]);
    applyRepetitionPenalty(logits, [0], 1.05);
    expect(logits[0]).toBe(0);
  });

  it('blocks EOS only while fewer than minNewTokens tokens were generated', () => {
    const blocked = f32([1, 1, 1]);
    applyMinNewTokens(blocked, 1, 2, 2);
    expect(blocked[2]).toBe(-Infinity);
    const open = f32([1, 1, 1]);
    applyMinNewTokens(open, 2, 2, 2);
    expect(open[2]).toBe(1);
  });

  it('suppresses the control range except the kept ids', () => {
    const logits = f32([1, 1, 1, 1, 1, 1]);
    applySuppressRange(logits, 2, 6, [4]);
    expect(Array.from(logits)).toEqual([1, 1, -Infinity, -Infinity, 1, -Infinity]);
  });

  it('divides by the temperature', () => {
    const logits = f32([0.9, -1.8]);
    applyTemperature(logits, 0.9);
    expect(logits[0]).toBeCloseTo(1, 6);
    expect(logits[1]).toBeCloseTo(-2, 6);
  });

  it('keeps the k largest logits and ties with the k-th', () => {
    const logits = f32([5, 1, 3, 3, 0]);
    applyTopK(logits, 2);
    // sorted: 5, 3, 3, 1, 0 → 2nd largest is 3; both 3s stay
    expect(Array.from(logits)).toEqual([5, -Infinity, 3, 3, -Infinity]);
  });

  it('finds the same k-th largest as sorting, with duplicates, -Infinity and signed zeros', () => {
    const value = fc.oneof(fc.integer({ min: -6, max: 6 }).map((x) => x / 2), fc.constantFrom(-Infinity, Infinity, -0, 0), fc.float({ noNaN: true }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 300 }), fc.nat(), (xs, kSeed) => {
        const values = Float32Array.from(xs);
        const k = 1 + (kSeed % values.length);
        expect(kthLargest(values, k) === kthLargestBySort(values, k)).toBe(true); // -0 and 0 rank equal
        const filtered = Float32Array.from(values);
        const reference = Float32Array.from(values);
        applyTopK(filtered, k);
        const kth = kthLargestBySort(reference, k);
        for (let i = 0; i < reference.length; i++) if (reference[i] < kth) reference[i] = -Infinity;
        if (k < values.length) expect(Array.from(filtered)).toEqual(Array.from(reference));
      }),
      { numRuns: 500 },
    );
  });

  it('ranks NaN above every number when finding the k-th largest, as sorting does', () => {
    const values = Float32Array.from([1, NaN, 3, 2]);
    expect(kthLargest(values, 1)).toBeNaN();
    expect(kthLargest(values, 2)).toBe(3);
  });

  it('keeps the 50 largest of a 3072-token row as the sorting reference does', () => {
    const row = Float32Array.from({ length: 3072 }, (_, i) => Math.round(Math.sin(i * 0.37) * 40) / 8);
    for (let i = 2048; i < 3072; i++) if (i !== 2150) row[i] = -Infinity;
    const filtered = Float32Array.from(row);
    applyTopK(filtered, 50);
    const kth = kthLargestBySort(row, 50);
    expect(Array.from(filtered)).toEqual(Array.from(row, (v) => (v < kth ? -Infinity : v)));
    expect(filtered.filter((v) => v > -Infinity).length).toBeGreaterThanOrEqual(50);
  });

  it('treats topK = 0 as disabled', () => {
    const logits = f32([5, 1]);
    applyTopK(logits, 0);
    expect(Array.from(logits)).toEqual([5, 1]);
  });

  it('drops the low-probability tail whose cumulative mass is at most 1 - topP', () => {
    // probs of ln([0.5, 0.3, 0.15, 0.05]) = 0.5, 0.3, 0.15, 0.05; ascending cumsum 0.05, 0.20, 0.50, 1.0
    // topP 0.75 → remove cumsum ≤ 0.25: ids 3 (0.05) and 2 (0.20); keep ids 0, 1
    const logits = f32([Math.log(0.5), Math.log(0.3), Math.log(0.15), Math.log(0.05)]);
    applyTopP(logits, 0.75);
    expect(logits[0]).toBeCloseTo(Math.log(0.5), 6);
    expect(logits[1]).toBeCloseTo(Math.log(0.3), 6);
    expect(logits[2]).toBe(-Infinity);
    expect(logits[3]).toBe(-Infinity);
  });

  it('keeps at least the most likely token under a tiny topP', () => {
    const logits = f32([1, 2, 3]);
    applyTopP(logits, 1e-9);
    expect(Array.from(logits)).toEqual([-Infinity, -Infinity, 3]);
  });

  it('computes softmax with zero probability for -Infinity', () => {
    const probs = softmax(f32([0, Math.log(3), -Infinity]));
    // e^0 : e^ln3 = 1 : 3 → 0.25, 0.75 (ln 3 is rounded to float32, hence 6 digits)
    expect(probs[0]).toBeCloseTo(0.25, 6);
    expect(probs[1]).toBeCloseTo(0.75, 6);
    expect(probs[2]).toBe(0);
  });
});
