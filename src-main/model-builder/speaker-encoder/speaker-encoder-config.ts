/**
 * The speaker encoder of Base checkpoints (ECAPA-TDNN, config.json speaker_encoder_config): its typed
 * config and the tensor names and shapes the official Qwen3TTSSpeakerEncoder registers under
 * `speaker_encoder.` in model.safetensors. Pure; read by the builder, the reference and the synthetic writer.
 */
import { StudioError } from '../../../src-shared/errors';

export interface SpeakerEncoderConfig {
  melDim: number;
  /** Output width: the x-vector enters the talker's codec track, so it equals talker.hiddenSize. */
  encDim: number;
  channels: number[];
  kernelSizes: number[];
  dilations: number[];
  attentionChannels: number;
  res2netScale: number;
  seChannels: number;
  sampleRateHz: number;
}

export const SPEAKER_ENCODER_PREFIX = 'speaker_encoder';

export function parseSpeakerEncoderConfig(json: Record<string, unknown>, source = 'config.json speaker_encoder_config'): SpeakerEncoderConfig {
  const int = (key: string): number => {
    const v = json[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) fail(key, v, 'a positive integer');
    return v as number;
  };
  const ints = (key: string): number[] => {
    const v = json[key];
    if (!Array.isArray(v) || v.length < 3 || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x <= 0)) fail(key, v, 'a list of at least 3 positive integers');
    return v as number[];
  };
  const fail = (key: string, value: unknown, expected: string): never => {
    throw new StudioError('model-invalid', `${source}: key '${key}' is ${value === undefined ? 'missing' : JSON.stringify(value)}, expected ${expected}; the checkpoint is not a Qwen3-TTS Base checkpoint or its config is damaged`, { key });
  };
  const config: SpeakerEncoderConfig = {
    melDim: int('mel_dim'),
    encDim: int('enc_dim'),
    channels: ints('enc_channels'),
    kernelSizes: ints('enc_kernel_sizes'),
    dilations: ints('enc_dilations'),
    attentionChannels: int('enc_attention_channels'),
    res2netScale: int('enc_res2net_scale'),
    seChannels: int('enc_se_channels'),
    sampleRateHz: int('sample_rate'),
  };
  const n = config.channels.length;
  if (config.kernelSizes.length !== n || config.dilations.length !== n) fail('enc_kernel_sizes', config.kernelSizes, `${n} entries like enc_channels and enc_dilations`);
  for (const c of config.channels.slice(1, -1)) if (c % config.res2netScale !== 0) fail('enc_channels', config.channels, `channels divisible by enc_res2net_scale ${config.res2netScale}`);
  // the MFA layer takes the SE-Res2Net outputs side by side as enc_channels[-1] inputs
  const mfaIn = config.channels.slice(1, -1).reduce((a, b) => a + b, 0);
  if (mfaIn !== config.channels[n - 1]) fail('enc_channels', config.channels, `a last entry equal to the sum of the middle ones (${mfaIn})`);
  return config;
}

export interface SpeakerEncoderTensor {
  name: string;
  shape: number[];
}

/** Every speaker_encoder tensor (Conv1d weights [out, in, kernel] and biases), in registration order. */
export function expectedSpeakerEncoderTensors(c: SpeakerEncoderConfig): SpeakerEncoderTensor[] {
  const out: SpeakerEncoderTensor[] = [];
  const conv = (prefix: string, outCh: number, inCh: number, kernel: number) =>
    out.push({ name: `${SPEAKER_ENCODER_PREFIX}.${prefix}.weight`, shape: [outCh, inCh, kernel] }, { name: `${SPEAKER_ENCODER_PREFIX}.${prefix}.bias`, shape: [outCh] });
  const n = c.channels.length;
  conv('blocks.0.conv', c.channels[0], c.melDim, c.kernelSizes[0]);
  for (let i = 1; i < n - 1; i++) {
    const ch = c.channels[i];
    const part = ch / c.res2netScale;
    conv(`blocks.${i}.tdnn1.conv`, ch, c.channels[i - 1], 1);
    for (let j = 0; j < c.res2netScale - 1; j++) conv(`blocks.${i}.res2net_block.blocks.${j}.conv`, part, part, c.kernelSizes[i]);
    conv(`blocks.${i}.tdnn2.conv`, ch, ch, 1);
    conv(`blocks.${i}.se_block.conv1`, c.seChannels, ch, 1);
    conv(`blocks.${i}.se_block.conv2`, ch, c.seChannels, 1);
  }
  const last = c.channels[n - 1];
  conv('mfa.conv', last, last, c.kernelSizes[n - 1]);
  conv('asp.tdnn.conv', c.attentionChannels, last * 3, 1);
  conv('asp.conv', last, c.attentionChannels, 1);
  conv('fc', c.encDim, last * 2, 1);
  return out;
}
