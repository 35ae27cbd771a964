// Model tier: the compiled speaker encoder (tiny synthetic ECAPA-TDNN, ORT CPU) against the slow
// TypeScript reference within 1e-4, at batch 1 and a batch of 3 (each row equal to its solo run), over
// log-mel rows of real front-end output; plus the tensor list and config checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from '../../engine/runtime/ort';
import { logMelSpectrogram, speakerEncoderMelParams } from '../../audio/mel-spectrogram';
import { referenceSpeakerEncode } from './reference-speaker-encoder';
import { expectedSpeakerEncoderTensors, parseSpeakerEncoderConfig } from './speaker-encoder-config';
import { SPEAKER_ENCODER_INPUT, SPEAKER_ENCODER_OUTPUT } from '../../model-format/encoder-io';
import { buildSpeakerEncoderGraph } from './speaker-encoder-graph';
import { syntheticSpeakerEncoderConfig, syntheticSpeakerEncoderTensors } from './synthetic-speaker-encoder';

const MAX_DIFF = 1e-4;
const ENC_DIM = 64;
const rawConfig = syntheticSpeakerEncoderConfig('tiny', ENC_DIM);
const config = parseSpeakerEncoderConfig(rawConfig);
const weights = new Map([...syntheticSpeakerEncoderTensors(rawConfig, 3)].map((t) => [t.name, t]));

/** A voiced-like test clip: a few harmonics with vibrato plus a little noise, seeded by `salt`. */
function clip(numSamples: number, salt: number): Float32Array {
  const f0 = 110 + 37 * salt;
  return Float32Array.from({ length: numSamples }, (_, i) => {
    const t = i / 24000;
    const phase = 2 * Math.PI * f0 * (t + 0.002 * Math.sin(2 * Math.PI * 5 * t));
    const noise = ((Math.sin((i + salt * 7919) * 12.9898) * 43758.5453) % 1) * 0.01;
    return 0.3 * Math.sin(phase) + 0.15 * Math.sin(2 * phase) + 0.08 * Math.sin(3 * phase + salt) + noise;
  });
}

let session: OrtSession;

beforeAll(async () => {
  session = await createSession(buildSpeakerEncoderGraph(config, weights), { provider: 'cpu', intraOpNumThreads: 1 });
});

afterAll(async () => {
  if (session) await disposeSession(session);
});

async function encode(mels: Float32Array[], numFrames: number): Promise<Float32Array> {
  const data = new Float32Array(mels.length * numFrames * config.melDim);
  mels.forEach((m, i) => data.set(m, i * numFrames * config.melDim));
  const out = await runSession(session, { [SPEAKER_ENCODER_INPUT]: tensor('float32', data, [mels.length, numFrames, config.melDim]) });
  expect(out[SPEAKER_ENCODER_OUTPUT].dims).toEqual([mels.length, ENC_DIM]);
  return out[SPEAKER_ENCODER_OUTPUT].data as Float32Array;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let maxDiff = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
  return maxDiff;
}

describe('speaker encoder graph (tiny, fp32, ORT CPU)', () => {
  it('registers the official tensor names: 5 blocks, 7 Res2Net convs each, MFA, pooling and fc', () => {
    const full = parseSpeakerEncoderConfig(syntheticSpeakerEncoderConfig('full', 1024));
    const tensors = expectedSpeakerEncoderTensors(full);
    const shape = (name: string) => tensors.find((t) => t.name === `speaker_encoder.${name}`)?.shape;
    expect(shape('blocks.0.conv.weight')).toEqual([512, 128, 5]);
    expect(shape('blocks.3.res2net_block.blocks.6.conv.weight')).toEqual([64, 64, 3]);
    expect(shape('blocks.2.se_block.conv1.weight')).toEqual([128, 512, 1]);
    expect(shape('mfa.conv.weight')).toEqual([1536, 1536, 1]);
    expect(shape('asp.tdnn.conv.weight')).toEqual([128, 4608, 1]);
    expect(shape('fc.weight')).toEqual([1024, 3072, 1]);
    // 2 (block 0) + 3 × (2 + 14 + 2 + 4) + 2 (mfa) + 4 (asp) + 2 (fc)
    expect(tensors).toHaveLength(76);
  });

  it('rejects a config whose MFA width is not the sum of the SE-Res2Net widths', () => {
    expect(() => parseSpeakerEncoderConfig({ ...rawConfig, enc_channels: [32, 32, 32, 32, 64] })).toThrow(/sum of the middle ones \(96\)/);
  });

  it('matches the reference within 1e-4 at batch 1', async () => {
    const { data: mels, numFrames } = logMelSpectrogram(clip(24000, 1), speakerEncoderMelParams());
    const expected = referenceSpeakerEncode(mels, numFrames, config, weights);
    const diff = maxAbsDiff(await encode([mels], numFrames), expected);
    console.log(`speaker encoder, 93 frames, batch 1: max |graph − reference| = ${diff.toExponential(2)}`);
    expect(diff).toBeLessThanOrEqual(MAX_DIFF);
    expect(Math.max(...expected.map(Math.abs))).toBeGreaterThan(0.01); // not a degenerate zero vector
  });

  it('matches the reference per row in a batch of 3, and clips of another length in their own call', async () => {
    const clips = [2, 3, 4].map((salt) => logMelSpectrogram(clip(16000, salt), speakerEncoderMelParams()));
    const numFrames = clips[0].numFrames;
    const batched = await encode(clips.map((c) => c.data), numFrames);
    for (let i = 0; i < clips.length; i++) {
      const expected = referenceSpeakerEncode(clips[i].data, numFrames, config, weights);
      expect(maxAbsDiff(batched.subarray(i * ENC_DIM, (i + 1) * ENC_DIM), expected), `row ${i}`).toBeLessThanOrEqual(MAX_DIFF);
    }
    const short = logMelSpectrogram(clip(9000, 5), speakerEncoderMelParams());
    expect(maxAbsDiff(await encode([short.data], short.numFrames), referenceSpeakerEncode(short.data, short.numFrames, config, weights))).toBeLessThanOrEqual(MAX_DIFF);
  });

  it('gives different x-vectors for different voices', () => {
    const a = logMelSpectrogram(clip(16000, 1), speakerEncoderMelParams());
    const b = logMelSpectrogram(clip(16000, 6), speakerEncoderMelParams());
    const va = referenceSpeakerEncode(a.data, a.numFrames, config, weights);
    const vb = referenceSpeakerEncode(b.data, b.numFrames, config, weights);
    expect(maxAbsDiff(va, vb)).toBeGreaterThan(1e-3);
  });
});
