/**
 * Composite transformer blocks on top of GraphBuilder, written with plain ONNX ops (opset 17) so every
 * graph runs on the CPU and WebGPU providers: linear, RMSNorm (computed in fp32; one fused
 * SimplifiedLayerNormalization node when the builder's ops are 'fused'), SiLU / SwiGLU, rotate-half
 * RoPE (com.microsoft RotaryEmbedding when fused), causal + padding masks and grouped-query attention.
 * Shapes in comments: B batch, S new positions, T = past + S key positions, D head dim.
 */
import { attr, type GraphBuilder } from './graph-builder';

export type ActivationType = 'float32' | 'float16';

/** Large negative instead of -Inf so that a fully masked row (a left pad) stays finite. */
export const MASK_NEGATIVE = -1e9;

/** x @ weightT (+ bias); weightT is stored [in, out]. */
export function linear(g: GraphBuilder, x: string, weightT: string, bias?: string): string {
  const y = g.matmul(x, weightT);
  return bias ? g.add(y, bias) : y;
}

/**
 * weight * x / sqrt(mean(x², last axis) + eps), computed in fp32; returns the activation type.
 * 'fused': one SimplifiedLayerNormalization node (ORT's RMSNorm kernel, fp32 accumulation via
 * stash_type 1) whose scale has the activation type: pass the weight stored so (WeightLoader.norm),
 * else a Cast is added; 'portable': eight plain ops around fp32 Casts, the weight fp32.
 */
export function rmsNorm(g: GraphBuilder, x: string, weight: string, eps: number, dtype: ActivationType): string {
  if (g.ops === 'fused') {
    return g.op('SimplifiedLayerNormalization', [x, g.cast(weight, dtype)], { axis: -1, epsilon: attr.float(eps), stash_type: 1 });
  }
  const x32 = dtype === 'float32' ? x : g.cast(x, 'float32');
  const meanSquare = g.op('ReduceMean', [g.mul(x32, x32)], { axes: [-1], keepdims: 1 });
  const rms = g.op('Sqrt', [g.add(meanSquare, g.constFloat(eps))]);
  const y = g.mul(g.div(x32, rms), g.cast(weight, 'float32'));
  return dtype === 'float32' ? y : g.cast(y, 'float16');
}

export function silu(g: GraphBuilder, x: string): string {
  return g.mul(x, g.sigmoid(x));
}

/** down(silu(gate(x)) * up(x)), all weights stored [in, out]. */
export function swiglu(g: GraphBuilder, x: string, gateT: string, upT: string, downT: string): string {
  return swigluOf(g, g.matmul(x, gateT), g.matmul(x, upT), downT);
}

/** down(silu(gate) * up) from already projected gate and up. */
export function swigluOf(g: GraphBuilder, gate: string, up: string, downT: string): string {
  return g.matmul(g.mul(silu(g, gate), up), downT);
}

/**
 * cos and sin tables [B, 1, S, D] for rotate-half RoPE from int64 position ids [B, S]:
 * angle = position * theta^(-2i/D), duplicated over both halves (HF `cat(freqs, freqs)`).
 */
export function ropeCosSin(g: GraphBuilder, positionIds: string, headDim: number, theta: number, dtype: ActivationType): { cos: string; sin: string } {
  const invFreq = ropeInverseFrequencies(headDim, theta);
  const invFreqName = g.initializer(g.fresh('rope_inv_freq'), Float32Array.from([...invFreq, ...invFreq]), [1, 1, headDim]);
  const positions = g.unsqueeze(g.cast(positionIds, 'float32'), [2]); // [B, S, 1]
  const angles = g.unsqueeze(g.mul(positions, invFreqName), [1]); // [B, 1, S, D]
  let cos = g.op('Cos', [angles]);
  let sin = g.op('Sin', [angles]);
  if (dtype === 'float16') {
    cos = g.cast(cos, 'float16');
    sin = g.cast(sin, 'float16');
  }
  return { cos, sin };
}

/** theta^(-2i/D) for i < D/2. */
function ropeInverseFrequencies(headDim: number, theta: number): Float32Array {
  return Float32Array.from({ length: headDim / 2 }, (_, i) => 1 / theta ** ((2 * i) / headDim));
}

/** x * cos + rotate_half(x) * sin for x [B, H, S, D]; rotate_half(x) = cat(-x2, x1). */
export function applyRope(g: GraphBuilder, x: string, cos: string, sin: string, headDim: number): string {
  const half = headDim / 2;
  const x1 = g.slice(x, 3, 0, half);
  const x2 = g.slice(x, 3, half, headDim);
  const rotated = g.concat([g.op('Neg', [x2]), x1], 3);
  return g.add(g.mul(x, cos), g.mul(rotated, sin));
}

