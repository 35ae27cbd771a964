/**
 * The speech tokenizer's encoder (Mimi: SEANet conv encoder, causal transformer, 25 → 12.5 Hz
 * downsample, split residual VQ), read from speech_tokenizer/config.json `encoder_config` and the
 * tensor names and shapes transformers' MimiModel registers under `encoder.` in its model.safetensors.
 * Pure; read by the builder, the reference, the synthetic writer and the tests. Voice cloning (ICL) only.
 */
import { StudioError } from '../../../src-shared/errors';

export interface SpeechEncoderConfig {
  numFilters: number;
  kernelSize: number;
  lastKernelSize: number;
  residualKernelSize: number;
  numResidualLayers: number;
  dilationGrowthRate: number;
  compress: number;
  /** SEANet ratios as the config lists them (decoder order); the encoder applies them reversed. */
  upsamplingRatios: number[];
  hiddenSize: number;
  numHiddenLayers: number;
  numAttentionHeads: number;
  numKeyValueHeads: number;
  headDim: number;
  intermediateSize: number;
  normEps: number;
  ropeTheta: number;
  /**
   * Keys per query in the causal attention, the query itself included, or null for all earlier keys.
   * null as the official path runs: transformers 4.57 (pinned by qwen-tts) builds Mimi's encoder mask
   * with create_causal_mask, which ignores encoder_config.sliding_window (250) under sdpa and eager;
   * kyutai's Mimi used the window. Clips up to 10 s (250 steps at 25 Hz) encode the same either way.
   */
  attentionWindow: number | null;
  /** Quantizers stored (32); only the first numValidQuantizers are used. */
  numQuantizers: number;
  numSemanticQuantizers: number;
  codebookSize: number;
  codebookDim: number;
  /** Top level encoder_valid_num_quantizers (16): the code groups the talker speaks. */
  numValidQuantizers: number;
  /** encodec_frame_rate / frame_rate: the downsample conv's stride (2 → kernel 4). */
  downsampleStride: number;
  sampleRateHz: number;
  /** Samples per code frame: prod(upsamplingRatios) × downsampleStride (1920). */
  samplesPerFrame: number;
}

export const SPEECH_ENCODER_PREFIX = 'encoder';
/** MimiEuclideanCodebook: embed = embed_sum / max(cluster_usage, epsilon). */
export const SPEECH_CODEBOOK_EPSILON = 1e-5;

type Json = Record<string, unknown>;

