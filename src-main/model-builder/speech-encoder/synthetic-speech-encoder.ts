/**
 * Synthetic speech-tokenizer encoders for tests and benches: an encoder_config object per size and
 * seeded random weights under the official `encoder.*` names (EMA codebooks as embed_sum +
 * cluster_usage, all 32 quantizers stored as in the release). Full size is MimiConfig as Qwen3-TTS
 * ships it; tiny keeps the structure (4 SEANet stages with the 4·5·6·8 strides, 1920 samples a frame,
 * the split RVQ with 2048 codes) with small widths. Weights keep activations O(1); the codes are noise.
 */
import { fillUniform, streamKey } from '../seeded-random';
import { expectedSpeechEncoderTensors, parseSpeechEncoderConfig } from './speech-encoder-config';

export type SyntheticSpeechEncoderSize = 'tiny' | 'full';

export function syntheticSpeechEncoderConfig(size: SyntheticSpeechEncoderSize): Record<string, unknown> {
  const official = {
    _frame_rate: 12.5,
    audio_channels: 1,
    codebook_dim: 256,
    codebook_size: 2048,
    compress: 2,
    dilation_growth_rate: 2,
    head_dim: 64,
    hidden_act: 'gelu',
    hidden_size: 512,
    intermediate_size: 2048,
    kernel_size: 7,
    last_kernel_size: 3,
    layer_scale_initial_scale: 0.01,
    max_position_embeddings: 8000,
    norm_eps: 1e-5,
    num_attention_heads: 8,
    num_filters: 64,
    num_hidden_layers: 8,
    num_key_value_heads: 8,
    num_quantizers: 32,
    num_residual_layers: 1,
    num_semantic_quantizers: 1,
    pad_mode: 'constant',
    residual_kernel_size: 3,
    rope_theta: 10000,
    sampling_rate: 24000,
    sliding_window: 250,
    upsampling_ratios: [8, 6, 5, 4],
    use_causal_conv: true,
    use_conv_shortcut: false,
    vector_quantization_hidden_dimension: 256,
  };
  if (size === 'full') return official;
  return { ...official, num_filters: 4, hidden_size: 32, head_dim: 8, num_attention_heads: 4, num_key_value_heads: 4, intermediate_size: 64, num_hidden_layers: 2, codebook_dim: 8, vector_quantization_hidden_dimension: 8, num_quantizers: 20 };
}

/** Every encoder tensor for `rawEncoderConfig` (the encoder_config object), seeded, in registration order. */
export function* syntheticSpeechEncoderTensors(rawEncoderConfig: Record<string, unknown>, seed: number): Iterable<{ name: string; shape: number[]; data: Float32Array }> {
  const config = parseSpeechEncoderConfig({ encoder_config: rawEncoderConfig, encoder_valid_num_quantizers: 16 }, 'synthetic encoder config');
  const usageByCodebook = new Map<string, Float32Array>();
  for (const t of expectedSpeechEncoderTensors(config)) {
    const data = new Float32Array(t.shape.reduce((a, b) => a * b, 1));
    const key = streamKey(seed, t.name);
    const leaf = t.name.slice(t.name.lastIndexOf('.') + 1);
    if (leaf === 'initialized') data.fill(1);
    else if (leaf === 'cluster_usage') {
      fillUniform(data, key, 0, 1, 2); // EMA counts in [1, 3)
      usageByCodebook.set(t.name.slice(0, -leaf.length), data);
    } else if (leaf === 'embed_sum') {
      // embed_sum = usage × codeword, codewords uniform in ±1 per axis (the scale of the projected latent)
      fillUniform(data, key, 0, 1);
      const usage = usageByCodebook.get(t.name.slice(0, -leaf.length))!;
      const dim = t.shape[1];
      for (let i = 0; i < data.length; i++) data[i] *= usage[Math.floor(i / dim)];
    } else if (leaf === 'scale') fillUniform(data, key, 0, 0.05, 0.3); // larger than the 0.01 init so the transformer matters
    else if (t.name.includes('layernorm')) fillUniform(data, key, 0, 0.1, leaf === 'weight' ? 1 : 0);
    else if (leaf === 'bias') fillUniform(data, key, 0, 0.05);
    else {
      const fanIn = t.shape.slice(1).reduce((a, b) => a * b, 1);
      // residual branches (block.3) with a small gain; the rest variance 1/fanIn, ×3 at the input conv (PCM is ~0.3)
      const gain = /block\.3\.conv/.test(t.name) ? 0.5 : t.name.includes('layers.0.conv') ? 3 : 1;
      fillUniform(data, key, 0, gain * Math.sqrt(3 / fanIn));
    }
    yield { name: t.name, shape: t.shape, data };
  }
}
