// Voice cloning (x-vector mode) end to end on a tiny synthetic Base checkpoint: the builder compiles
// its speaker encoder, a voice is made from a reference clip (48 kHz → 24 kHz, trimmed, mel, encoder)
// with reference parity, and cloned requests give golden codes and keep a seed's bytes independent of
// batch-mates. Set UPDATE_GOLDEN=1 to rewrite src-main/engine/golden/tiny-base-clone.json.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { logMelSpectrogram, speakerEncoderMelParams } from '../audio/mel-spectrogram';
import { prepareReferenceClip } from '../audio/reference-clip';
import { encodeWav } from '../audio/wav';
import { openCheckpoint } from '../model-builder/checkpoint';
import { referenceSpeakerEncode } from '../model-builder/speaker-encoder/reference-speaker-encoder';
import { expectedSpeakerEncoderTensors } from '../model-builder/speaker-encoder/speaker-encoder-config';
import { ensureTinyVariant } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { referenceSynthesis } from './reference-synthesis';
import { createSpeakerEncoder, type SpeakerEncoder } from './speaker-embedding';
import { expectBatchInvariant } from './testing/expect-batch-invariant';
import { voicedClip } from './testing/voiced-clip';

const GOLDEN_FILE = path.resolve(import.meta.dirname, 'golden/tiny-base-clone.json');

/** A 4 s voiced-like clip at 48 kHz with 0.5 s of silence at each end; `salt` changes the voice. */
function referenceClip(salt: number): Float32Array {
  return voicedClip({ f0Hz: 100 + 45 * salt, salt, silenceS: 0.5, voicedS: 4 });
}

let checkpointDir: string;
let builtDir: string;
let engine: Engine;
let encoder: SpeakerEncoder;
const voices: number[][] = [];

beforeAll(async () => {
  ({ checkpointDir, builtDir } = await ensureTinyVariant({ size: 'tiny', modelType: 'base' }));
  engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
  encoder = await createSpeakerEncoder(builtDir, engine.parts.manifest);
  voices.push([...(await encoder.embed(referenceClip(1), 48000)).embedding]);
  // the second voice from WAV file bytes (float32, lossless: the same PCM as embed() would get)
  voices.push([...(await encoder.embedBytes(encodeWav(referenceClip(2), 48000, 'float32'))).embedding]);
}, 240_000);

afterAll(async () => {
  await encoder?.dispose();
  await engine?.dispose();
});

const REQUESTS = (): SynthesisRequest[] => [
  { requestId: 'v1', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', speakerEmbedding: voices[0], seed: 42, params: { maxNewTokens: 12 } },
  { requestId: 'v2', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', speakerEmbedding: voices[1], seed: 42, params: { maxNewTokens: 12 } },
  { requestId: 'g1', input: 'Short.', inputFormat: 'text', voice: '', language: 'auto', speakerEmbedding: voices[0], seed: 3, params: { maxNewTokens: 8, doSample: false } },
];

describe('voice cloning on tiny Base (x-vector mode, CPU)', () => {
  it('builds the speaker encoder into the model and lists it in the manifest', () => {
    const m = engine.parts.manifest;
    expect(m.ttsModelType).toBe('base');
    expect(m.speakers).toEqual({});
    expect(m.speakerEncoder).toEqual({ file: 'speaker_encoder.onnx', melDim: 128, encDim: 64, sampleRateHz: 24000 });
    expect(fs.existsSync(path.join(builtDir, 'speaker_encoder.onnx'))).toBe(true);
  });

  it('makes the voice the reference path makes: trimmed 24 kHz clip → mel → encoder within 1e-4', async () => {
    const clip = prepareReferenceClip(referenceClip(1), 48000);
    expect(clip.durationMs).toBeGreaterThan(3900);
    expect(clip.durationMs).toBeLessThan(4100);
    const { data, numFrames } = logMelSpectrogram(clip.pcm, speakerEncoderMelParams());
    const checkpoint = openCheckpoint(checkpointDir);
    try {
      const config = checkpoint.speakerEncoder!;
      const weights = new Map(expectedSpeakerEncoderTensors(config).map((t) => [t.name, { shape: t.shape, data: checkpoint.weights.readFloat32(t.name) }]));
      const expected = referenceSpeakerEncode(data, numFrames, config, weights);
      let maxDiff = 0;
      for (let i = 0; i < expected.length; i++) maxDiff = Math.max(maxDiff, Math.abs(expected[i] - voices[0][i]));
      expect(maxDiff).toBeLessThanOrEqual(1e-4);
    } finally {
      checkpoint.close();
    }
  });

  it('reproduces the golden codes of cloned requests on the unbatched reference path', async () => {
    const p = engine.parts;
    const golden: Record<string, number[][]> = {};
    for (const r of REQUESTS()) golden[r.requestId] = (await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r)).codes;
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify({ about: 'tiny Base (seed 1), voices from referenceClip(1|2); regenerate with UPDATE_GOLDEN=1', golden })}\n`);
    expect(golden).toEqual(JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')).golden);
    expect(golden.v1).not.toEqual(golden.v2); // same text and seed, another voice
  });

  it("keeps each cloned request's codes and PCM bytes independent of batch-mates, together and staggered, and equal to the reference", async () => {
    await expectBatchInvariant(engine, REQUESTS(), [0, 1, 3], { reference: true });
  });

  it('refuses a Base request without a speaker embedding, and an embedding of the wrong width', async () => {
    const base = REQUESTS()[0];
    const p = engine.parts;
    const bare: SynthesisRequest = { ...base, speakerEmbedding: undefined };
    await expect(referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, bare)).rejects.toThrow(/pass the speakerEmbedding of a reference clip/);
    await expect(referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, { ...base, speakerEmbedding: [1, 2, 3] })).rejects.toThrow(/has 3 values but this model's talker is 64 wide/);
  });
});
