/**
 * Reference talker and code predictor on top of ReferenceDecoder: embedding lookups, text projection,
 * codec_head, the 15 lm_heads, small_to_mtp_projection, and the sampler the in-graph loop implements
 * (temperature → top-k → top-p → inverse-CDF draw with a host-supplied uniform). One sequence at a time.
 */
import type { CheckpointConfig } from '../checkpoint-config';
import type { SafetensorsFile } from '../safetensors';
import { matVec, ReferenceDecoder, rmsNormVec, type ReferenceKvCache } from './reference-decoder';

export class ReferenceTalker {
  readonly decoder: ReferenceDecoder;
  private readonly codecHead: Float32Array;
  private readonly codecEmbedding: Float32Array;
  private readonly fc1: Float32Array;
  private readonly fc1Bias: Float32Array;
  private readonly fc2: Float32Array;
  private readonly fc2Bias: Float32Array;

  constructor(private readonly weights: SafetensorsFile, private readonly config: CheckpointConfig) {
    this.decoder = new ReferenceDecoder(weights, 'talker.model', config.talker);
    this.codecHead = weights.readFloat32('talker.codec_head.weight');
    this.codecEmbedding = weights.readFloat32('talker.model.codec_embedding.weight');
    this.fc1 = weights.readFloat32('talker.text_projection.linear_fc1.weight');
    this.fc1Bias = weights.readFloat32('talker.text_projection.linear_fc1.bias');
    this.fc2 = weights.readFloat32('talker.text_projection.linear_fc2.weight');
    this.fc2Bias = weights.readFloat32('talker.text_projection.linear_fc2.bias');
  }

  /** T(id) = fc2(silu(fc1(text_embedding[id]))). */
  textRow(id: number): Float32Array {
    const e = this.weights.readRowsFloat32('talker.model.text_embedding.weight', id, 1);
    const h = matVec(this.fc1, e, this.config.talker.textHiddenSize, this.fc1Bias).map((v) => v / (1 + Math.exp(-v)));
    return matVec(this.fc2, h, this.config.talker.hiddenSize, this.fc2Bias);
  }

  /** C(id): talker codec_embedding row. */
  codecRow(id: number): Float32Array {
    const h = this.config.talker.hiddenSize;
    return this.codecEmbedding.slice(id * h, (id + 1) * h);
  }

  /** Runs rows at the given positions; returns the last row's logits and final-norm hidden state. */
  step(rows: Float32Array[], positions: number[], cache: ReferenceKvCache): { logits: Float32Array; lastHidden: Float32Array } {
    const out = this.decoder.forward(rows, positions, cache);
    const lastHidden = rmsNormVec(out[out.length - 1], this.decoder.finalNorm, this.config.talker.rmsNormEps);
    return { logits: matVec(this.codecHead, lastHidden, this.config.talker.vocabSize), lastHidden };
  }
}

export class ReferenceCodePredictor {
  readonly decoder: ReferenceDecoder;
  private readonly heads: Float32Array[] = [];
  private readonly tables: Float32Array[] = [];
  private readonly projection: { w: Float32Array; b: Float32Array } | null;

  constructor(weights: SafetensorsFile, private readonly config: CheckpointConfig) {
    this.decoder = new ReferenceDecoder(weights, 'talker.code_predictor.model', config.codePredictor);
    for (let j = 0; j < config.numCodeGroups - 1; j++) {
      this.heads.push(weights.readFloat32(`talker.code_predictor.lm_head.${j}.weight`));
      this.tables.push(weights.readFloat32(`talker.code_predictor.model.codec_embedding.${j}.weight`));
    }
    this.projection = config.codePredictor.hasInputProjection
      ? { w: weights.readFloat32('talker.code_predictor.small_to_mtp_projection.weight'), b: weights.readFloat32('talker.code_predictor.small_to_mtp_projection.bias') }
      : null;
  }

  /** E_j(code): code-predictor table j (embeds codebook j + 1), talker width. */
  tableRow(j: number, code: number): Float32Array {
    const h = this.config.talker.hiddenSize;
    return this.tables[j].slice(code * h, (code + 1) * h);
  }

  /** Rows in talker width; head `step` on the last row. Positions continue from the cache length. */
  step(rows: Float32Array[], step: number, cache: ReferenceKvCache): Float32Array {
    const start = cache.keys[0].length;
    const projected = this.projection ? rows.map((r) => matVec(this.projection!.w, r, this.config.codePredictor.hiddenSize, this.projection!.b)) : rows;
    const out = this.decoder.forward(projected, projected.map((_, i) => start + i), cache);
    const hidden = rmsNormVec(out[out.length - 1], this.decoder.finalNorm, this.config.codePredictor.rmsNormEps);
    return matVec(this.heads[step], hidden, this.config.codePredictor.vocabSize);
  }

  /** The whole frame: [lastHidden, C(c0)] then 14 single rows; returns codes 1..15 and Σ E_j(c_{j+1}). */
  frame(lastHidden: Float32Array, firstCodeRow: Float32Array, params: ReferenceSampling, uniforms: readonly number[]): { codes: number[]; embedSum: Float32Array } {
    const cache = this.decoder.newCache();
    const codes: number[] = [];
    const embedSum = new Float32Array(this.config.talker.hiddenSize);
    let rows = [lastHidden, firstCodeRow];
    for (let j = 0; j < this.config.numCodeGroups - 1; j++) {
      const code = referenceSample(this.step(rows, j, cache), params, uniforms[j]);
      codes.push(code);
      const e = this.tableRow(j, code);
      for (let i = 0; i < e.length; i++) embedSum[i] += e[i];
      rows = [e];
    }
    return { codes, embedSum };
  }
}

export interface ReferenceSampling {
  temperature: number;
  topK: number;
  topP: number;
}

/**
 * The host sampler's rules, slowly: keep logits ≥ the k-th largest (ties kept), softmax, keep the most
 * likely tokens while the exclusive cumulative probability is < top_p (at least one; ties with the
 * smallest kept logit kept too), renormalise, inverse-CDF draw in token-id order.
 */
export function referenceSample(logits: Float32Array, p: ReferenceSampling, uniform: number): number {
  const scaled = Array.from(logits, (v) => v / p.temperature);
  const descending = [...scaled].sort((a, b) => b - a);
  const kth = descending[Math.min(p.topK, scaled.length) - 1];
  const candidates = descending.filter((v) => v >= kth);
  const max = candidates[0];
  const sum = candidates.reduce((a, v) => a + Math.exp(v - max), 0);
  let exclusive = 0;
  let threshold = max;
  for (const v of candidates) {
    if (exclusive >= p.topP && v !== max) break;
    threshold = v;
    exclusive += Math.exp(v - max) / sum;
  }
  const mass = scaled.map((v) => (v >= threshold ? Math.exp(v - max) : 0));
  const total = mass.reduce((a, b) => a + b, 0);
  let cdf = 0;
  let last = 0;
  for (let id = 0; id < mass.length; id++) {
    if (mass[id] === 0) continue;
    cdf += mass[id];
    last = id;
    if (cdf > uniform * total) return id;
  }
  return last;
}
