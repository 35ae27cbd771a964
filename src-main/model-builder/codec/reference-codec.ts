/**
 * The slow reference decoder ("code2wav", spec §4.2): codes [B, Q, T] → PCM [B, T · samplesPerFrame],
 * one batch row at a time with plain loops (reference-codec-ops.ts). It is the golden path the ONNX
 * graph and the chunked decoder are tested against; never used at run time.
 *
 * Transposed convs keep the first L·s samples (trim K − s on the right only), as the official
 * CausalTransConvNet does since QwenLM/Qwen3-TTS 5f8581d (2026-02-05, "fix: padding bugs in 12Hz
 * tokenizer decode"; before it trimmed both sides). So the decoder is strictly causal, yields exactly
 * T·1920 samples, and the studio's audio is aligned with the official waveform (no 555-sample delay).
 */
import { CODEBOOK_EPSILON, CONVNEXT_LAYER_NORM_EPS, RESIDUAL_DILATIONS, type CodecConfig, type CodecDecoderConfig } from './codec-config';
import { checkCodecCodes, type CodecCodes } from '../../model-format/codec/codec-codes';
import type { CodecTensors } from './codec-tensor-shapes';
import { checkCodecTensorShapes } from './codec-tensor-shapes';
import {
  addSignals, causalConv1d, causalConvTranspose1d, gelu, layerNormRows, linearRows, rmsNormRows, ropeRows, silu, snakeBeta, transposeRows, type Signal,
} from './reference-codec-ops';

export function referenceCodecDecode(codes: CodecCodes, tensors: CodecTensors, config: CodecConfig): Float32Array {
  const d = config.decoder;
  checkCodecTensorShapes(tensors, config);
  checkCodecCodes(codes, d.numQuantizers, d.codebookSize);
  const numSamples = codes.numFrames * config.samplesPerFrame;
  const pcm = new Float32Array(codes.batchSize * numSamples);
  for (let b = 0; b < codes.batchSize; b++) {
    pcm.set(decodeRow(codes, b, tensors, d), b * numSamples);
  }
  return pcm;
}

function decodeRow(codes: CodecCodes, b: number, tensors: CodecTensors, d: CodecDecoderConfig): Float32Array {
  const w = (name: string): Float32Array => tensors.get(`decoder.${name}`)!.data;
  const T = codes.numFrames;
  let x = dequantize(codes, b, w, d); // [codebookDim, T]
  x = causalConv1d(x, w('pre_conv.conv.weight'), w('pre_conv.conv.bias'), d.latentDim, 3); // [latentDim, T]
  const rows = preTransformer(transposeRows(x.data, d.latentDim, T), T, w, d); // [T, latentDim]
  x = { data: transposeRows(rows, T, d.latentDim), numChannels: d.latentDim, numSteps: T };
  d.upsamplingRatios.forEach((ratio, i) => {
    x = causalConvTranspose1d(x, w(`upsample.${i}.0.conv.weight`), w(`upsample.${i}.0.conv.bias`), d.latentDim, ratio, ratio);
    x = convNeXt(x, `upsample.${i}.1`, w);
  });
  x = causalConv1d(x, w('decoder.0.conv.weight'), w('decoder.0.conv.bias'), d.decoderDim, 7);
  d.upsampleRates.forEach((rate, i) => {
    const p = `decoder.${i + 1}.block`;
    const outDim = d.decoderDim / 2 ** (i + 1);
    x = snakeBeta(x, w(`${p}.0.alpha`), w(`${p}.0.beta`));
    x = causalConvTranspose1d(x, w(`${p}.1.conv.weight`), w(`${p}.1.conv.bias`), outDim, 2 * rate, rate);
    RESIDUAL_DILATIONS.forEach((dilation, u) => {
      const r = `${p}.${u + 2}`;
      let h = snakeBeta(x, w(`${r}.act1.alpha`), w(`${r}.act1.beta`));
      h = causalConv1d(h, w(`${r}.conv1.conv.weight`), w(`${r}.conv1.conv.bias`), outDim, 7, dilation);
      h = snakeBeta(h, w(`${r}.act2.alpha`), w(`${r}.act2.beta`));
      h = causalConv1d(h, w(`${r}.conv2.conv.weight`), w(`${r}.conv2.conv.bias`), outDim, 1);
      x = addSignals(x, h);
    });
  });
  const n = d.upsampleRates.length;
  x = snakeBeta(x, w(`decoder.${n + 1}.alpha`), w(`decoder.${n + 1}.beta`));
  x = causalConv1d(x, w(`decoder.${n + 2}.conv.weight`), w(`decoder.${n + 2}.conv.bias`), 1, 7);
  return x.data.map((v) => Math.min(1, Math.max(-1, v)));
}