/** Parses the encoder part of speech_tokenizer/config.json; absent keys take MimiConfig's defaults. */
export function parseSpeechEncoderConfig(tokenizerJson: Json, source = 'speech_tokenizer/config.json'): SpeechEncoderConfig {
  const enc = tokenizerJson.encoder_config;
  if (typeof enc !== 'object' || enc === null) {
    throw new StudioError('model-invalid', `${source} has no encoder_config; voice cloning in context needs the speech tokenizer's encoder (a Qwen3-TTS Base checkpoint ships it)`, { key: 'encoder_config' });
  }
  const json = enc as Json;
  const fail = (key: string, value: unknown, expected: string): never => {
    throw new StudioError('model-invalid', `${source}: encoder_config.${key} is ${JSON.stringify(value)}, expected ${expected}; the speech tokenizer config is damaged`, { key: `encoder_config.${key}` });
  };
  const num = (key: string, fallback: number, integer = true): number => {
    const v = json[key] ?? fallback;
    if (typeof v !== 'number' || !(v > 0) || (integer && !Number.isInteger(v))) fail(key, v, integer ? 'a positive integer' : 'a positive number');
    return v as number;
  };
  const ratios = json.upsampling_ratios ?? [8, 6, 5, 4];
  if (!Array.isArray(ratios) || ratios.length === 0 || ratios.some((r) => typeof r !== 'number' || !Number.isInteger(r) || r <= 0)) fail('upsampling_ratios', ratios, 'a list of positive integers');
  const hiddenSize = num('hidden_size', 512);
  const numAttentionHeads = num('num_attention_heads', 8);
  const frameRate = num('frame_rate', num('_frame_rate', 12.5, false), false);
  const sampleRateHz = num('sampling_rate', 24000);
  const upsamplingRatios = ratios as number[];
  const hop = upsamplingRatios.reduce((a, b) => a * b, 1);
  const downsampleStride = Math.round(sampleRateHz / hop / frameRate);
  if (Math.abs(sampleRateHz / hop / downsampleStride - frameRate) > 1e-9) fail('frame_rate', frameRate, `${sampleRateHz} Hz / ${hop} divided by a whole stride`);
  const config: SpeechEncoderConfig = {
    numFilters: num('num_filters', 64),
    kernelSize: num('kernel_size', 7),
    lastKernelSize: num('last_kernel_size', 3),
    residualKernelSize: num('residual_kernel_size', 3),
    numResidualLayers: num('num_residual_layers', 1),
    dilationGrowthRate: num('dilation_growth_rate', 2),
    compress: num('compress', 2),
    upsamplingRatios,
    hiddenSize,
    numHiddenLayers: num('num_hidden_layers', 8),
    numAttentionHeads,
    numKeyValueHeads: num('num_key_value_heads', numAttentionHeads),
    headDim: num('head_dim', hiddenSize / numAttentionHeads),
    intermediateSize: num('intermediate_size', 2048),
    normEps: num('norm_eps', 1e-5, false),
    ropeTheta: num('rope_theta', 10000, false),
    attentionWindow: null,
    numQuantizers: num('num_quantizers', 32),
    numSemanticQuantizers: num('num_semantic_quantizers', 1),
    codebookSize: num('codebook_size', 2048),
    codebookDim: num('vector_quantization_hidden_dimension', num('codebook_dim', 256)),
    numValidQuantizers: 0,
    downsampleStride,
    sampleRateHz,
    samplesPerFrame: hop * downsampleStride,
  };
  const valid = tokenizerJson.encoder_valid_num_quantizers ?? 16;
  if (typeof valid !== 'number' || !Number.isInteger(valid) || valid <= config.numSemanticQuantizers || valid > config.numQuantizers) {
    throw new StudioError('model-invalid', `${source}: encoder_valid_num_quantizers is ${JSON.stringify(valid)}, expected an integer in (${config.numSemanticQuantizers}, ${config.numQuantizers}]`, { key: 'encoder_valid_num_quantizers' });
  }
  config.numValidQuantizers = valid;
  if (json.use_causal_conv === false) fail('use_causal_conv', false, 'true (the encoder graph is causal)');
  if (json.pad_mode !== undefined && json.pad_mode !== 'constant') fail('pad_mode', json.pad_mode, "'constant'");
  if (json.use_conv_shortcut === true) fail('use_conv_shortcut', true, 'false (identity shortcuts)');
  if (config.numAttentionHeads % config.numKeyValueHeads !== 0) fail('num_key_value_heads', config.numKeyValueHeads, `a divisor of num_attention_heads ${config.numAttentionHeads}`);
  return config;
}

export interface SpeechEncoderTensor {
  name: string;
  shape: number[];
}

/** Conv layer indices of the SEANet encoder, as MimiEncoder numbers its ModuleList (ELUs take indices too). */
export interface SeanetLayout {
  first: number;
  stages: { channels: number; ratio: number; residualLayers: { index: number; dilation: number }[]; downsample: number }[];
  last: number;
}

export function seanetLayout(c: SpeechEncoderConfig): SeanetLayout {
  let index = 1;
  const stages: SeanetLayout['stages'] = [];
  let channels = c.numFilters;
  for (const ratio of [...c.upsamplingRatios].reverse()) {
    const residualLayers = Array.from({ length: c.numResidualLayers }, (_, j) => ({ index: index + j, dilation: c.dilationGrowthRate ** j }));
    index += c.numResidualLayers + 1; // the residual blocks, then an ELU
    stages.push({ channels, ratio, residualLayers, downsample: index });
    index += 1;
    channels *= 2;
  }
  return { first: 0, stages, last: index + 1 }; // an ELU, then the last conv
}

