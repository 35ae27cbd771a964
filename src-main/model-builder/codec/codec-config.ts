/**
 * Typed view of the speech tokenizer's `speech_tokenizer/config.json` (model_type
 * `qwen3_tts_tokenizer_12hz`), decoder part only: parsed from the file, validated, frozen.
 * Every codec dimension used by the reference, the ONNX graph and the chunker comes from here,
 * never from constants in code. Build time and load time only; no tensors.
 */
import fs from 'node:fs';
import { StudioError } from '../../../src-shared/errors';

/** `decoder_config` in camelCase. Field meanings: spec §4.1. */
export interface CodecDecoderConfig {
  codebookSize: number;
  /** Width of the quantizer output; each VQ codebook is codebookDim / 2 wide. */
  codebookDim: number;
  latentDim: number;
  hiddenSize: number;
  intermediateSize: number;
  numHiddenLayers: number;
  numAttentionHeads: number;
  numKeyValueHeads: number;
  headDim: number;
  /** Keys per query in the causal sliding-window attention, the query itself included. */
  slidingWindow: number;
  ropeTheta: number;
  rmsNormEps: number;
  layerScaleInitialScale: number;
  maxPositionEmbeddings: number;
  numQuantizers: number;
  numSemanticQuantizers: number;
  /** Decoder block strides, e.g. [8, 5, 4, 3]. */
  upsampleRates: readonly number[];
  /** Transposed-conv + ConvNeXt strides before the decoder, e.g. [2, 2]. */
  upsamplingRatios: readonly number[];
  decoderDim: number;
}

export interface CodecConfig {
  outputSampleRateHz: number;
  /** PCM samples per code frame (1920 at 24 kHz / 12.5 Hz). */
  samplesPerFrame: number;
  decoder: CodecDecoderConfig;
}

/*
 * Architecture constants the official module fixes in code rather than in config.json
 * ([tok12-py] Qwen3TTSTokenizerV2Decoder and its blocks).
 */
/** EuclideanCodebook: embedding = embedding_sum / max(cluster_usage, CODEBOOK_EPSILON). */
export const CODEBOOK_EPSILON = 1e-5;
/** ConvNeXt LayerNorm epsilon. */
export const CONVNEXT_LAYER_NORM_EPS = 1e-6;
/** Dilations of the three residual units in every decoder block (kernel 7 each). */
export const RESIDUAL_DILATIONS = [1, 3, 9] as const;

type Json = Record<string, unknown>;

/** Reads and validates `speech_tokenizer/config.json`. */
export function readCodecConfig(configPath: string): CodecConfig {
  let text: string;
  try {
    text = fs.readFileSync(configPath, 'utf8');
  } catch (err) {
    throw new StudioError('model-missing', `cannot read the speech tokenizer config '${configPath}': ${(err as Error).message}; download the checkpoint's speech_tokenizer/ folder`, { path: configPath });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new StudioError('model-invalid', `'${configPath}' is not valid JSON: ${(err as Error).message}; re-download it`, { path: configPath });
  }
  return parseCodecConfig(json, configPath);
}

/** Validates a parsed config.json object; `source` names it in error messages. */
export function parseCodecConfig(json: unknown, source = 'speech_tokenizer/config.json'): CodecConfig {
  const root = asObject(json, source, '');
  const dec = asObject(root.decoder_config, source, 'decoder_config');
  const n = (obj: Json, key: string, path: string): number => positiveNumber(obj[key], source, path);
  const int = (key: string): number => positiveInt(dec[key], source, `decoder_config.${key}`);
  const decoder: CodecDecoderConfig = {
    codebookSize: int('codebook_size'),
    codebookDim: int('codebook_dim'),
    latentDim: int('latent_dim'),
    hiddenSize: int('hidden_size'),
    intermediateSize: int('intermediate_size'),
    numHiddenLayers: int('num_hidden_layers'),
    numAttentionHeads: int('num_attention_heads'),
    numKeyValueHeads: int('num_key_value_heads'),
    headDim: int('head_dim'),
    slidingWindow: int('sliding_window'),
    ropeTheta: n(dec, 'rope_theta', 'decoder_config.rope_theta'),
    rmsNormEps: n(dec, 'rms_norm_eps', 'decoder_config.rms_norm_eps'),
    layerScaleInitialScale: n(dec, 'layer_scale_initial_scale', 'decoder_config.layer_scale_initial_scale'),
    maxPositionEmbeddings: int('max_position_embeddings'),
    numQuantizers: int('num_quantizers'),
    numSemanticQuantizers: int('num_semantic_quantizers'),
    upsampleRates: intList(dec.upsample_rates, source, 'decoder_config.upsample_rates'),
    upsamplingRatios: intList(dec.upsampling_ratios, source, 'decoder_config.upsampling_ratios'),
    decoderDim: int('decoder_dim'),
  };
  const config: CodecConfig = {
    outputSampleRateHz: positiveInt(root.output_sample_rate, source, 'output_sample_rate'),
    samplesPerFrame: positiveInt(root.decode_upsample_rate, source, 'decode_upsample_rate'),
    decoder,
  };
  checkConsistency(config, dec, source);
  return Object.freeze({ ...config, decoder: Object.freeze(decoder) });
}