/**
 * RoPE inputs of one graph, by op set. 'portable': cos/sin [B|1, 1, S, D] computed in the graph.
 * 'fused': com.microsoft RotaryEmbedding's position ids ([B, S], or [1] = the first position of every
 * row) and its cos/sin caches [maxPositions, D/2] (initializers shared by every layer of the graph).
 */
export type Rope =
  | { kind: 'tables'; cos: string; sin: string }
  | { kind: 'fused'; positionIds: string; cosCache: string; sinCache: string };

/**
 * The RoPE inputs for `positions`: ids [B, S] (a pad's -1 is clamped to 0 in fused graphs: its rows are
 * dropped) or { start } [1] for rows at start, start + 1, ... In fused graphs every position must be
 * below maxPositions (RotaryEmbedding rejects a larger one).
 */
export function ropeFor(g: GraphBuilder, positions: string | { start: string; length: string }, headDim: number, theta: number, dtype: ActivationType, maxPositions: number): Rope {
  if (g.ops === 'fused') {
    const caches = ropeCaches(g, headDim, theta, dtype, maxPositions);
    const positionIds = typeof positions === 'string' ? g.op('Max', [positions, g.constInt64([0], [])]) : positions.start;
    return { kind: 'fused', positionIds, ...caches };
  }
  const ids = typeof positions === 'string' ? positions : g.unsqueeze(g.op('Range', [g.squeeze(positions.start, [0]), g.squeeze(g.add(positions.start, positions.length), [0]), g.constInt64([1], [])]), [0]); // [1, S]
  return { kind: 'tables', ...ropeCosSin(g, ids, headDim, theta, dtype) };
}

const ropeCacheNames = new WeakMap<GraphBuilder, Map<string, { cosCache: string; sinCache: string }>>();

/** cos/sin [maxPositions, D/2] of position p · theta^(-2i/D), computed in fp64; one pair per graph and shape. */
export function ropeCaches(g: GraphBuilder, headDim: number, theta: number, dtype: ActivationType, maxPositions: number): { cosCache: string; sinCache: string } {
  const perGraph = ropeCacheNames.get(g) ?? new Map<string, { cosCache: string; sinCache: string }>();
  ropeCacheNames.set(g, perGraph);
  const key = `${headDim}:${theta}:${dtype}:${maxPositions}`;
  const cached = perGraph.get(key);
  if (cached) return cached;
  const half = headDim / 2;
  const invFreq = ropeInverseFrequencies(headDim, theta);
  const cos = new Float32Array(maxPositions * half);
  const sin = new Float32Array(cos.length);
  for (let p = 0; p < maxPositions; p++) {
    for (let i = 0; i < half; i++) {
      cos[p * half + i] = Math.cos(p * invFreq[i]);
      sin[p * half + i] = Math.sin(p * invFreq[i]);
    }
  }
  const storage = dtype === 'float16' ? 'float16' : 'float32';
  const names = {
    cosCache: g.initializer(g.fresh('rope_cos_cache'), cos, [maxPositions, half], storage),
    sinCache: g.initializer(g.fresh('rope_sin_cache'), sin, [maxPositions, half], storage),
  };
  perGraph.set(key, names);
  return names;
}

/**
 * Rotates heads x [B, S, H, D] and returns them as [B, H, S, D]. singleRow (S = 1): the heads' bytes are
 * already in [B, H, 1, D] order, so a Reshape stands for the Transpose (the same copy); 'flat' returns the
 * fused kernel's [B, 1, H*D] as it is, for a consumer that reshapes anyway (groupedQueryAttention's q).
 */
export function ropeHeads(g: GraphBuilder, x: string, rope: Rope, numHeads: number, headDim: number, singleRow: false | true | 'flat' = false): string {
  const toHeads = (y: string): string => (singleRow ? g.reshape(y, [0, numHeads, 1, headDim]) : g.transpose(y, [0, 2, 1, 3]));
  if (rope.kind === 'tables') return applyRope(g, toHeads(x), rope.cos, rope.sin, headDim);
  const flat = g.reshape(x, [0, 0, numHeads * headDim]); // [B, S, H*D]
  const rotated = g.op('RotaryEmbedding', [flat, rope.positionIds, rope.cosCache, rope.sinCache], { interleaved: 0, num_heads: numHeads }, 'com.microsoft');
  if (singleRow === 'flat') return rotated;
  return singleRow ? toHeads(rotated) : toHeads(g.reshape(rotated, [0, 0, numHeads, headDim]));
}