/** Split RVQ: Σ over each group's codebooks (vqDim wide), a 1×1 projection per group, groups added. */
function dequantize(codes: CodecCodes, b: number, w: (name: string) => Float32Array, d: CodecDecoderConfig): Signal {
  const T = codes.numFrames;
  const vqDim = d.codebookDim / 2;
  const out = new Float32Array(d.codebookDim * T);
  const groups: [string, number, number][] = [
    ['rvq_first', 0, d.numSemanticQuantizers],
    ['rvq_rest', d.numSemanticQuantizers, d.numQuantizers],
  ];
  for (const [group, first, end] of groups) {
    const sum = new Float64Array(vqDim * T); // [vqDim, T]
    for (let q = first; q < end; q++) {
      const layer = `quantizer.${group}.vq.layers.${q - first}._codebook`;
      const usage = w(`${layer}.cluster_usage`);
      const embeddingSum = w(`${layer}.embedding_sum`);
      for (let t = 0; t < T; t++) {
        const code = Number(codes.data[(b * codes.numQuantizers + q) * T + t]);
        const count = Math.max(usage[code], CODEBOOK_EPSILON);
        for (let c = 0; c < vqDim; c++) sum[c * T + t] += embeddingSum[code * vqDim + c] / count;
      }
    }
    const proj = w(`quantizer.${group}.output_proj.weight`); // [codebookDim, vqDim, 1]
    for (let o = 0; o < d.codebookDim; o++) {
      for (let t = 0; t < T; t++) {
        let acc = 0;
        for (let c = 0; c < vqDim; c++) acc += proj[o * vqDim + c] * sum[c * T + t];
        out[o * T + t] += acc;
      }
    }
  }
  return { data: out, numChannels: d.codebookDim, numSteps: T };
}

/** input_proj → layers (RMSNorm, sliding-window RoPE attention, LayerScale, SwiGLU) → norm → output_proj; rows [T, C]. */
function preTransformer(input: Float32Array, T: number, w: (name: string) => Float32Array, d: CodecDecoderConfig): Float32Array {
  const H = d.hiddenSize;
  let x = linearRows(input, T, d.latentDim, w('pre_transformer.input_proj.weight'), H, w('pre_transformer.input_proj.bias'));
  for (let layer = 0; layer < d.numHiddenLayers; layer++) {
    const p = `pre_transformer.layers.${layer}`;
    const attnIn = rmsNormRows(x, T, H, w(`${p}.input_layernorm.weight`), d.rmsNormEps);
    const attn = attention(attnIn, T, p, w, d);
    x = addScaled(x, attn, w(`${p}.self_attn_layer_scale.scale`), T, H);
    const mlpIn = rmsNormRows(x, T, H, w(`${p}.post_attention_layernorm.weight`), d.rmsNormEps);
    const gate = linearRows(mlpIn, T, H, w(`${p}.mlp.gate_proj.weight`), d.intermediateSize);
    const up = linearRows(mlpIn, T, H, w(`${p}.mlp.up_proj.weight`), d.intermediateSize);
    const act = gate.map((g, i) => silu(g) * up[i]);
    const mlp = linearRows(act, T, d.intermediateSize, w(`${p}.mlp.down_proj.weight`), H);
    x = addScaled(x, mlp, w(`${p}.mlp_layer_scale.scale`), T, H);
  }
  x = rmsNormRows(x, T, H, w('pre_transformer.norm.weight'), d.rmsNormEps);
  return linearRows(x, T, H, w('pre_transformer.output_proj.weight'), d.latentDim, w('pre_transformer.output_proj.bias'));
}

