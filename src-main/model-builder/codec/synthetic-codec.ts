/**
 * Synthetic speech-tokenizer decoders for tests and benches: a config.json object per size and
 * seeded random weights under the official `decoder.*` names (EMA codebooks stored as
 * embedding_sum + cluster_usage, as the checkpoint does). Decoder only: the encoder (voice
 * cloning) is not synthesised. Weights are scaled so the PCM stays finite and mostly inside [-1, 1].
 */
import { StudioError } from '../../../src-shared/errors';
import { parseCodecConfig } from './codec-config';
import { expectedCodecTensorShapes } from './codec-tensor-shapes';
import { fmix32 } from '../seeded-random';

export type SyntheticCodecSize = 'tiny' | '0.6b' | '1.7b';

export interface SyntheticTensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

/**
 * The `speech_tokenizer/config.json` object. 0.6b and 1.7b share one tokenizer (spec §1.1), so both
 * return the official values (checkpoint-tensors-0.6b.json). tiny keeps the structure, the strides
 * (one frame = 1920 samples at 24 kHz), 16 quantizers and 2048 codes, with small widths, one layer
 * and a sliding window of 8 so that its receptive field fits in 25 frames of left context.
 */
export function syntheticCodecConfig(size: SyntheticCodecSize): Record<string, unknown> {
  const official = {
    codebook_dim: 512,
    head_dim: 64,
    num_semantic_quantizers: 1,
    codebook_size: 2048,
    hidden_size: 512,
    latent_dim: 1024,
    max_position_embeddings: 8000,
    rope_theta: 10000,
    num_attention_heads: 16,
    num_key_value_heads: 16,
    attention_bias: false,
    sliding_window: 72,
    intermediate_size: 1024,
    hidden_act: 'silu',
    layer_scale_initial_scale: 0.01,
    rms_norm_eps: 1e-5,
    num_hidden_layers: 8,
    num_quantizers: 16,
    upsample_rates: [8, 5, 4, 3],
    upsampling_ratios: [2, 2],
    decoder_dim: 1536,
    attention_dropout: 0.0,
  };
  const tiny = {
    ...official,
    codebook_dim: 32,
    head_dim: 16,
    hidden_size: 32,
    latent_dim: 48,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    sliding_window: 8,
    intermediate_size: 64,
    num_hidden_layers: 1,
    decoder_dim: 64,
  };
  switch (size) {
    case 'tiny':
      return wrap(tiny);
    case '0.6b':
    case '1.7b':
      return wrap(official);
  }
}

function wrap(decoderConfig: Record<string, unknown>): Record<string, unknown> {
  return {
    model_type: 'qwen3_tts_tokenizer_12hz',
    encoder_valid_num_quantizers: 16,
    input_sample_rate: 24000,
    output_sample_rate: 24000,
    decode_upsample_rate: 1920,
    encode_downsample_rate: 1920,
    decoder_config: decoderConfig,
  };
}

/**
 * Seeded weights for every decoder tensor of `size`, in checkpoint order. The same (size, seed)
 * always yields the same bytes: element i of tensor `name` is a pure function of (seed, name, i).
 * Pass a parsed config object instead of a size to synthesise a variant (e.g. another window).
 */
export function* syntheticCodecTensors(size: SyntheticCodecSize | Record<string, unknown>, seed: number): Iterable<SyntheticTensor> {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new StudioError('invalid-argument', `seed must be an integer in [0, 2^32) but is ${seed}; pass a 32-bit seed`, { seed });
  }
  const rawConfig = typeof size === 'string' ? syntheticCodecConfig(size) : size;
  const config = parseCodecConfig(rawConfig, 'synthetic codec config');
  const usageByLayer = new Map<string, Float32Array>();
  for (const [name, shape] of expectedCodecTensorShapes(config)) {
    const numElements = shape.reduce((a, b) => a * b, 1);
    const random = (i: number): number => uniform(seed, name, i);
    const data = new Float32Array(numElements);
    const fill = (f: (i: number) => number): void => {
      for (let i = 0; i < numElements; i++) data[i] = f(i);
    };
    const leaf = name.slice(name.lastIndexOf('.') + 1);
    if (leaf === 'cluster_usage') {
      fill((i) => 0.5 + 4 * Math.abs(random(i))); // EMA counts, all above the 1e-5 clamp
      usageByLayer.set(name.slice(0, -leaf.length), data);
    } else if (leaf === 'embedding_sum') {
      const usage = usageByLayer.get(name.slice(0, -leaf.length));
      const dim = shape[1];
      // embedding_sum = usage × embedding, embedding uniform in ±1: the decoded codebook stays O(1)
      fill((i) => (usage ? usage[Math.floor(i / dim)] : 1) * random(i));
    } else if (leaf === 'alpha' || leaf === 'beta') {
      fill((i) => 0.2 * random(i)); // log-scale SnakeBeta parameters near 0 → exp ≈ 1
    } else if (leaf === 'scale') {
      fill((i) => 0.3 * (1 + 0.2 * random(i))); // larger than the 0.01 init so the transformer matters
    } else if (leaf === 'gamma') {
      fill((i) => 0.3 * (1 + 0.2 * random(i)));
    } else if (name.includes('layernorm') || name.endsWith('norm.weight')) {
      fill((i) => 1 + 0.1 * random(i));
    } else if (leaf === 'bias') {
      fill((i) => 0.05 * random(i));
    } else {
      // weights: uniform with variance gain²/fanIn (fanIn = all axes but the first; for a
      // ConvTranspose [in, out, k] the input channels overlapping one output are in·k/stride)
      const fanIn = weightFanIn(name, shape);
      const amplitude = weightGain(name) * Math.sqrt(3 / fanIn);
      fill((i) => amplitude * random(i));
    }
    yield { name, shape, data };
  }
}

function weightFanIn(name: string, shape: readonly number[]): number {
  if (/block\.1\.conv\.weight$/.test(name)) return shape[0] * 2; // [in, out, 2·stride]: 2 taps per output
  if (/upsample\.\d+\.0\.conv\.weight$/.test(name)) return shape[0]; // [in, out, stride]: 1 tap per output
  return shape.slice(1).reduce((a, b) => a * b, 1);
}

/** Residual branches get a small gain so that 12 residual units do not blow up the signal. */
function weightGain(name: string): number {
  if (/\.conv2\.conv\.weight$/.test(name)) return 0.3;
  if (/^decoder\.decoder\.\d+\.conv\.weight$/.test(name) && !name.startsWith('decoder.decoder.0.')) return 0.1; // final conv → PCM at rms ≈ 0.3
  return 1;
}

/** Uniform in [-1, 1): a counter-based hash of (seed, name, index); no state between calls. */
function uniform(seed: number, name: string, index: number): number {
  let h = hashString(name) ^ Math.imul(seed, 0x9e3779b1);
  h = fmix32(h ^ fmix32(index + 0x632be5ab));
  h = fmix32(h + Math.imul(index, 0x85ebca6b));
  return (h >>> 8) / 8388608 - 1; // 24 random bits → [-1, 1)
}

const nameHashCache = new Map<string, number>();

function hashString(text: string): number {
  const cached = nameHashCache.get(text);
  if (cached !== undefined) return cached;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  const value = fmix32(h);
  nameHashCache.set(text, value);
  return value;
}