/**
 * Additive fp32 mask [B or 1, 1, 1, S, T] (broadcast over kv heads and groups): query s (absolute key index P + s)
 * sees key t when t <= P + s and, if given, attentionMask[b, t] == 1. Masked entries get MASK_NEGATIVE.
 */
export function causalMask(g: GraphBuilder, pastLength: string, seqLength: string, attentionMask?: string): string {
  const zero = g.constInt64([0]);
  const one = g.constInt64([1]);
  const totalLength = g.add(pastLength, seqLength);
  const keyPos = g.op('Range', [g.squeeze(zero, [0]), g.squeeze(totalLength, [0]), g.squeeze(one, [0])]); // [T]
  const queryPos = g.op('Range', [g.squeeze(pastLength, [0]), g.squeeze(totalLength, [0]), g.squeeze(one, [0])]); // [S]
  let allowed = g.op('LessOrEqual', [g.unsqueeze(keyPos, [0]), g.unsqueeze(queryPos, [1])]); // [S, T]
  if (attentionMask) {
    const keyValid = g.unsqueeze(g.op('Equal', [attentionMask, g.constInt64([1], [])]), [1]); // [B, 1, T]
    allowed = g.op('And', [allowed, keyValid]); // [B, S, T]
  } else {
    allowed = g.unsqueeze(allowed, [0]); // [1, S, T]
  }
  const additive = g.op('Where', [allowed, g.constFloat(0), g.constFloat(MASK_NEGATIVE)]);
  return g.unsqueeze(additive, [1, 2]); // [B, 1, 1, S, T]
}

/** causalMask for a past length and row count known at build time: a constant [1, 1, 1, S, P + S]. */
export function fixedCausalMask(g: GraphBuilder, pastLength: number, numRows: number): string {
  const total = pastLength + numRows;
  const values = Array.from({ length: numRows * total }, (_, i) => (i % total <= pastLength + Math.floor(i / total) ? 0 : MASK_NEGATIVE));
  return g.constFloat(values, 'float32', [1, 1, 1, numRows, total]);
}

/**
 * Additive fp32 mask [B, 1, 1, S, L] over a fixed-capacity KV buffer whose slot t holds position t:
 * the query at positionIds[b, s] sees slot t when t <= that position and attentionMask[b, t] == 1.
 * A pad query (position -1) sees nothing and stays finite. Index math is fp32 (exact below 2^24).
 */
export function positionMask(g: GraphBuilder, positionIds: string, attentionMask: string): string {
  const slots = kvSlotIndices(g, attentionMask); // [L]
  const positions = g.unsqueeze(g.cast(positionIds, 'float32'), [2]); // [B, S, 1]
  const causal = g.op('LessOrEqual', [g.unsqueeze(slots, [0, 1]), positions]); // [B, S, L]
  const keyValid = g.unsqueeze(g.op('Equal', [attentionMask, g.constInt64([1], [])]), [1]); // [B, 1, L]
  const additive = g.op('Where', [g.op('And', [causal, keyValid]), g.constFloat(0), g.constFloat(MASK_NEGATIVE)]);
  return g.unsqueeze(additive, [1, 2]);
}

/** fp32 slot indices 0..L-1 of a capacity-L buffer, L = dim 1 of `attentionMask` [B, L]. */
function kvSlotIndices(g: GraphBuilder, attentionMask: string): string {
  const capacity = g.squeeze(g.cast(g.dim(attentionMask, 1), 'float32'), [0]);
  return g.op('Range', [g.constFloat(0, 'float32', []), capacity, g.constFloat(1, 'float32', [])]);
}

/**
 * Where the new positions go in a capacity-L buffer: isNew [B, 1, L, 1], and onehot [B, 1, L, S] (activation
 * dtype) where a sequence brings several rows; null where it brings one, which is then broadcast.
 */
export interface KvWritePlan {
  onehot: string | null;
  isNew: string;
}

/** One-hot of positionIds [B, S] over the L slots of `attentionMask` [B, L]; position -1 (a pad) writes nowhere. */
export function kvWritePlan(g: GraphBuilder, positionIds: string, attentionMask: string, dtype: ActivationType): KvWritePlan {
  const slots = g.unsqueeze(kvSlotIndices(g, attentionMask), [0, 2]); // [1, L, 1]
  const positions = g.unsqueeze(g.cast(positionIds, 'float32'), [1]); // [B, 1, S]
  const hit = g.cast(g.op('Equal', [slots, positions]), 'float32'); // [B, L, S]
  const onehot = g.unsqueeze(dtype === 'float32' ? hit : g.cast(hit, dtype), [1]);
  const count = g.op('ReduceSum', [hit, g.constInt64([2])], { keepdims: 1 }); // [B, L, 1]
  const isNew = g.unsqueeze(g.op('Greater', [count, g.constFloat(0)]), [1]);
  return { onehot, isNew };
}

