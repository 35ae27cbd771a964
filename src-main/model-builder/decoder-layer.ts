/**
 * One pre-norm Qwen3 decoder layer as ONNX nodes, shared by the talker and the code predictor:
 * x += o_proj(attn(rope(q_norm(q)), rope(k_norm(k)), v)); x += down(silu(gate(n)) * up(n)), n = RMSNorm(x).
 * q/k/v and gate/up are each one MatMul over side-by-side weights, split after.
 * KV: the new keys/values are appended to the past along the position axis (present [B, KVH, P+S, D]),
 * or, with io.kvWrite, written into a fixed-capacity past at their positions (present [B, KVH, L, D]).
 * With a fused io.attention, RoPE, the KV append and causal attention are one com.microsoft
 * GroupQueryAttention node (rows of a batch share their past length; no padding).
 */
import type { TransformerDims } from '../model-format/manifest';
import { groupedQueryAttention, rmsNorm, ropeHeads, swigluOf, writeKv, type ActivationType, type KvWritePlan, type Rope } from '../model-format/onnx/composite-ops';
import type { GraphBuilder } from '../model-format/onnx/graph-builder';
import { replaySafeSplit } from '../model-format/onnx/replay-safe-split';
import type { WeightLoader } from './weight-loader';

export interface DecoderLayerWeights {
  inputNorm: string;
  /** q, k and v projections side by side: [hidden, (Hq + 2·KVH)·D]. */
  qkvT: string;
  oT: string;
  qNorm: string;
  kNorm: string;
  postNorm: string;
  /** gate and up projections side by side: [hidden, 2·intermediate]. */
  gateUpT: string;
  downT: string;
}

export function loadDecoderLayerWeights(loader: WeightLoader, prefix: string): DecoderLayerWeights {
  return {
    inputNorm: loader.norm(`${prefix}.input_layernorm.weight`),
    qkvT: loader.concatLinearT(['q_proj', 'k_proj', 'v_proj'].map((p) => `${prefix}.self_attn.${p}.weight`), `${prefix}.self_attn.qkv_proj.weight`),
    oT: loader.linearT(`${prefix}.self_attn.o_proj.weight`),
    qNorm: loader.norm(`${prefix}.self_attn.q_norm.weight`),
    kNorm: loader.norm(`${prefix}.self_attn.k_norm.weight`),
    postNorm: loader.norm(`${prefix}.post_attention_layernorm.weight`),
    gateUpT: loader.concatLinearT([`${prefix}.mlp.gate_proj.weight`, `${prefix}.mlp.up_proj.weight`], `${prefix}.mlp.gate_up_proj.weight`),
    downT: loader.linearT(`${prefix}.mlp.down_proj.weight`),
  };
}

/** GroupQueryAttention's extra inputs: seqlens_k int32 [B] (past + new − 1), total_sequence_length int32 scalar, RoPE caches. */
export interface FusedAttentionInputs {
  seqlensK: string;
  totalSequenceLength: string;
  cosCache: string;
  sinCache: string;
}

/** RoPE and an additive fp32 mask [B|1, 1, 1, S, T] for plain ops, or one GroupQueryAttention (causal inside). */
export type DecoderAttention = { rope: Rope; mask: string } | { fused: FusedAttentionInputs };

export interface DecoderLayerIo {
  x: string;
  attention: DecoderAttention;
  /** Past keys/values, or null when there is no past (the first step inside a graph). */
  pastKey: string | null;
  pastValue: string | null;
  /** Fixed-capacity KV: write the new rows into the past at their slots instead of appending. */
  kvWrite?: KvWritePlan;
  /** Every sequence brings exactly one new row (talker decode): a Transpose of the size-1 row axis is a Reshape, merged with its neighbours. */
  singleRow?: boolean;
}

/** The packed projections' outputs split along the last axis, in by-value Splits a CUDA graph replays safely (q|k|v is uneven). */
function splitLast(g: GraphBuilder, x: string, widths: readonly number[]): string[] {
  return replaySafeSplit(g, x, widths, -1);
}

/** Splits [B, S, heads*D] into heads [B, heads, S, D]; with S = 1 one Reshape (the bytes are already in that order). */
function toHeads(g: GraphBuilder, x: string, numHeads: number, headDim: number, singleRow = false): string {
  if (singleRow) return g.reshape(x, [0, numHeads, 1, headDim]);
  return g.transpose(g.reshape(x, [0, 0, numHeads, headDim]), [0, 2, 1, 3]);
}

