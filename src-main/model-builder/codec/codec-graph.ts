/**
 * Builds the codec decoder ("code2wav") ONNX graph from speech-tokenizer tensors and config:
 * input `codes` int64 [batch, numQuantizers, num_frames] → output `pcm` float32
 * [batch, num_frames · samplesPerFrame], dynamic batch and length. Same maths as reference-codec.ts
 * (including its strictly causal transposed convs). Build time only; blocks in codec-graph-blocks.ts, the
 * I/O names and the host's static mask writers in model-format/codec/codec-stream-io.ts.
 *
 * Window mode (spec §4.3–4.4): no state; every output sample depends only on frames at or before its
 * own. Feed [leftContext frames, new frames] and drop the first leftContext · samplesPerFrame samples;
 * exact once the left context covers the receptive field (codecReceptiveFieldFrames; chunked-decode.ts
 * keeps the books). Stream mode: feed new frames only plus the previous call's carried state (see
 * CodecGraphMode); the calls together equal one full decode. RoPE positions restart at 0 each call,
 * which is exact because attention only sees relative positions.
 */
import { StudioError } from '../../../src-shared/errors';
import { groupedQueryAttention, linear, rmsNorm, ropeFor, ropeHeads, swiglu } from '../../model-format/onnx/composite-ops';
import { GraphBuilder, type ExternalDataOptions, type GraphOps } from '../../model-format/onnx/graph-builder';
import {
  CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_KEY_POSITIONS, CODEC_STATIC_QUERY_POSITIONS, CODEC_STREAM_NUM_CACHED,
} from '../../model-format/codec/codec-stream-io';
import { CODEBOOK_EPSILON, CONVNEXT_LAYER_NORM_EPS, RESIDUAL_DILATIONS, type CodecConfig, type CodecDecoderConfig } from './codec-config';
import { checkCodecTensorShapes, type CodecTensors } from './codec-tensor-shapes';
import {
  CodecGraphWeights, CodecStreamCarry, causalConv, causalConvTranspose, convNeXt, slidingWindowMask, streamWindowMask, snakeBeta,
  type CodecGraphDtype, type CodecStreamJoinSpec, type CodecStreamStateSpec,
} from './codec-graph-blocks';
import type { CodecUpsampleForm } from '../../model-format/manifest';

/**
 * 'window': stateless, fed [left context, new frames] (chunked-decode.ts). 'stream': fed the new
 * frames only, with every causal layer's look-back (conv inputs, the attention's last
 * slidingWindow − 1 keys and values before RoPE) carried between calls as state inputs/outputs, so
 * a sequence decoded call by call equals one full decode and no frame is decoded twice.
 * 'stream-static': the stream graph with the attention mask and RoPE positions as host inputs, so no
 * node computes shapes, ranges or int64 values and every shape is fixed per (rows, frames) bucket
 * (graph capture); same nodes otherwise, so the same bytes.
 */
export type CodecGraphMode = 'window' | 'stream' | 'stream-static';

export interface CodecGraphOptions {
  ops?: GraphOps;
  mode?: CodecGraphMode;
  /** How the transposed convolutions are written (codec-graph-blocks.ts); 'conv-transpose' by default. */
  upsample?: CodecUpsampleForm;
}

/** The .onnx bytes with all weights inline (fine below 2 GB; the full decoder is ≈ 457 MB fp32). */
export function buildCodecDecoderGraph(tensors: CodecTensors, config: CodecConfig, dtype: CodecGraphDtype, options: CodecGraphOptions = {}): Uint8Array {
  return createCodecGraphBuilder(tensors, config, dtype, options).g.toBytes();
}

/** Writes `onnxPath` plus its weights as external data next to it (ORT then loads from the path); returns the carried states. */
export function writeCodecDecoderGraph(onnxPath: string, tensors: CodecTensors, config: CodecConfig, dtype: CodecGraphDtype, externalData: ExternalDataOptions, options: CodecGraphOptions = {}): { numModelBytes: number; numExternalBytes: number; states: CodecStreamStateSpec[]; joins: CodecStreamJoinSpec[] } {
  const { g, states, joins } = createCodecGraphBuilder(tensors, config, dtype, options, externalData);
  return { ...g.save(onnxPath), states, joins };
}

