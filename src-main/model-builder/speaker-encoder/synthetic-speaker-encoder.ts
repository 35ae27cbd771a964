/**
 * Synthetic speaker encoders for tests and benches: a speaker_encoder_config object per size and seeded
 * random weights under the official `speaker_encoder.*` names. Full size is the official config with
 * enc_dim = the talker width (1024 for 0.6B, 2048 for 1.7B); tiny keeps the structure (5 blocks, Res2Net
 * scale 8, the 128-band mel input) with 32 channels. Weights keep activations O(1); the x-vector is noise.
 */
import { fillUniform, streamKey } from '../seeded-random';
import { expectedSpeakerEncoderTensors, parseSpeakerEncoderConfig } from './speaker-encoder-config';

export function syntheticSpeakerEncoderConfig(size: 'tiny' | 'full', encDim: number): Record<string, unknown> {
  const official = {
    mel_dim: 128,
    enc_dim: encDim,
    enc_channels: [512, 512, 512, 512, 1536],
    enc_kernel_sizes: [5, 3, 3, 3, 1],
    enc_dilations: [1, 2, 3, 4, 1],
    enc_attention_channels: 128,
    enc_res2net_scale: 8,
    enc_se_channels: 128,
    sample_rate: 24000,
  };
  if (size === 'full') return official;
  return { ...official, enc_channels: [32, 32, 32, 32, 96], enc_attention_channels: 16, enc_se_channels: 16 };
}

export function* syntheticSpeakerEncoderTensors(rawConfig: Record<string, unknown>, seed: number): Iterable<{ name: string; shape: number[]; data: Float32Array }> {
  const config = parseSpeakerEncoderConfig(rawConfig);
  for (const t of expectedSpeakerEncoderTensors(config)) {
    const data = new Float32Array(t.shape.reduce((a, b) => a * b, 1));
    const isBias = t.shape.length === 1;
    // Conv1d weight [out, in, kernel]: variance 1/fanIn; biases small
    fillUniform(data, streamKey(seed, t.name), 0, isBias ? 0.05 : Math.sqrt(3 / (t.shape[1] * t.shape[2])));
    yield { name: t.name, shape: t.shape, data };
  }
}
