/**
 * Test helpers for graph-vs-reference checks: max abs diff with the first differing element named,
 * argmax with lowest-index tie breaking, and KV/feeds plumbing for the tiny graphs.
 */
import { tensor, type OrtTensor } from '../../engine/runtime/ort';

export function maxAbsDiff(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number): { maxDiff: number; report: string } {
  let maxDiff = 0;
  let first = -1;
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= tolerance) && first < 0) first = i;
    if (d > maxDiff || Number.isNaN(d)) maxDiff = Number.isNaN(d) ? Infinity : d;
  }
  const report = first < 0 ? `maxDiff ${maxDiff}` : `first difference at [${first}]: got ${actual[first]}, want ${expected[first]}; maxDiff ${maxDiff}`;
  return { maxDiff, report };
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** Zero past tensors [B, numKvHeads, capacity, headDim] for every layer (capacity 0: empty). */
export function emptyPast(numLayers: number, batch: number, numKvHeads: number, headDim: number, capacity = 0): Record<string, OrtTensor> {
  const feeds: Record<string, OrtTensor> = {};
  const size = batch * numKvHeads * capacity * headDim;
  for (let i = 0; i < numLayers; i++) {
    feeds[`past_key_${i}`] = tensor('float32', new Float32Array(size), [batch, numKvHeads, capacity, headDim]);
    feeds[`past_value_${i}`] = tensor('float32', new Float32Array(size), [batch, numKvHeads, capacity, headDim]);
  }
  return feeds;
}

/** present_* outputs renamed as the next call's past_* feeds. */
export function presentsAsPast(outputs: Record<string, OrtTensor>, numLayers: number): Record<string, OrtTensor> {
  const feeds: Record<string, OrtTensor> = {};
  for (let i = 0; i < numLayers; i++) {
    feeds[`past_key_${i}`] = outputs[`present_key_${i}`];
    feeds[`past_value_${i}`] = outputs[`present_value_${i}`];
  }
  return feeds;
}