/** The streaming graph's (or its static form's) .onnx bytes (weights inline) and its carried states (names and dims). */
export function buildCodecStreamGraph(tensors: CodecTensors, config: CodecConfig, dtype: CodecGraphDtype, ops: GraphOps = 'portable', mode: 'stream' | 'stream-static' = 'stream', upsample: CodecUpsampleForm = 'conv-transpose'): { bytes: Uint8Array; states: CodecStreamStateSpec[]; joins: CodecStreamJoinSpec[] } {
  const { g, states, joins } = createCodecGraphBuilder(tensors, config, dtype, { ops, mode, upsample });
  return { bytes: g.toBytes(), states, joins };
}

function createCodecGraphBuilder(tensors: CodecTensors, config: CodecConfig, dtype: CodecGraphDtype, options: CodecGraphOptions, externalData?: ExternalDataOptions): { g: GraphBuilder; states: CodecStreamStateSpec[]; joins: CodecStreamJoinSpec[] } {
  const ops = options.ops ?? 'portable';
  if (dtype !== 'fp32' && dtype !== 'fp16') {
    throw new StudioError('invalid-argument', `codec graph dtype must be 'fp32' or 'fp16' but is '${String(dtype)}'; pass one of them`, { dtype: String(dtype) });
  }
  checkCodecTensorShapes(tensors, config);
  const d = config.decoder;
  const stream = options.mode === 'stream' || options.mode === 'stream-static';
  const isStatic = options.mode === 'stream-static';
  const g = new GraphBuilder({ name: `qwen3_tts_codec_decoder_${stream ? 'stream_' : ''}${isStatic ? 'static_' : ''}${options.upsample === 'matmul' ? 'matmul_' : ''}${dtype}`, externalData, ops, outputsByKernels: isStatic });
  const w = new CodecGraphWeights(g, tensors, dtype);
  // int32 in the static form: WebGPU places int64 Slice/Add on the CPU, which graph capture refuses
  const codes = g.input(CODEC_GRAPH_INPUT, isStatic ? 'int32' : 'int64', ['batch', d.numQuantizers, 'num_frames']);
  const keyFrames = `num_frames+${d.slidingWindow - 1}`;
  const hostInputs = isStatic
    ? {
        mask: g.input(CODEC_STATIC_ATTENTION_BIAS, 'float32', ['batch', 1, 1, 'num_frames', keyFrames]),
        // fused RotaryEmbedding takes a constant start position; the portable cos/sin tables need every position
        ...(ops === 'portable'
          ? { queryPositions: g.input(CODEC_STATIC_QUERY_POSITIONS, 'int64', [1, 'num_frames']), keyPositions: g.input(CODEC_STATIC_KEY_POSITIONS, 'int64', [1, keyFrames]) }
          : {}),
      }
    : undefined;
  const streamIo = stream ? { carry: new CodecStreamCarry(g, isStatic ? 'gather' : 'concat'), numCached: hostInputs ? '' : g.input(CODEC_STREAM_NUM_CACHED, 'int64', ['batch']), hostInputs } : undefined;
  const carry = streamIo?.carry;
  const numFrames = isStatic ? '' : g.dim(codes, 2); // int64 [1]; unused by the static form

  let x = dequantize(g, w, codes, d, isStatic ? 'int32' : 'int64'); // [B, codebookDim, T]
  x = causalConv(g, w, x, 'pre_conv.conv', 1, 1, carry); // [B, latentDim, T]
  const rows = g.transpose(x, [0, 2, 1]);
  x = g.transpose(preTransformer(g, w, rows, numFrames, d, streamIo), [0, 2, 1]); // [B, latentDim, T]
  d.upsamplingRatios.forEach((ratio, i) => {
    x = causalConvTranspose(g, w, x, `upsample.${i}.0.conv`, ratio, carry, options.upsample);
    if (carry) carry.framesScale *= ratio;
    x = convNeXt(g, w, x, `upsample.${i}.1`, CONVNEXT_LAYER_NORM_EPS, carry);
  });
  x = causalConv(g, w, x, 'decoder.0.conv', 1, 1, carry); // [B, decoderDim, 4T]
  d.upsampleRates.forEach((rate, i) => {
    const p = `decoder.${i + 1}.block`;
    x = snakeBeta(g, w, x, `${p}.0`);
    x = causalConvTranspose(g, w, x, `${p}.1.conv`, rate, carry, options.upsample);
    if (carry) carry.framesScale *= rate;
    RESIDUAL_DILATIONS.forEach((dilation, u) => {
      const r = `${p}.${u + 2}`;
      let h = snakeBeta(g, w, x, `${r}.act1`);
      h = causalConv(g, w, h, `${r}.conv1.conv`, dilation, 1, carry);
      h = snakeBeta(g, w, h, `${r}.act2`);
      h = causalConv(g, w, h, `${r}.conv2.conv`, 1, 1, carry);
      x = g.add(x, h);
    });
  });
  const n = d.upsampleRates.length;
  x = snakeBeta(g, w, x, `decoder.${n + 1}`);
  x = causalConv(g, w, x, `decoder.${n + 2}.conv`, 1, 1, carry); // [B, 1, T · samplesPerFrame]
  const clipped = g.op('Clip', [x, g.constFloat(-1), g.constFloat(1)]);
  g.output(g.squeeze(clipped, [1]), 'float32', ['batch', 'num_samples'], CODEC_GRAPH_OUTPUT);
  carry?.declareJoinInputs();
  return { g, states: carry?.states ?? [], joins: carry?.joins ?? [] };
}

