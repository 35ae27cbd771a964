/**
 * A Split of one axis into parts of given widths, written so a CUDA graph can replay it. ORT 1.29's CUDA
 * Split hands uneven widths (and more than 32 outputs) to its kernel through pinned host memory that it
 * frees after the run; a captured graph copies from that memory again on every replay, so once the
 * allocator lends it to another run the replay writes to another run's buffers. Equal widths, at most 32
 * parts, travel by value. Uneven widths become a tree of equal-width Splits, or one Slice a part where no tree exists.
 */
import type { GraphBuilder } from './graph-builder';

/** How widths are split: a part itself, groups of one width each split again, or one Slice a part. */
export type SplitPlan = { kind: 'part'; index: number } | { kind: 'split'; width: number; groups: SplitPlan[] } | { kind: 'slices'; first: number; count: number };

/** Parts a by-value Split can have (ORT's CUDA TArray capacity). */
export const MAX_BY_VALUE_PARTS = 32;

/** Nodes a plan emits. */
export function planNodeCount(plan: SplitPlan): number {
  if (plan.kind === 'part') return 0;
  if (plan.kind === 'slices') return plan.count;
  return 1 + plan.groups.reduce((n, g) => n + planNodeCount(g), 0);
}

/** The plan with the fewest nodes for widths[first, first + count) (pure; widths are positive integers). */
export function planReplaySafeSplit(widths: readonly number[], first = 0, count = widths.length): SplitPlan {
  if (count === 1) return { kind: 'part', index: first };
  const own = widths.slice(first, first + count);
  const total = own.reduce((a, b) => a + b, 0);
  const ends = new Set<number>();
  own.reduce((sum, w) => (ends.add(sum + w), sum + w), 0);
  let best: SplitPlan = { kind: 'slices', first, count };
  for (let k = 2; k <= Math.min(count, MAX_BY_VALUE_PARTS); k++) {
    if (total % k !== 0) continue;
    const width = total / k;
    if (!Array.from({ length: k }, (_, j) => (j + 1) * width).every((end) => ends.has(end))) continue;
    const groups: SplitPlan[] = [];
    let at = first;
    let sum = 0;
    for (let j = 1; j <= k; j++) {
      const start = at;
      while (sum < j * width) sum += widths[at++];
      groups.push(planReplaySafeSplit(widths, start, at - start));
    }
    const plan: SplitPlan = { kind: 'split', width, groups };
    if (planNodeCount(plan) < planNodeCount(best)) best = plan;
  }
  return best;
}

/** Splits `x` along `axis` into parts of `widths` with by-value nodes only; returns the parts in order. */
export function replaySafeSplit(g: GraphBuilder, x: string, widths: readonly number[], axis: number): string[] {
  const out: string[] = [];
  const emit = (value: string, plan: SplitPlan): void => {
    if (plan.kind === 'part') {
      out[plan.index] = value;
    } else if (plan.kind === 'slices') {
      let start = 0;
      for (let i = plan.first; i < plan.first + plan.count; i++) {
        out[i] = g.slice(value, axis, start, start + widths[i]);
        start += widths[i];
      }
    } else {
      const parts = g.node('Split', [value, g.constInt64(plan.groups.map(() => plan.width), [plan.groups.length])], plan.groups.length, { axis });
      plan.groups.forEach((group, j) => emit(parts[j], group));
    }
  };
  emit(x, planReplaySafeSplit(widths));
  return out;
}
