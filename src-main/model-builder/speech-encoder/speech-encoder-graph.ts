/**
 * Compiles the speech tokenizer's encoder to one ONNX graph: 24 kHz PCM [B, numSamples] → codes
 * [B, numValidQuantizers, numFrames] (int64, codebook 0 first) and the 12.5 Hz latent [B, numFrames,
 * hidden] the quantizers read; the ops of reference-speech-encoder.ts in plain opset-17 ONNX, fp32
 * (it runs once per cloned voice). Every layer is causal, so the rows of a ragged batch are zero-padded
 * at the end and each row's first ⌈len/1920⌉ frames equal its solo run when its own length is a whole
 * number of frames (the caller pads each clip to one: then no layer needs extra right padding).
 */
import { attr, GraphBuilder } from '../../model-format/onnx/graph-builder';
import { applyRope, MASK_NEGATIVE, ropeCosSin } from '../../model-format/onnx/composite-ops';
import { SPEECH_ENCODER_CODES, SPEECH_ENCODER_INPUT, SPEECH_ENCODER_LATENT } from '../../model-format/encoder-io';
import { SPEECH_CODEBOOK_EPSILON, SPEECH_ENCODER_PREFIX, seanetLayout, type SpeechEncoderConfig } from './speech-encoder-config';
import type { SpeechEncoderWeights } from './reference-speech-encoder';

export const SPEECH_ENCODER_FILE = 'speech_encoder.onnx';

function transposed(data: Float32Array, numRows: number, numCols: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let r = 0; r < numRows; r++) for (let c = 0; c < numCols; c++) out[c * numRows + r] = data[r * numCols + c];
  return out;
}

