// The replay-safe Split plan: every Split it emits has equal widths and at most 32 parts, its parts come out
// in order with the asked widths (checked by walking the plan against a slow reference), and it uses the fewest nodes.
import { describe, expect, it } from 'vitest';
import { MAX_BY_VALUE_PARTS, planNodeCount, planReplaySafeSplit, type SplitPlan } from './replay-safe-split';

/** Walks a plan over the index range [0, total): every part's [start, end), and every Split node's widths. */
function walk(plan: SplitPlan, widths: readonly number[], start: number, parts: [number, number][], splits: number[][]): number {
  if (plan.kind === 'part') {
    parts[plan.index] = [start, start + widths[plan.index]];
    return widths[plan.index];
  }
  if (plan.kind === 'slices') {
    let at = start;
    for (let i = plan.first; i < plan.first + plan.count; i++) {
      parts[i] = [at, at + widths[i]];
      at += widths[i];
    }
    return at - start;
  }
  const groupWidths: number[] = [];
  let at = start;
  for (const group of plan.groups) {
    const w = walk(group, widths, at, parts, splits);
    groupWidths.push(w);
    at += w;
  }
  splits.push(groupWidths);
  expect(groupWidths.every((w) => w === plan.width), `the plan's width ${plan.width} against its groups' ${groupWidths.join(',')}`).toBe(true);
  return at - start;
}

/** The slow reference: part i covers [sum of widths before i, that + widths[i]). */
function expectedParts(widths: readonly number[]): [number, number][] {
  let at = 0;
  return widths.map((w) => [at, (at += w)] as [number, number]);
}

describe('planReplaySafeSplit', () => {
  const cases: number[][] = [
    [2048, 1024, 1024], // the 0.6B's q | k | v (16 and 8 heads of 128)
    [64, 32, 32], // the tiny build's
    [3072, 3072], // gate | up: already equal
    [4, 2, 2, 2, 2],
    [1, 1, 2],
    [3, 5], // no equal-width tree: one Slice a part
    [6, 1, 1],
    [5],
    Array(15).fill(1),
    Array(40).fill(2), // more parts than a by-value Split takes
  ];
  it.each(cases.map((c) => [JSON.stringify(c).slice(0, 40), c] as const))('%s: parts in order, equal-width Splits of at most 32', (_, widths) => {
    const plan = planReplaySafeSplit(widths);
    const parts: [number, number][] = [];
    const splits: number[][] = [];
    expect(walk(plan, widths, 0, parts, splits)).toBe(widths.reduce((a, b) => a + b, 0));
    expect(parts).toEqual(expectedParts(widths));
    for (const s of splits) {
      expect(new Set(s).size, JSON.stringify(s)).toBe(1);
      expect(s.length).toBeLessThanOrEqual(MAX_BY_VALUE_PARTS);
    }
  });

  it('uses the fewest nodes: q | k | v in two Splits, equal widths in one, no tree as one Slice a part', () => {
    expect(planNodeCount(planReplaySafeSplit([2048, 1024, 1024]))).toBe(2);
    expect(planNodeCount(planReplaySafeSplit([3072, 3072]))).toBe(1);
    expect(planNodeCount(planReplaySafeSplit(Array(15).fill(1)))).toBe(1);
    expect(planReplaySafeSplit([3, 5])).toEqual({ kind: 'slices', first: 0, count: 2 });
    expect(planNodeCount(planReplaySafeSplit(Array(40).fill(2)))).toBe(3); // 2 × 20, then each 20 parts
    expect(planReplaySafeSplit([7])).toEqual({ kind: 'part', index: 0 });
  });
});