/**
 * past [B, KVH, L, D] with the new rows [B, KVH, S, D] written at their slots. Exact: onehot @ rows
 * sums one product by 1 and the rest by 0, and Where copies every other slot unchanged. With one row a
 * sequence (no onehot), Where broadcasts that row to its slot: the same bytes, and no MatMul whose
 * broadcast batch ([B, 1] against [B, KVH]) ORT's CUDA kernel stages as pointer arrays in pinned memory.
 */
export function writeKv(g: GraphBuilder, past: string, rows: string, plan: KvWritePlan): string {
  if (plan.onehot === null) return g.op('Where', [plan.isNew, rows, past]);
  return g.op('Where', [plan.isNew, g.matmul(plan.onehot, rows), past]);
}

export interface AttentionArgs {
  q: string; // [B, Hq, S, D], RoPE applied (with singleRow also [B, 1, Hq*D]: the same bytes)
  k: string; // [B, KVH, T, D], full key cache incl. the new positions
  v: string; // [B, KVH, T, D]
  mask: string; // additive fp32 [B|1, 1, 1, S, T]
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  dtype: ActivationType;
  /** S = 1 (one new row per sequence): the context's [B, KVH, G, 1, D] bytes are already [B, 1, Hq*D], so no Transpose. */
  singleRow?: boolean;
}

/**
 * Grouped-query softmax attention; query head h uses kv head floor(h / (Hq / KVH)) (HF repeat_kv order).
 * The G = Hq / KVH query heads of a kv head are rows of one matrix, [B, KVH, G*S, D] @ [B, KVH, D, T]:
 * K and V are never repeated, and both GEMMs see the same batch dims, so ORT's CUDA MatMul runs them as
 * one strided-batched GEMM (a broadcast batch stages pointer arrays in pinned memory, which a captured
 * CUDA graph replays after it is freed). Scores, mask and softmax are fp32. Returns [B, S, Hq * D].
 */
export function groupedQueryAttention(g: GraphBuilder, a: AttentionArgs): string {
  const numGroups = a.numHeads / a.numKvHeads;
  const scale = g.constFloat(1 / Math.sqrt(a.headDim), a.dtype);
  const qRows = g.reshape(g.mul(a.q, scale), [0, a.numKvHeads, -1, a.headDim]); // [B, KVH, G*S, D]
  let scores = g.matmul(qRows, g.transpose(a.k, [0, 1, 3, 2])); // [B, KVH, G*S, T]
  if (a.dtype === 'float16') scores = g.cast(scores, 'float32');
  let probs = g.softmax(g.add(scores, groupedRowsMask(g, a.mask, numGroups, a.singleRow ?? false)), -1);
  if (a.dtype === 'float16') probs = g.cast(probs, 'float16');
  const context = g.matmul(probs, a.v); // [B, KVH, G*S, D]
  if (a.singleRow) return g.reshape(context, [0, 1, a.numHeads * a.headDim]);
  const grouped = g.reshape(context, [0, a.numKvHeads, numGroups, -1, a.headDim]); // [B, KVH, G, S, D]
  const bshd = g.transpose(grouped, [0, 3, 1, 2, 4]); // [B, S, KVH, G, D]
  return g.reshape(bshd, [0, 0, a.numHeads * a.headDim]);
}

const groupedMasks = new WeakMap<GraphBuilder, Map<string, string>>();

/**
 * The additive mask [B|1, 1, 1, S, T] for score rows g*S + s: [B|1, 1, G*S, T] (each group the mask again),
 * or [B|1, 1, 1, T] with one row a sequence. Built once per graph, for every layer.
 */
function groupedRowsMask(g: GraphBuilder, mask: string, numGroups: number, singleRow: boolean): string {
  const key = `${mask}/${numGroups}/${singleRow}`;
  const built = groupedMasks.get(g) ?? new Map<string, string>();
  groupedMasks.set(g, built);
  let rows = built.get(key);
  if (rows === undefined) {
    if (singleRow) rows = g.reshape(mask, [0, 1, 1, -1]);
    else {
      const perRow = g.squeeze(mask, [1]); // [B|1, 1, S, T]
      rows = numGroups === 1 ? perRow : g.concat(Array<string>(numGroups).fill(perRow), 2);
    }
    built.set(key, rows);
  }
  return rows;
}
