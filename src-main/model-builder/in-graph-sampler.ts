/**
 * Sampling inside a graph from host-supplied uniforms, per row: logits / temperature → top-k
 * (TopK with the batch's largest k, then a rank mask for smaller per-row k) → softmax → top-p (keep
 * tokens whose exclusive cumulative probability is < top_p) → inverse-CDF draw: the first kept token
 * whose cumulative mass exceeds u · total. top_k = 1 is greedy (argmax, lowest id on ties).
 */
import type { GraphBuilder } from './onnx/graph-builder';
import { MASK_NEGATIVE } from './onnx/composite-ops';

export interface SamplerInputs {
  temperature: string; // float32 [B]
  topK: string; // int64 [B]
  topP: string; // float32 [B]
}

/** logits fp32 [B, V], uniform fp32 [B, 1] → code int64 [B, 1]. */
export function sampleInGraph(g: GraphBuilder, logits: string, uniform: string, p: SamplerInputs, vocabSize: number): string {
  const scaled = g.div(logits, g.unsqueeze(p.temperature, [1]));
  const kPerRow = g.op('Min', [p.topK, g.constInt64([vocabSize], [])]); // [B]
  const kMax = g.op('ReduceMax', [kPerRow], { keepdims: 1 }); // [1]
  const [values, indices] = g.node('TopK', [scaled, kMax], 2, { axis: 1, largest: 1, sorted: 1 });
  const ranks = g.op('Range', [g.constInt64([0], []), g.squeeze(kMax, [0]), g.constInt64([1], [])]); // [K]
  const inTopK = g.op('Less', [g.unsqueeze(ranks, [0]), g.unsqueeze(kPerRow, [1])]); // [B, K]
  const probs = g.softmax(g.op('Where', [inTopK, values, g.constFloat(MASK_NEGATIVE)]), 1);
  const exclusive = g.op('CumSum', [probs, g.constInt64([1], [])], { exclusive: 1 });
  const inTopP = g.op('Less', [exclusive, g.unsqueeze(p.topP, [1])]);
  const mass = g.mul(probs, g.cast(g.op('And', [inTopK, inTopP]), 'float32'));
  const cdf = g.op('CumSum', [mass, g.constInt64([1], [])]);
  const total = g.slice(cdf, 1, -1, vocabSize + 1); // [B, 1] (end clamps to K)
  const target = g.mul(uniform, total);
  const below = g.cast(g.op('LessOrEqual', [cdf, target]), 'int64');
  const rank = g.op('ReduceSum', [below, g.constInt64([1])], { keepdims: 1 }); // [B, 1]
  const lastKept = g.sub(g.unsqueeze(kPerRow, [1]), g.constInt64([1], []));
  return g.op('GatherElements', [indices, g.op('Min', [rank, lastKept])], { axis: 1 });
}