/** The layer's outputs; newKey/newValue are the new rows [B, KVH, S, D] before they join the cache (plain attention only). */
export interface DecoderLayerOut {
  x: string;
  presentKey: string;
  presentValue: string;
  newKey?: string;
  newValue?: string;
}

export function decoderLayer(g: GraphBuilder, w: DecoderLayerWeights, d: TransformerDims, dtype: ActivationType, io: DecoderLayerIo): DecoderLayerOut {
  const normed = rmsNorm(g, io.x, w.inputNorm, d.rmsNormEps, dtype);
  const [qFlat, kFlat, vFlat] = splitLast(g, g.matmul(normed, w.qkvT), [d.numHeads * d.headDim, d.numKvHeads * d.headDim, d.numKvHeads * d.headDim]);
  const q4 = g.reshape(qFlat, [0, 0, d.numHeads, d.headDim]); // [B, S, Hq, D]
  const k4 = g.reshape(kFlat, [0, 0, d.numKvHeads, d.headDim]);
  if ('fused' in io.attention) return fusedAttentionLayer(g, w, d, dtype, io, q4, k4, vFlat, io.attention.fused);
  const { rope, mask } = io.attention;
  const single = io.singleRow ?? false;
  const qRot = ropeHeads(g, rmsNorm(g, q4, w.qNorm, d.rmsNormEps, dtype), rope, d.numHeads, d.headDim, single && 'flat'); // [B, Hq, S, D] (or [B, 1, Hq*D])
  const kRot = ropeHeads(g, rmsNorm(g, k4, w.kNorm, d.rmsNormEps, dtype), rope, d.numKvHeads, d.headDim, single);
  const v = toHeads(g, vFlat, d.numKvHeads, d.headDim, single);
  const present = (past: string | null, rows: string): string => {
    if (!past) return rows;
    return io.kvWrite ? writeKv(g, past, rows, io.kvWrite) : g.concat([past, rows], 2);
  };
  const presentKey = present(io.pastKey, kRot);
  const presentValue = present(io.pastValue, v);
  const attn = groupedQueryAttention(g, { q: qRot, k: presentKey, v: presentValue, mask, numHeads: d.numHeads, numKvHeads: d.numKvHeads, headDim: d.headDim, dtype, singleRow: single });
  return { x: residualAndMlp(g, w, d, dtype, io.x, attn), presentKey, presentValue, newKey: kRot, newValue: v };
}

/** x + o_proj(attn), then the MLP block with its residual. */
function residualAndMlp(g: GraphBuilder, w: DecoderLayerWeights, d: TransformerDims, dtype: ActivationType, x: string, attn: string): string {
  const afterAttn = g.add(x, g.matmul(attn, w.oT));
  const [gate, up] = splitLast(g, g.matmul(rmsNorm(g, afterAttn, w.postNorm, d.rmsNormEps, dtype), w.gateUpT), [d.intermediateSize, d.intermediateSize]);
  const mlp = swigluOf(g, gate, up, w.downT);
  return g.add(afterAttn, mlp);
}

/** q/k norms, then one GroupQueryAttention (RoPE from seqlens_k, append to the past, causal attention). */
function fusedAttentionLayer(
  g: GraphBuilder, w: DecoderLayerWeights, d: TransformerDims, dtype: ActivationType, io: DecoderLayerIo,
  q4: string, k4: string, v: string, f: FusedAttentionInputs,
): { x: string; presentKey: string; presentValue: string } {
  const q = g.reshape(rmsNorm(g, q4, w.qNorm, d.rmsNormEps, dtype), [0, 0, d.numHeads * d.headDim]);
  const k = g.reshape(rmsNorm(g, k4, w.kNorm, d.rmsNormEps, dtype), [0, 0, d.numKvHeads * d.headDim]);
  const inputs = [q, k, v, io.pastKey ?? '', io.pastValue ?? '', f.seqlensK, f.totalSequenceLength, f.cosCache, f.sinCache];
  const attrs = { num_heads: d.numHeads, kv_num_heads: d.numKvHeads, do_rotary: 1, rotary_interleaved: 0 };
  const [attn, presentKey, presentValue] = g.node('GroupQueryAttention', inputs, 3, attrs, 'com.microsoft');
  return { x: residualAndMlp(g, w, d, dtype, io.x, attn), presentKey, presentValue };
}