/**
 * Split RVQ as two gathers: each group's codebooks (embedding_sum / max(cluster_usage, ε)) are
 * stacked into one table [numInGroup · codebookSize, vqDim] and indexed with code + q · codebookSize.
 * The group's sum through its 1×1 output projection P is one MatMul: the gathered rows side by side
 * [B, T, numInGroup · vqDim] times P stacked numInGroup times (Σ_q e_q P = [e_1 … e_n] [P; …; P]).
 * The two groups are added.
 */
function dequantize(g: GraphBuilder, w: CodecGraphWeights, codes: string, d: CodecDecoderConfig, codesType: 'int32' | 'int64'): string {
  const vqDim = d.codebookDim / 2;
  const groups: [string, number, number][] = [
    ['rvq_first', 0, d.numSemanticQuantizers],
    ['rvq_rest', d.numSemanticQuantizers, d.numQuantizers],
  ];
  const parts = groups.map(([group, first, end]) => {
    const numInGroup = end - first;
    const table = new Float32Array(numInGroup * d.codebookSize * vqDim);
    for (let q = 0; q < numInGroup; q++) {
      const layer = `quantizer.${group}.vq.layers.${q}._codebook`;
      const usage = w.get(`${layer}.cluster_usage`).data;
      const embeddingSum = w.get(`${layer}.embedding_sum`).data;
      for (let code = 0; code < d.codebookSize; code++) {
        const count = Math.max(usage[code], CODEBOOK_EPSILON);
        for (let c = 0; c < vqDim; c++) table[(q * d.codebookSize + code) * vqDim + c] = embeddingSum[code * vqDim + c] / count;
      }
    }
    const tableName = w.matrix(`quantizer.${group}.codebooks`, table, [numInGroup * d.codebookSize, vqDim]);
    const offsetValues = Array.from({ length: numInGroup }, (_, q) => q * d.codebookSize);
    // int32 (static form): Gather picks the group's rows, since ORT fuses the two Slices into a Split that WebGPU runs on the CPU
    const groupCodes = codesType === 'int32'
      ? g.gather(codes, g.constInt32(Array.from({ length: numInGroup }, (_, q) => first + q)), 1)
      : g.slice(codes, 1, first, end);
    const offsets = codesType === 'int32' ? g.constInt32(offsetValues, [1, numInGroup, 1]) : g.constInt64(offsetValues, [1, numInGroup, 1]);
    const indices = g.add(groupCodes, offsets); // [B, numInGroup, T]
    // not ReduceSum over the group: ORT's CPU ReduceSum picks its summation order from the shape, so
    // [1, Q, T, D] and [B, Q, T, D] summed differently and broke batch invariance; MatMul rows do not
    const gathered = g.gather(tableName, indices); // [B, numInGroup, T, vqDim]
    const sideBySide = g.reshape(g.transpose(gathered, [0, 2, 1, 3]), [0, 0, numInGroup * vqDim]); // [B, T, numInGroup · vqDim]
    const proj = w.get(`quantizer.${group}.output_proj.weight`); // [codebookDim, vqDim, 1] → numInGroup × [vqDim, codebookDim]
    const projT = new Float32Array(numInGroup * proj.data.length);
    for (let o = 0; o < d.codebookDim; o++) for (let c = 0; c < vqDim; c++) projT[c * d.codebookDim + o] = proj.data[o * vqDim + c];
    for (let q = 1; q < numInGroup; q++) projT.copyWithin(q * proj.data.length, 0, proj.data.length);
    return g.matmul(sideBySide, w.matrix(`quantizer.${group}.output_proj.weight.T`, projT, [numInGroup * vqDim, d.codebookDim])); // [B, T, codebookDim]
  });
  return g.transpose(g.add(parts[0], parts[1]), [0, 2, 1]);
}

