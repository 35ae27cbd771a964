/**
 * The slow reference speech-tokenizer encoder: 24 kHz PCM → 12.5 Hz latent and the codes of the first
 * numValidQuantizers quantizers, one clip at a time with plain loops in float64, following transformers'
 * MimiModel._encode_frame: SEANet (causal convs, zero left padding plus the extra right padding that
 * completes the last window, ELU, identity-shortcut residual blocks) → causal transformer (LayerNorm,
 * RoPE, optional attention window, layer scales, GELU MLP) → replicate-padded stride-2 downsample → split RVQ
 * (semantic and acoustic parts each quantize the same latent; nearest codeword by Euclidean distance,
 * the lowest index on a tie). The golden path the ONNX graph is tested against; never used at run time.
 */
import { StudioError } from '../../../src-shared/errors';
import { SPEECH_CODEBOOK_EPSILON, SPEECH_ENCODER_PREFIX, seanetLayout, type SpeechEncoderConfig } from './speech-encoder-config';
import { layerNormRows, ropeRows } from '../codec/reference-codec-ops';

export type SpeechEncoderWeights = ReadonlyMap<string, { shape: readonly number[]; data: Float32Array }>;

/** Channel-major signal: data[c · length + t]. */
interface Signal {
  numChannels: number;
  length: number;
  data: Float64Array;
}

export interface ReferenceSpeechEncoding {
  /** [numFrames × hiddenSize], frame-major: the downsampled latent the quantizers read. */
  latent: Float64Array;
  numFrames: number;
  /** [numFrames][numValidQuantizers]. */
  codes: number[][];
  /** Smallest gap between the best and second-best squared distance over every decision (how far from a tie). */
  minDecisionMargin: number;
}

function weight(weights: SpeechEncoderWeights, name: string): { shape: readonly number[]; data: Float32Array } {
  const t = weights.get(`${SPEECH_ENCODER_PREFIX}.${name}`);
  if (!t) throw new StudioError('model-invalid', `speech encoder tensor '${SPEECH_ENCODER_PREFIX}.${name}' is missing`, { tensor: name });
  return t;
}

/** MimiConv1d, causal: left padding kEff − stride, right padding up to a whole last window. */
function conv1d(x: Signal, w: { shape: readonly number[]; data: Float32Array }, bias: Float32Array | null, stride: number, dilation: number, padMode: 'constant' | 'replicate'): Signal {
  const [numOut, numIn, kernel] = w.shape;
  const kEff = (kernel - 1) * dilation + 1;
  const padLeft = kEff - stride;
  const numWindows = Math.ceil((x.length - kEff + padLeft) / stride + 1);
  const padRight = (numWindows - 1) * stride + kEff - padLeft - x.length;
  const paddedLength = x.length + padLeft + padRight;
  const length = Math.floor((paddedLength - kEff) / stride) + 1;
  const at = (c: number, t: number): number => {
    const s = t - padLeft;
    if (s >= 0 && s < x.length) return x.data[c * x.length + s];
    if (padMode === 'constant') return 0;
    return x.data[c * x.length + (s < 0 ? 0 : x.length - 1)];
  };
  const out = new Float64Array(numOut * length);
  for (let o = 0; o < numOut; o++) {
    for (let t = 0; t < length; t++) {
      let sum = bias ? bias[o] : 0;
      for (let i = 0; i < numIn; i++) {
        for (let k = 0; k < kernel; k++) sum += w.data[(o * numIn + i) * kernel + k] * at(i, t * stride + k * dilation);
      }
      out[o * length + t] = sum;
    }
  }
  return { numChannels: numOut, length, data: out };
}

function convNamed(x: Signal, weights: SpeechEncoderWeights, name: string, stride = 1, dilation = 1): Signal {
  return conv1d(x, weight(weights, `${name}.weight`), weight(weights, `${name}.bias`).data, stride, dilation, 'constant');
}

const elu = (x: Signal): Signal => ({ ...x, data: x.data.map((v) => (v > 0 ? v : Math.expm1(v))) });

function seanet(pcm: Float32Array, c: SpeechEncoderConfig, weights: SpeechEncoderWeights): Signal {
  const layout = seanetLayout(c);
  let x = convNamed({ numChannels: 1, length: pcm.length, data: Float64Array.from(pcm) }, weights, `encoder.layers.${layout.first}.conv`);
  for (const stage of layout.stages) {
    for (const r of stage.residualLayers) {
      const h = convNamed(elu(x), weights, `encoder.layers.${r.index}.block.1.conv`, 1, r.dilation);
      const y = convNamed(elu(h), weights, `encoder.layers.${r.index}.block.3.conv`);
      x = { ...x, data: x.data.map((v, i) => v + y.data[i]) };
    }
    x = convNamed(elu(x), weights, `encoder.layers.${stage.downsample}.conv`, stage.ratio);
  }
  return convNamed(elu(x), weights, `encoder.layers.${layout.last}.conv`);
}

