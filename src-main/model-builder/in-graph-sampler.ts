/**
 * Sampling inside a graph from host-supplied uniforms, per row, with the host sampler's rules
 * (engine/sampling/sampler.ts): logits / temperature → top-k (keep logits ≥ the k-th largest, ties
 * kept) → top-p (keep the most likely tokens while the exclusive cumulative probability is < top_p)
 * → inverse-CDF draw in token-id order: the first kept token whose cumulative mass exceeds u · total.
 * Per sub-step every op is float, bool or int32, so the WebGPU provider runs all of it on the device
 * (its int64 kernels are CPU-only, and each CPU op cost a device→host round trip per sub-step).
 */
import type { GraphBuilder } from '../model-format/onnx/graph-builder';
import { MASK_NEGATIVE } from '../model-format/onnx/composite-ops';

export interface SamplerInputs {
  temperature: string; // float32 [B]
  topK: string; // int64 [B], 1..vocab (the host clamps)
  topP: string; // float32 [B]
}

/** What every sub-step shares, computed once per graph run (host-resident int64 math happens here only). */
export interface PreparedSampler {
  temperature: string; // float32 [B, 1]
  topP: string; // float32 [B, 1]
  kMax: string; // int64 [1], TopK's K (stays on the host)
  inTopK: string; // bool [B, kMax]: rank < top_k of the row
}

export function prepareSampler(g: GraphBuilder, p: SamplerInputs): PreparedSampler {
  const kMax = g.op('ReduceMax', [p.topK], { keepdims: 1 }); // [1]
  const ranks = g.op('Range', [g.constInt64([0], []), g.squeeze(kMax, [0]), g.constInt64([1], [])]); // [K]
  const inTopK = g.op('Less', [g.unsqueeze(ranks, [0]), g.unsqueeze(p.topK, [1])]); // [B, K]
  return { temperature: g.unsqueeze(p.temperature, [1]), topP: g.unsqueeze(p.topP, [1]), kMax, inTopK };
}

/** The same prepared values from host-written inputs (the capture-ready form: no int64 math, K fixed per bucket). */
/** inTopK: fp32 [B, K], 1 where rank < top_k. */
export function hostPreparedSampler(g: GraphBuilder, p: { temperature: string; topP: string; kMax: string; inTopK: string }): PreparedSampler {
  return { temperature: g.unsqueeze(p.temperature, [1]), topP: g.unsqueeze(p.topP, [1]), kMax: p.kMax, inTopK: g.op('Greater', [p.inTopK, g.constFloat(0)]) };
}

/**
 * logits fp32 [B, V], uniform fp32 [B, 1] → code int32 [B, 1]. Greedy rows pass top_k 1 and uniform 0,
 * which draws the lowest id among tied maxima (the host's argmax).
 */
export function sampleInGraph(g: GraphBuilder, logits: string, uniform: string, s: PreparedSampler): string {
  const negative = g.constFloat(MASK_NEGATIVE);
  const scaled = g.div(logits, s.temperature); // [B, V]
  const [sorted] = g.node('TopK', [scaled, s.kMax], 2, { axis: 1, largest: 1, sorted: 1 }); // [B, K] descending
  const probs = g.softmax(g.op('Where', [s.inTopK, sorted, negative]), 1);
  const exclusive = g.op('CumSum', [probs, g.constInt64([1], [])], { exclusive: 1 });
  const kept = g.op('And', [s.inTopK, g.op('Less', [exclusive, s.topP])]);
  // the smallest kept logit; the largest is always kept (top_p ≤ 0 keeps one token, as the host does)
  const smallestKept = g.op('ReduceMin', [g.op('Where', [kept, sorted, g.constFloat(-MASK_NEGATIVE)])], { axes: [1], keepdims: 1 });
  const threshold = g.op('Min', [smallestKept, g.slice(sorted, 1, 0, 1)]); // [B, 1]
  const vocabProbs = g.softmax(g.op('Where', [g.op('GreaterOrEqual', [scaled, threshold]), scaled, negative]), 1);
  const cdf = g.op('CumSum', [vocabProbs, g.constInt64([1], [])]); // [B, V], token-id order
  const total = g.slice(cdf, 1, -1, 1 << 30); // [B, 1]
  // tokens passed over: cdf ≤ u · total, but never the last kept token (cdf = total), even when u rounds to 1
  const passed = g.op('And', [g.op('LessOrEqual', [cdf, g.mul(uniform, total)]), g.op('Less', [cdf, total])]);
  const numPassed = g.op('ReduceSum', [g.cast(passed, 'float32'), g.constInt64([1])], { keepdims: 1 }); // [B, 1]
  return g.cast(numPassed, 'int32');
}