export function buildSpeechEncoderGraph(config: SpeechEncoderConfig, weights: SpeechEncoderWeights): Uint8Array {
  if (config.numKeyValueHeads !== config.numAttentionHeads) {
    throw new Error(`the speech encoder graph takes as many key/value heads as query heads (Mimi's layout), not ${config.numKeyValueHeads} of ${config.numAttentionHeads}`);
  }
  const g = new GraphBuilder({ name: 'speech_encoder' });
  const tensor = (name: string) => {
    const t = weights.get(`${SPEECH_ENCODER_PREFIX}.${name}`);
    if (!t) throw new Error(`speech encoder tensor '${SPEECH_ENCODER_PREFIX}.${name}' is missing`);
    return t;
  };
  const init = (name: string) => {
    const t = tensor(name);
    return g.initializer(name, t.data, t.shape);
  };
  /** W stored [out, in] (a Linear, or a 1×1 Conv [out, in, 1]) as an [in, out] initializer for MatMul. */
  const linearT = (name: string) => {
    const t = tensor(name);
    return g.initializer(`${name}.T`, transposed(t.data, t.shape[0], t.shape[1]), [t.shape[1], t.shape[0]]);
  };
  // causal MimiConv1d on [B, C, T]: kEff − stride zeros (or copies of the first step) on the left only
  const conv = (x: string, name: string, kernel: number, stride = 1, dilation = 1, bias = true, mode: 'constant' | 'edge' = 'constant'): string => {
    const left = (kernel - 1) * dilation + 1 - stride;
    const padded = left > 0 ? g.op('Pad', [x, g.constInt64([0, 0, left, 0, 0, 0])], { mode }) : x;
    const inputs = [padded, init(`${name}.weight`), ...(bias ? [init(`${name}.bias`)] : [])];
    return g.op('Conv', inputs, { dilations: [dilation], kernel_shape: [kernel], strides: [stride] });
  };
  const elu = (x: string) => g.op('Elu', [x], { alpha: attr.float(1) });
  const gelu = (x: string) => g.mul(g.mul(x, g.constFloat(0.5)), g.add(g.op('Erf', [g.div(x, g.constFloat(Math.SQRT2))]), g.constFloat(1)));
  const layerNorm = (x: string, name: string) => g.op('LayerNormalization', [x, init(`${name}.weight`), init(`${name}.bias`)], { axis: -1, epsilon: attr.float(config.normEps) });

  const pcm = g.input(SPEECH_ENCODER_INPUT, 'float32', ['batch', 'num_samples']);
  // SEANet: [B, 1, L] → [B, hidden, L / hop]
  const layout = seanetLayout(config);
  let x = conv(g.unsqueeze(pcm, [1]), `encoder.layers.${layout.first}.conv`, config.kernelSize);
  for (const stage of layout.stages) {
    for (const r of stage.residualLayers) {
      const h = conv(elu(x), `encoder.layers.${r.index}.block.1.conv`, config.residualKernelSize, 1, r.dilation);
      x = g.add(x, conv(elu(h), `encoder.layers.${r.index}.block.3.conv`, 1));
    }
    x = conv(elu(x), `encoder.layers.${stage.downsample}.conv`, stage.ratio * 2, stage.ratio);
  }
  x = conv(elu(x), `encoder.layers.${layout.last}.conv`, config.lastKernelSize);

  // transformer over [B, T, hidden]
  const heads = config.numAttentionHeads;
  const d = config.headDim;
  let hs = g.transpose(x, [0, 2, 1]);
  const numRows = g.dim(hs, 1); // [1]
  const rows = g.op('Range', [g.constInt64([0], []), g.squeeze(numRows, [0]), g.constInt64([1], [])]); // [T]
  const { cos, sin } = ropeCosSin(g, g.unsqueeze(rows, [0]), d, config.ropeTheta, 'float32'); // [1, 1, T, D]
  const lag = g.sub(g.unsqueeze(rows, [1]), g.unsqueeze(rows, [0])); // [T, T]: query − key
  const causal = g.op('GreaterOrEqual', [lag, g.constInt64([0], [])]);
  const visible = config.attentionWindow === null ? causal : g.op('And', [causal, g.op('Less', [lag, g.constInt64([config.attentionWindow], [])])]);
  const mask = g.op('Where', [visible, g.constFloat(0), g.constFloat(MASK_NEGATIVE)]); // [T, T], broadcast over [B, H]
  const splitHeads = (v: string) => g.transpose(g.reshape(v, [0, 0, heads, d]), [0, 2, 1, 3]); // [B, H, T, D]
  for (let i = 0; i < config.numHiddenLayers; i++) {
    const l = `encoder_transformer.layers.${i}`;
    const normed = layerNorm(hs, `${l}.input_layernorm`);
    const q = applyRope(g, splitHeads(g.matmul(normed, linearT(`${l}.self_attn.q_proj.weight`))), cos, sin, d);
    const k = applyRope(g, splitHeads(g.matmul(normed, linearT(`${l}.self_attn.k_proj.weight`))), cos, sin, d);
    const v = splitHeads(g.matmul(normed, linearT(`${l}.self_attn.v_proj.weight`)));
    const scores = g.add(g.mul(g.matmul(q, g.transpose(k, [0, 1, 3, 2])), g.constFloat(1 / Math.sqrt(d))), mask);
    const attended = g.reshape(g.transpose(g.matmul(g.softmax(scores, -1), v), [0, 2, 1, 3]), [0, 0, heads * d]);
    hs = g.add(hs, g.mul(init(`${l}.self_attn_layer_scale.scale`), g.matmul(attended, linearT(`${l}.self_attn.o_proj.weight`))));
    const mlp = g.matmul(gelu(g.matmul(layerNorm(hs, `${l}.post_attention_layernorm`), linearT(`${l}.mlp.fc1.weight`))), linearT(`${l}.mlp.fc2.weight`));
    hs = g.add(hs, g.mul(init(`${l}.mlp_layer_scale.scale`), mlp));
  }
  // 25 → 12.5 Hz, replicate padding on the left
  const down = conv(g.transpose(hs, [0, 2, 1]), 'downsample.conv', 2 * config.downsampleStride, config.downsampleStride, 1, false, 'edge');
  const latent = g.transpose(down, [0, 2, 1]); // [B, F, hidden]
  g.output(latent, 'float32', ['batch', 'num_frames', config.hiddenSize], SPEECH_ENCODER_LATENT);

  // split RVQ on [B·F, dim] rows: nearest codeword = argmin ‖e‖² − 2 x·e (‖x‖² is the same for every code),
  // one Gemm against the stored [C, dim] table (transB) with the norms as its bias
  const codes: string[] = [];
  const framesShape = g.op('Shape', [latent], { start: 0, end: 2 }); // [B, F]
  const rvq = (name: string, numLayers: number) => {
    const q = `quantizer.${name}`;
    const dim = config.codebookDim;
    const proj = tensor(`${q}.input_proj.weight`);
    const projT = g.initializer(`${q}.input_proj.weight.T`, transposed(proj.data, dim, config.hiddenSize), [config.hiddenSize, dim]);
    let residual = g.reshape(g.matmul(latent, projT), [-1, dim]); // [B·F, dim]
    for (let i = 0; i < numLayers; i++) {
      const sum = tensor(`${q}.layers.${i}.codebook.embed_sum`).data;
      const usage = tensor(`${q}.layers.${i}.codebook.cluster_usage`).data;
      const embed = new Float32Array(sum.length);
      const norms = new Float32Array(config.codebookSize);
      for (let c = 0; c < config.codebookSize; c++) {
        const u = Math.max(usage[c], SPEECH_CODEBOOK_EPSILON);
        let norm = 0;
        for (let j = 0; j < dim; j++) {
          embed[c * dim + j] = sum[c * dim + j] / u;
          norm += embed[c * dim + j] ** 2;
        }
        norms[c] = norm;
      }
      const table = g.initializer(`${q}.layers.${i}.embed`, embed, [config.codebookSize, dim]);
      const normsName = g.initializer(`${q}.layers.${i}.embed_norm`, norms, [config.codebookSize]);
      const distance = g.op('Gemm', [residual, table, normsName], { alpha: attr.float(-2), beta: attr.float(1), transB: 1 }); // [B·F, C]
      const index = g.op('ArgMin', [distance], { axis: -1, keepdims: 0 }); // [B·F], the first on a tie
      codes.push(g.unsqueeze(g.reshapeTo(index, framesShape), [1])); // [B, 1, F]
      residual = g.sub(residual, g.gather(table, index));
    }
  };
  rvq('semantic_residual_vector_quantizer', config.numSemanticQuantizers);
  rvq('acoustic_residual_vector_quantizer', config.numValidQuantizers - config.numSemanticQuantizers);
  g.output(g.concat(codes, 1), 'int64', ['batch', config.numValidQuantizers, 'num_frames'], SPEECH_ENCODER_CODES);
  return g.toBytes();
}