/** The streaming pre-transformer's carry and each row's number of cached frames, or (static form) the host-made mask and positions. */
interface PreTransformerStream {
  carry: CodecStreamCarry;
  numCached: string;
  hostInputs?: { mask: string; queryPositions?: string; keyPositions?: string };
}

/**
 * input_proj → layers (RMSNorm, sliding-window RoPE attention, LayerScale, SwiGLU) → norm → output_proj on [B, T, C].
 * Streaming: each layer's keys and values (before RoPE) are carried for the last slidingWindow − 1
 * frames; keys take positions 0 … W − 2 + T and the new queries W − 1 …, which gives the same scores
 * as absolute positions because RoPE attention only sees position differences.
 */
function preTransformer(g: GraphBuilder, w: CodecGraphWeights, x0: string, numFrames: string, d: CodecDecoderConfig, stream?: PreTransformerStream): string {
  const D = d.headDim;
  const numCarried = d.slidingWindow - 1;
  const host = stream?.hostInputs;
  const rope = (start: number, length: string) => ropeFor(g, { start: g.constInt64([start]), length }, D, d.ropeTheta, 'float32', d.maxPositionEmbeddings);
  const hostRope = (positions: string) => ropeFor(g, positions, D, d.ropeTheta, 'float32', d.maxPositionEmbeddings);
  // positions 0..T−1 of every row: cos/sin tables (portable) or RotaryEmbedding from start 0 (fused)
  // (the static form's fused rope reads its start only, so it needs no length)
  const queryRope = host?.queryPositions ? hostRope(host.queryPositions) : rope(stream ? numCarried : 0, host ? '' : numFrames);
  const keyRope = host?.keyPositions ? hostRope(host.keyPositions) : stream ? rope(0, host ? '' : g.add(numFrames, g.constInt64([numCarried]))) : queryRope;
  const mask = host ? host.mask : stream ? streamWindowMask(g, numFrames, stream.numCached, d.slidingWindow) : slidingWindowMask(g, numFrames, d.slidingWindow);
  const heads = (value: string, numHeads: number): string => g.transpose(g.reshape(value, [0, 0, numHeads, D]), [0, 2, 1, 3]); // [B, heads, T, D]
  const withPast = (value: string, width: number): string => (stream ? stream.carry.prepend(value, 1, [numCarried, width]) : value);
  let x = linear(g, x0, w.linearT('pre_transformer.input_proj.weight'), w.vector('pre_transformer.input_proj.bias'));
  for (let layer = 0; layer < d.numHiddenLayers; layer++) {
    const p = `pre_transformer.layers.${layer}`;
    const h = rmsNorm(g, x, w.vector(`${p}.input_layernorm.weight`), d.rmsNormEps, 'float32');
    const project = (name: string) => g.matmul(h, w.linearT(`${p}.self_attn.${name}.weight`));
    const rotated = (value: string, numHeads: number, r: ReturnType<typeof rope>): string => ropeHeads(g, g.reshape(value, [0, 0, numHeads, D]), r, numHeads, D);
    const q = rotated(project('q_proj'), d.numAttentionHeads, queryRope); // [B, heads, T, D]
    const k = rotated(withPast(project('k_proj'), d.numKeyValueHeads * D), d.numKeyValueHeads, keyRope); // [B, kv heads, (W − 1 +) T, D]
    const v = heads(withPast(project('v_proj'), d.numKeyValueHeads * D), d.numKeyValueHeads);
    const context = groupedQueryAttention(g, { q, k, v, mask, numHeads: d.numAttentionHeads, numKvHeads: d.numKeyValueHeads, headDim: D, dtype: 'float32' });
    const attn = g.matmul(context, w.linearT(`${p}.self_attn.o_proj.weight`));
    x = g.add(x, g.mul(attn, w.vector(`${p}.self_attn_layer_scale.scale`)));
    const m = rmsNorm(g, x, w.vector(`${p}.post_attention_layernorm.weight`), d.rmsNormEps, 'float32');
    const mlp = swiglu(g, m, w.linearT(`${p}.mlp.gate_proj.weight`), w.linearT(`${p}.mlp.up_proj.weight`), w.linearT(`${p}.mlp.down_proj.weight`));
    x = g.add(x, g.mul(mlp, w.vector(`${p}.mlp_layer_scale.scale`)));
  }
  x = rmsNorm(g, x, w.vector('pre_transformer.norm.weight'), d.rmsNormEps, 'float32');
  return linear(g, x, w.linearT('pre_transformer.output_proj.weight'), w.vector('pre_transformer.output_proj.bias'));
}