function addScaled(residual: Float32Array, branch: Float32Array, scale: Float32Array, T: number, dim: number): Float32Array {
  const y = new Float32Array(residual.length);
  for (let t = 0; t < T; t++) for (let i = 0; i < dim; i++) y[t * dim + i] = residual[t * dim + i] + scale[i] * branch[t * dim + i];
  return y;
}

/**
 * Multi-head attention over positions 0..T−1 of this call: rotate-half RoPE (theta = ropeTheta) on q and k,
 * scores scaled by headDim^−½, query i sees keys j with j ≤ i and i − j < slidingWindow; kv head of
 * query head h is floor(h / (heads / kvHeads)).
 */
function attention(x: Float32Array, T: number, p: string, w: (name: string) => Float32Array, d: CodecDecoderConfig): Float32Array {
  const D = d.headDim;
  const q = linearRows(x, T, d.hiddenSize, w(`${p}.self_attn.q_proj.weight`), d.numAttentionHeads * D);
  const k = linearRows(x, T, d.hiddenSize, w(`${p}.self_attn.k_proj.weight`), d.numKeyValueHeads * D);
  const v = linearRows(x, T, d.hiddenSize, w(`${p}.self_attn.v_proj.weight`), d.numKeyValueHeads * D);
  // angle = t · theta^(−2i/D) for both halves
  const angleOf = (t: number, i: number) => t * d.ropeTheta ** ((-2 * i) / D);
  ropeRows(q, T, d.numAttentionHeads, D, angleOf);
  ropeRows(k, T, d.numKeyValueHeads, D, angleOf);
  const context = new Float32Array(T * d.numAttentionHeads * D);
  const groupSize = d.numAttentionHeads / d.numKeyValueHeads;
  const scale = 1 / Math.sqrt(D);
  for (let h = 0; h < d.numAttentionHeads; h++) {
    const kvh = Math.floor(h / groupSize);
    for (let i = 0; i < T; i++) {
      const firstKey = Math.max(0, i - d.slidingWindow + 1);
      const scores: number[] = [];
      for (let j = firstKey; j <= i; j++) {
        let dot = 0;
        for (let c = 0; c < D; c++) dot += q[(i * d.numAttentionHeads + h) * D + c] * k[(j * d.numKeyValueHeads + kvh) * D + c];
        scores.push(dot * scale);
      }
      const maxScore = Math.max(...scores);
      const weights = scores.map((s) => Math.exp(s - maxScore));
      const total = weights.reduce((a, b) => a + b, 0);
      for (let c = 0; c < D; c++) {
        let acc = 0;
        for (let j = firstKey; j <= i; j++) acc += (weights[j - firstKey] / total) * v[(j * d.numKeyValueHeads + kvh) * D + c];
        context[(i * d.numAttentionHeads + h) * D + c] = acc;
      }
    }
  }
  return linearRows(context, T, d.numAttentionHeads * D, w(`${p}.self_attn.o_proj.weight`), d.hiddenSize);
}

/** ConvNeXt block: causal depthwise conv k7 → LayerNorm → Linear C→4C → GELU → Linear 4C→C → ·gamma, plus the input. */
function convNeXt(x: Signal, p: string, w: (name: string) => Float32Array): Signal {
  const C = x.numChannels;
  const T = x.numSteps;
  const dw = causalConv1d(x, w(`${p}.dwconv.conv.weight`), w(`${p}.dwconv.conv.bias`), C, 7, 1, C);
  const normed = layerNormRows(transposeRows(dw.data, C, T), T, C, w(`${p}.norm.weight`), w(`${p}.norm.bias`), CONVNEXT_LAYER_NORM_EPS);
  const hidden = linearRows(normed, T, C, w(`${p}.pwconv1.weight`), 4 * C, w(`${p}.pwconv1.bias`)).map(gelu);
  const out = linearRows(hidden, T, 4 * C, w(`${p}.pwconv2.weight`), C, w(`${p}.pwconv2.bias`));
  const gamma = w(`${p}.gamma`);
  for (let t = 0; t < T; t++) for (let c = 0; c < C; c++) out[t * C + c] *= gamma[c];
  return addSignals(x, { data: transposeRows(out, T, C), numChannels: C, numSteps: T });
}