/** Product of all upsampling strides = samples per frame. */
export function totalUpsampling(decoder: CodecDecoderConfig): number {
  return [...decoder.upsamplingRatios, ...decoder.upsampleRates].reduce((a, b) => a * b, 1);
}

function checkConsistency(config: CodecConfig, dec: Json, source: string): void {
  const d = config.decoder;
  const fail = (what: string, fix: string, details: Record<string, number | string>): never => {
    throw new StudioError('model-invalid', `${source}: ${what}; ${fix}`, details);
  };
  const upsampling = totalUpsampling(d);
  if (upsampling !== config.samplesPerFrame) {
    fail(`decode_upsample_rate is ${config.samplesPerFrame} but the strides multiply to ${upsampling}`, 'fix upsample_rates / upsampling_ratios', { samplesPerFrame: config.samplesPerFrame, upsampling });
  }
  if (d.codebookDim % 2 !== 0) fail(`codebook_dim ${d.codebookDim} is odd but each VQ codebook is codebook_dim / 2 wide`, 'use an even codebook_dim', { codebookDim: d.codebookDim });
  if (d.numSemanticQuantizers >= d.numQuantizers) {
    fail(`num_semantic_quantizers ${d.numSemanticQuantizers} must be below num_quantizers ${d.numQuantizers}`, 'fix the quantizer counts', { numSemanticQuantizers: d.numSemanticQuantizers, numQuantizers: d.numQuantizers });
  }
  if (d.numAttentionHeads % d.numKeyValueHeads !== 0) {
    fail(`num_attention_heads ${d.numAttentionHeads} is not a multiple of num_key_value_heads ${d.numKeyValueHeads}`, 'fix the head counts', { numAttentionHeads: d.numAttentionHeads, numKeyValueHeads: d.numKeyValueHeads });
  }
  if (d.headDim % 2 !== 0) fail(`head_dim ${d.headDim} is odd but rotate-half RoPE needs an even head_dim`, 'use an even head_dim', { headDim: d.headDim });
  const divisor = 2 ** d.upsampleRates.length;
  if (d.decoderDim % divisor !== 0) {
    fail(`decoder_dim ${d.decoderDim} does not halve ${d.upsampleRates.length} times`, `use a multiple of ${divisor}`, { decoderDim: d.decoderDim, divisor });
  }
  const act = dec.hidden_act ?? 'silu';
  if (act !== 'silu') {
    throw new StudioError('unsupported', `${source}: decoder_config.hidden_act is '${String(act)}' but only 'silu' is implemented; use a checkpoint with a SwiGLU decoder`, { hiddenAct: String(act) });
  }
  if (dec.attention_bias === true) {
    throw new StudioError('unsupported', `${source}: decoder_config.attention_bias is true but the decoder graph has no attention biases; use a checkpoint without them`, {});
  }
}

function asObject(value: unknown, source: string, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StudioError('model-invalid', `${source}: '${path || '<root>'}' must be an object; re-download the config`, { path });
  }
  return value as Json;
}

function positiveNumber(value: unknown, source: string, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new StudioError('model-invalid', `${source}: '${path}' must be a positive number but is ${JSON.stringify(value)}; fix the config`, { path });
  }
  return value;
}

function positiveInt(value: unknown, source: string, path: string): number {
  const v = positiveNumber(value, source, path);
  if (!Number.isInteger(v)) throw new StudioError('model-invalid', `${source}: '${path}' must be an integer but is ${v}; fix the config`, { path });
  return v;
}

function intList(value: unknown, source: string, path: string): readonly number[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new StudioError('model-invalid', `${source}: '${path}' must be a non-empty list of integers but is ${JSON.stringify(value)}; fix the config`, { path });
  }
  return Object.freeze(value.map((v, i) => positiveInt(v, source, `${path}[${i}]`)));
}