/** y[t] = W x[t] for W stored [out, in]; x frame-major [T × in]. */
function project(x: Float64Array, numRows: number, w: { shape: readonly number[]; data: Float32Array }): Float64Array {
  const [numOut, numIn] = w.shape;
  const y = new Float64Array(numRows * numOut);
  for (let t = 0; t < numRows; t++) {
    for (let o = 0; o < numOut; o++) {
      let sum = 0;
      for (let i = 0; i < numIn; i++) sum += w.data[o * numIn + i] * x[t * numIn + i];
      y[t * numOut + o] = sum;
    }
  }
  return y;
}

function layerNorm(x: Float64Array, numRows: number, gamma: Float32Array, beta: Float32Array, eps: number): Float64Array {
  return layerNormRows(x, numRows, gamma.length, gamma, beta, eps);
}

/** erf by Abramowitz–Stegun 7.1.26 is too coarse (1.5e-7) for a golden; this series/continued fraction is ~1e-15. */
function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2.5) {
    let term = ax;
    let sum = ax;
    for (let n = 1; n < 80; n++) {
      term *= (-ax * ax) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17) break;
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc by a continued fraction (Lentz), for |x| ≥ 2.5
  let f = ax;
  let cPrev = ax;
  let d = 0;
  for (let n = 1; n < 200; n++) {
    const a = n / 2;
    d = 1 / (ax + a * d);
    cPrev = ax + a / cPrev;
    const delta = cPrev * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
  return Math.sign(x) * (1 - erfc);
}

const gelu = (v: number) => 0.5 * v * (1 + erf(v / Math.SQRT2));

function rope(x: Float64Array, numRows: number, numHeads: number, headDim: number, theta: number): void {
  ropeRows(x, numRows, numHeads, headDim, (t, i) => t / theta ** ((2 * i) / headDim));
}

function transformer(input: Float64Array, numRows: number, c: SpeechEncoderConfig, weights: SpeechEncoderWeights): Float64Array {
  const h = c.hiddenSize;
  const d = c.headDim;
  const group = c.numAttentionHeads / c.numKeyValueHeads;
  let x = input;
  for (let layer = 0; layer < c.numHiddenLayers; layer++) {
    const l = `encoder_transformer.layers.${layer}`;
    const normed = layerNorm(x, numRows, weight(weights, `${l}.input_layernorm.weight`).data, weight(weights, `${l}.input_layernorm.bias`).data, c.normEps);
    const q = project(normed, numRows, weight(weights, `${l}.self_attn.q_proj.weight`));
    const k = project(normed, numRows, weight(weights, `${l}.self_attn.k_proj.weight`));
    const v = project(normed, numRows, weight(weights, `${l}.self_attn.v_proj.weight`));
    rope(q, numRows, c.numAttentionHeads, d, c.ropeTheta);
    rope(k, numRows, c.numKeyValueHeads, d, c.ropeTheta);
    const attended = new Float64Array(numRows * c.numAttentionHeads * d);
    const scores = new Float64Array(numRows);
    for (let head = 0; head < c.numAttentionHeads; head++) {
      const kvHead = Math.floor(head / group);
      for (let t = 0; t < numRows; t++) {
        const first = c.attentionWindow === null ? 0 : Math.max(0, t - c.attentionWindow + 1);
        let max = -Infinity;
        for (let s = first; s <= t; s++) {
          let dot = 0;
          for (let j = 0; j < d; j++) dot += q[(t * c.numAttentionHeads + head) * d + j] * k[(s * c.numKeyValueHeads + kvHead) * d + j];
          scores[s] = dot / Math.sqrt(d);
          max = Math.max(max, scores[s]);
        }
        let total = 0;
        for (let s = first; s <= t; s++) total += (scores[s] = Math.exp(scores[s] - max));
        for (let s = first; s <= t; s++) {
          const p = scores[s] / total;
          for (let j = 0; j < d; j++) attended[(t * c.numAttentionHeads + head) * d + j] += p * v[(s * c.numKeyValueHeads + kvHead) * d + j];
        }
      }
    }
    const attn = project(attended, numRows, weight(weights, `${l}.self_attn.o_proj.weight`));
    const attnScale = weight(weights, `${l}.self_attn_layer_scale.scale`).data;
    x = x.map((val, i) => val + attnScale[i % h] * attn[i]);
    const normed2 = layerNorm(x, numRows, weight(weights, `${l}.post_attention_layernorm.weight`).data, weight(weights, `${l}.post_attention_layernorm.bias`).data, c.normEps);
    const mlp = project(project(normed2, numRows, weight(weights, `${l}.mlp.fc1.weight`)).map(gelu), numRows, weight(weights, `${l}.mlp.fc2.weight`));
    const mlpScale = weight(weights, `${l}.mlp_layer_scale.scale`).data;
    x = x.map((val, i) => val + mlpScale[i % h] * mlp[i]);
  }
  return x;
}

/** One residual VQ over `latent` [numFrames × hidden]: codes[t][q] for its first numLayers codebooks. */
function residualQuantize(latent: Float64Array, numFrames: number, c: SpeechEncoderConfig, weights: SpeechEncoderWeights, name: string, numLayers: number, margin: { min: number }): number[][] {
  const q = `quantizer.${name}`;
  const dim = c.codebookDim;
  const residual = project(latent, numFrames, { shape: [dim, c.hiddenSize], data: weight(weights, `${q}.input_proj.weight`).data });
  const codes: number[][] = Array.from({ length: numFrames }, () => []);
  for (let layer = 0; layer < numLayers; layer++) {
    const sum = weight(weights, `${q}.layers.${layer}.codebook.embed_sum`).data;
    const usage = weight(weights, `${q}.layers.${layer}.codebook.cluster_usage`).data;
    for (let t = 0; t < numFrames; t++) {
      let best = -1;
      let bestDist = Infinity;
      let secondDist = Infinity;
      for (let code = 0; code < c.codebookSize; code++) {
        const inv = 1 / Math.max(usage[code], SPEECH_CODEBOOK_EPSILON);
        let dist = 0;
        for (let j = 0; j < dim; j++) dist += (residual[t * dim + j] - sum[code * dim + j] * inv) ** 2;
        if (dist < bestDist) {
          secondDist = bestDist;
          bestDist = dist;
          best = code;
        } else if (dist < secondDist) secondDist = dist;
      }
      margin.min = Math.min(margin.min, secondDist - bestDist);
      codes[t].push(best);
      const inv = 1 / Math.max(usage[best], SPEECH_CODEBOOK_EPSILON);
      for (let j = 0; j < dim; j++) residual[t * dim + j] -= sum[best * dim + j] * inv;
    }
  }
  return codes;
}

/** Encodes one clip of 24 kHz mono PCM (any length ≥ 1 sample). */
export function referenceSpeechEncode(pcm: Float32Array, c: SpeechEncoderConfig, weights: SpeechEncoderWeights): ReferenceSpeechEncoding {
  const conv = seanet(pcm, c, weights); // [hidden, T25]
  const numRows = conv.length;
  const rows = new Float64Array(numRows * c.hiddenSize);
  for (let ch = 0; ch < c.hiddenSize; ch++) for (let t = 0; t < numRows; t++) rows[t * c.hiddenSize + ch] = conv.data[ch * numRows + t];
  const contextual = transformer(rows, numRows, c, weights);
  const channelMajor = new Float64Array(contextual.length);
  for (let ch = 0; ch < c.hiddenSize; ch++) for (let t = 0; t < numRows; t++) channelMajor[ch * numRows + t] = contextual[t * c.hiddenSize + ch];
  const down = conv1d({ numChannels: c.hiddenSize, length: numRows, data: channelMajor }, weight(weights, 'downsample.conv.weight'), null, c.downsampleStride, 1, 'replicate');
  const numFrames = down.length;
  const latent = new Float64Array(numFrames * c.hiddenSize);
  for (let ch = 0; ch < c.hiddenSize; ch++) for (let t = 0; t < numFrames; t++) latent[t * c.hiddenSize + ch] = down.data[ch * numFrames + t];
  const margin = { min: Infinity };
  const semantic = residualQuantize(latent, numFrames, c, weights, 'semantic_residual_vector_quantizer', c.numSemanticQuantizers, margin);
  const acoustic = residualQuantize(latent, numFrames, c, weights, 'acoustic_residual_vector_quantizer', c.numValidQuantizers - c.numSemanticQuantizers, margin);
  const codes = semantic.map((row, t) => [...row, ...acoustic[t]]);
  return { latent, numFrames, codes, minDecisionMargin: margin.min };
}
