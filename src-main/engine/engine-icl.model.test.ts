// In-context voice cloning (the official generate_voice_clone default) end to end on a tiny synthetic
// Base checkpoint: the builder compiles the speech tokenizer's encoder, a clone prompt is made from a
// reference clip (48 kHz → 24 kHz, trimmed; x-vector + codes with reference parity + transcript),
// in-context requests give golden codes in both prompt layouts, and a seed's codes and PCM bytes do not
// depend on batch-mates (x-vector and in-context requests mixed). UPDATE_GOLDEN=1 rewrites golden/tiny-base-icl.json.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { ClonePrompt } from '../../src-shared/voice-clone';
import { prepareReferenceClip } from '../audio/reference-clip';
import { encodeWav } from '../audio/wav';
import { SafetensorsFile } from '../model-builder/safetensors';
import { referenceSpeechEncode } from '../model-builder/speech-encoder/reference-speech-encoder';
import { parseSpeechEncoderConfig, usedSpeechEncoderTensors } from '../model-builder/speech-encoder/speech-encoder-config';
import { ensureTinyVariant } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { resolveEngineConfig } from './engine-config';
import { referenceSynthesis } from './reference-synthesis';
import { createSpeechCodeEncoder } from './speech-codes';
import { clonePromptFields, createVoiceCloner, type VoiceCloner } from './voice-cloner';
import { expectBatchInvariant } from './testing/expect-batch-invariant';
import { voicedClip } from './testing/voiced-clip';

const GOLDEN_FILE = path.resolve(import.meta.dirname, 'golden/tiny-base-icl.json');
const REF_TEXT = 'This is what the reference clip says.';

/** A 3 s voiced-like clip at 48 kHz with 0.25 s of silence at each end; `salt` changes the voice. */
function referenceClip(salt: number): Float32Array {
  return voicedClip({ f0Hz: 110 + 40 * salt, salt, silenceS: 0.25, voicedS: 3, swell: true });
}

let checkpointDir: string;
let builtDir: string;
let engine: Engine;
let cloner: VoiceCloner;
const prompts: ClonePrompt[] = [];

beforeAll(async () => {
  ({ checkpointDir, builtDir } = await ensureTinyVariant({ size: 'tiny', modelType: 'base' }));
  engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
  cloner = await createVoiceCloner(builtDir, engine.parts.manifest);
  prompts.push((await cloner.createClonePrompt({ pcm: referenceClip(1), sampleRateHz: 48000, refText: REF_TEXT })).prompt);
  prompts.push((await cloner.createClonePromptFromBytes(encodeWav(referenceClip(2), 48000, 'float32'), { refText: 'Another voice, another line.' })).prompt);
  prompts.push((await cloner.createClonePrompt({ pcm: referenceClip(1), sampleRateHz: 48000, mode: 'xvector' })).prompt);
}, 240_000);

afterAll(async () => {
  await cloner?.dispose();
  await engine?.dispose();
});