/** Every encoder tensor of speech_tokenizer/model.safetensors, in registration order (all numQuantizers codebooks). */
export function expectedSpeechEncoderTensors(c: SpeechEncoderConfig): SpeechEncoderTensor[] {
  const out: SpeechEncoderTensor[] = [];
  const p = SPEECH_ENCODER_PREFIX;
  const conv = (name: string, outCh: number, inCh: number, kernel: number, bias = true) => {
    out.push({ name: `${p}.${name}.weight`, shape: [outCh, inCh, kernel] });
    if (bias) out.push({ name: `${p}.${name}.bias`, shape: [outCh] });
  };
  const layout = seanetLayout(c);
  conv(`encoder.layers.${layout.first}.conv`, c.numFilters, 1, c.kernelSize);
  for (const stage of layout.stages) {
    const hidden = stage.channels / c.compress;
    for (const r of stage.residualLayers) {
      conv(`encoder.layers.${r.index}.block.1.conv`, hidden, stage.channels, c.residualKernelSize);
      conv(`encoder.layers.${r.index}.block.3.conv`, stage.channels, hidden, 1);
    }
    conv(`encoder.layers.${stage.downsample}.conv`, stage.channels * 2, stage.channels, stage.ratio * 2);
  }
  const top = c.numFilters * 2 ** c.upsamplingRatios.length;
  conv(`encoder.layers.${layout.last}.conv`, c.hiddenSize, top, c.lastKernelSize);
  const h = c.hiddenSize;
  for (let i = 0; i < c.numHiddenLayers; i++) {
    const l = `${p}.encoder_transformer.layers.${i}`;
    out.push(
      { name: `${l}.input_layernorm.weight`, shape: [h] },
      { name: `${l}.input_layernorm.bias`, shape: [h] },
      { name: `${l}.self_attn.q_proj.weight`, shape: [c.numAttentionHeads * c.headDim, h] },
      { name: `${l}.self_attn.k_proj.weight`, shape: [c.numKeyValueHeads * c.headDim, h] },
      { name: `${l}.self_attn.v_proj.weight`, shape: [c.numKeyValueHeads * c.headDim, h] },
      { name: `${l}.self_attn.o_proj.weight`, shape: [h, c.numAttentionHeads * c.headDim] },
      { name: `${l}.self_attn_layer_scale.scale`, shape: [h] },
      { name: `${l}.post_attention_layernorm.weight`, shape: [h] },
      { name: `${l}.post_attention_layernorm.bias`, shape: [h] },
      { name: `${l}.mlp.fc1.weight`, shape: [c.intermediateSize, h] },
      { name: `${l}.mlp.fc2.weight`, shape: [h, c.intermediateSize] },
      { name: `${l}.mlp_layer_scale.scale`, shape: [h] },
    );
  }
  conv('downsample.conv', h, h, 2 * c.downsampleStride, false);
  const rvq = (name: string, numLayers: number) => {
    const q = `${p}.quantizer.${name}`;
    out.push({ name: `${q}.input_proj.weight`, shape: [c.codebookDim, h, 1] }, { name: `${q}.output_proj.weight`, shape: [h, c.codebookDim, 1] });
    for (let i = 0; i < numLayers; i++) {
      out.push(
        { name: `${q}.layers.${i}.codebook.initialized`, shape: [1] },
        { name: `${q}.layers.${i}.codebook.cluster_usage`, shape: [c.codebookSize] },
        { name: `${q}.layers.${i}.codebook.embed_sum`, shape: [c.codebookSize, c.codebookDim] },
      );
    }
  };
  rvq('semantic_residual_vector_quantizer', c.numSemanticQuantizers);
  rvq('acoustic_residual_vector_quantizer', c.numQuantizers - c.numSemanticQuantizers);
  return out;
}

/** The tensors the encode path reads: every one but the output projections and the codebooks past numValidQuantizers. */
export function usedSpeechEncoderTensors(c: SpeechEncoderConfig): SpeechEncoderTensor[] {
  const numAcoustic = c.numValidQuantizers - c.numSemanticQuantizers;
  return expectedSpeechEncoderTensors(c).filter((t) => {
    if (t.name.endsWith('output_proj.weight') || t.name.endsWith('codebook.initialized')) return false;
    const m = /acoustic_residual_vector_quantizer\.layers\.(\d+)\./.exec(t.name);
    return !m || Number(m[1]) < numAcoustic;
  });
}