const REQUESTS = (): SynthesisRequest[] => [
  { requestId: 'icl1', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', ...clonePromptFields(prompts[0]), seed: 42, params: { maxNewTokens: 12 } },
  { requestId: 'icl2', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', ...clonePromptFields(prompts[1]), seed: 42, params: { maxNewTokens: 12 } },
  { requestId: 'greedy', input: 'Short.', inputFormat: 'text', voice: '', language: 'auto', ...clonePromptFields(prompts[0]), seed: 3, params: { maxNewTokens: 8, doSample: false } },
  { requestId: 'xvec', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', ...clonePromptFields(prompts[2]), seed: 42, params: { maxNewTokens: 12 } },
];

function maxDiffOf(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

async function enginePcm(request: SynthesisRequest, target: Engine = engine): Promise<Float32Array> {
  let pcm: Float32Array | null = null;
  const off = target.onDidFinish((o) => {
    if (o.status === 'done') pcm = o.result.pcm;
  });
  try {
    target.addRequest(request);
    await target.run();
  } finally {
    off();
  }
  if (!pcm) throw new Error(`request ${request.requestId} did not finish`);
  return pcm;
}

describe('in-context voice cloning on tiny Base (CPU)', () => {
  it('builds the speech encoder into the model and lists it in the manifest', () => {
    expect(engine.parts.manifest.speechEncoder).toEqual({ file: 'speech_encoder.onnx', sampleRateHz: 24000, samplesPerFrame: 1920, numQuantizers: 16 });
    expect(fs.existsSync(path.join(builtDir, 'speech_encoder.onnx'))).toBe(true);
  });

  it('makes a clone prompt whose codes are the reference encoder codes of the trimmed 24 kHz clip', () => {
    const [icl] = prompts;
    expect(icl.mode).toBe('icl');
    expect(icl.refText).toBe(REF_TEXT);
    expect(icl.embedding).toHaveLength(engine.parts.manifest.talker.hiddenSize);
    const clip = prepareReferenceClip(referenceClip(1), 48000);
    expect(icl.refCodes).toHaveLength(Math.ceil(clip.pcm.length / 1920)); // ≈ 3 s × 12.5 frames/s
    expect(icl.refCodes!.every((f) => f.length === 16 && f.every((c) => Number.isInteger(c) && c >= 0 && c < 2048))).toBe(true);
    const tokenizerConfig = JSON.parse(fs.readFileSync(path.join(checkpointDir, 'speech_tokenizer', 'config.json'), 'utf8')) as Record<string, unknown>;
    const config = parseSpeechEncoderConfig(tokenizerConfig);
    const file = SafetensorsFile.open(path.join(checkpointDir, 'speech_tokenizer', 'model.safetensors'));
    try {
      const weights = new Map(usedSpeechEncoderTensors(config).map((t) => [t.name, { shape: t.shape, data: file.readFloat32(t.name) }]));
      const padded = new Float32Array(icl.refCodes!.length * 1920);
      padded.set(clip.pcm);
      expect(referenceSpeechEncode(padded, config, weights).codes).toEqual(icl.refCodes);
    } finally {
      file.close();
    }
    // x-vector mode: the same embedding, no codes or text
    expect(prompts[2]).toEqual({ mode: 'xvector', embedding: icl.embedding });
  });

  it('encodes a ragged batch of clips (not whole frames) as each clip alone', async () => {
    const encoder = await createSpeechCodeEncoder(builtDir, engine.parts.manifest, 1);
    try {
      const clips = [prepareReferenceClip(referenceClip(1), 48000).pcm.subarray(0, 30_000), prepareReferenceClip(referenceClip(2), 48000).pcm.subarray(0, 52_345)];
      const together = await encoder.encode(clips);
      expect(together.map((c) => c.length)).toEqual([16, 28]); // ⌈30000 / 1920⌉, ⌈52345 / 1920⌉
      expect(together).toEqual([(await encoder.encode([clips[0]]))[0], (await encoder.encode([clips[1]]))[0]]);
    } finally {
      await encoder.dispose();
    }
  });

  it('refuses in-context mode without a transcript, naming the way out', async () => {
    await expect(cloner.createClonePrompt({ pcm: referenceClip(1), sampleRateHz: 48000, refText: '  ' })).rejects.toThrow(/needs the transcript of the reference clip.*'xvector' mode/);
  });

  it('reproduces the golden codes of in-context requests on the unbatched reference path, in both prompt layouts', async () => {
    const p = engine.parts;
    const golden: Record<string, Record<string, number[][]>> = { 'non-streaming': {}, 'streaming-text': {} };
    for (const layout of ['non-streaming', 'streaming-text'] as const) {
      const config = resolveEngineConfig({ ...p.config, promptLayout: layout });
      for (const r of REQUESTS()) golden[layout][r.requestId] = (await referenceSynthesis(p.stages, p.manifest, p.tokenizer, config, r)).codes;
    }
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify({ about: 'tiny Base (seed 1), clone prompts from referenceClip(1|2); regenerate with UPDATE_GOLDEN=1', golden })}\n`);
    expect(golden).toEqual(JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')).golden);
    const ns = golden['non-streaming'];
    expect(ns.icl1).not.toEqual(ns.icl2); // same text and seed, another voice and reference
    expect(ns.icl1).not.toEqual(ns.xvec); // the reference codes and text change the output
    expect(ns.icl1).not.toEqual(golden['streaming-text'].icl1);
  });

  it("keeps each request's codes and PCM bytes independent of batch-mates, together and staggered, and equal to the reference", async () => {
    await expectBatchInvariant(engine, REQUESTS(), [0, 2, 3, 1], { reference: true });
  });

  it('decodes the reference codes as left context of the generated audio and outputs only the generated frames', async () => {
    const p = engine.parts;
    const request = REQUESTS()[0];
    const reference = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, request);
    const spf = p.manifest.codec.samplesPerFrame;
    expect(reference.pcm.length).toBe(reference.codes.length * spf); // 12 frames × 1920, none of the reference's
    // the same codes decoded without the reference in front sound different at the start
    const bare = await p.stages.codec.decode(reference.codes);
    const startDiff = maxDiffOf(bare.subarray(0, spf), reference.pcm.subarray(0, spf));
    expect(startDiff).toBeGreaterThan(1e-3);
    const pcm = await enginePcm(request);
    expect(pcm.length).toBe(reference.pcm.length);
    const diff = maxDiffOf(pcm, reference.pcm);
    console.log(`in-context PCM: engine vs whole decode max diff ${diff.toExponential(2)}; without the reference context ${startDiff.toExponential(2)} in the first frame`);
    expect(diff).toBeLessThan(startDiff / 10);
    // window mode: the first chunks take their 25 frames of left context from the reference codes
    const windowed = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step', codec: { mode: 'window' } }, log: () => {} });
    try {
      const windowPcm = await enginePcm(request, windowed);
      expect(maxDiffOf(windowPcm, reference.pcm)).toBeLessThan(startDiff / 10);
    } finally {
      await windowed.dispose();
    }
  });

  it('refuses reference codes of the wrong width and half a reference at the request', async () => {
    const p = engine.parts;
    const base = REQUESTS()[0];
    await expect(referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, { ...base, refCodes: [[1, 2, 3]] })).rejects.toThrow(/frame 0 has 3 codes but this model takes 16/);
    await expect(referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, { ...base, refText: undefined })).rejects.toThrow(/without refText/);
  });
});
