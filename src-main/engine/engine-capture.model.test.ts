// The capture-ready forms (talker-decode.onnx over bound buffers with the KV updated in place, the
// code-predictor loop's static form, and the streaming codec's static form over ping-pong state buffers) on the CPU provider through the C-API adapter: 'bound' and 'on'
// (capture asked for; CPU runs the same static graphs uncaptured) give today's codes and PCM bytes,
// greedy and sampled, alone and batched beside staggered others, with shape buckets on and off, with the
// step code predictor and on the fp16 build, and reproduce the stored goldens; the runs really went
// through the bound forms.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { BoundCodePredictorLoop } from './stages/code-predictor-bound-loop';
import { BoundCodecStream } from './stages/codec-bound-stream';
import type { OrtTalker } from './stages/talker';
import { referenceSynthesis } from './reference-synthesis';
import { runAndCollect, type RequestOutputs } from './testing/run-and-collect';
import { encodeWav } from '../audio/wav-encode';

const CONFIG = { provider: 'cpu', maxRunningSequences: 8, maxPrefillSequences: 8 };
const VOICES = ['ryan', 'dylan', 'sohee', 'vivian'];

const REQUESTS: SynthesisRequest[] = Array.from({ length: 6 }, (_, i) => ({
  requestId: `q${i}`,
  input: i % 2 ? 'Words of a different length here.' : 'Short one.',
  inputFormat: 'text',
  voice: VOICES[i % VOICES.length],
  language: 'english',
  seed: 77 + 13 * i,
  params: i % 3 === 0 ? { maxNewTokens: 9 + i, doSample: false } : { maxNewTokens: 9 + i, temperature: 0.9 },
}));

const boundStats = (engine: Engine) => (engine.parts.stages.talker as unknown as OrtTalker).boundDecodeStats();
/** The bound streaming codec, also inside the shape-bucket wrapper; null when the codec is today's form. */
const boundCodec = (engine: Engine): BoundCodecStream | null => {
  const codec = engine.parts.stages.codec as unknown as { inner?: unknown };
  const inner = codec instanceof BoundCodecStream ? codec : codec.inner;
  return inner instanceof BoundCodecStream ? inner : null;
};

let builtDir: string;
let today: Engine;
let solo: RequestOutputs;
let together: RequestOutputs;
const ARRIVALS = REQUESTS.map((_, i) => 2 * i);

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  today = await createEngine({ modelDir: builtDir, config: CONFIG, log: () => {} });
  solo = new Map();
  for (const r of REQUESTS) for (const [k, v] of await runAndCollect(today, [r])) solo.set(k, v);
  together = await runAndCollect(today, REQUESTS, ARRIVALS);
}, 120_000);

afterAll(async () => {
  await today?.dispose();
});

describe('capture-ready talker decode (tiny, CPU, C-API adapter)', () => {
  it('today\'s form is batch-invariant here (the reference the captured form must equal)', () => {
    for (const r of REQUESTS) expect(together.get(r.requestId), r.requestId).toEqual(solo.get(r.requestId));
  });

  const CASES = [
    ['bound', {}, ''],
    ['on', {}, ''],
    ['on', { shapeBuckets: { mode: 'on', talkerRows: 4, codePredictorRows: 4 } }, ' with decode and code-predictor runs of 4 rows'],
    ['on', { codecSessions: 'per-bucket' }, " with the codec uncaptured and a session per shape bucket (CUDA's default)"],
    ['on', { maxBuckets: 1 }, ' with one bucket held per stage (each bucket change evicts: the talker writes its rows back to the pool first)'],
  ] as const;
  for (const [mode, extra, label] of CASES) {
    it(`graphCapture '${mode}'${label}: the same codes and PCM bytes alone and staggered beside others`, { timeout: 120_000 }, async () => {
      const { codecSessions, maxBuckets, ...rest } = { codecSessions: 'auto' as const, maxBuckets: 16, ...extra };
      // CUDA's form: the codec left uncaptured, each of its buckets in a session of its own
      const codecCapture = codecSessions === 'per-bucket' ? 'off' as const : 'auto' as const;
      const engine = await createEngine({ modelDir: builtDir, config: { ...CONFIG, ...rest, graphCapture: { mode, codec: codecCapture, codecSessions, maxBuckets } }, log: () => {} });
      try {
        for (const r of REQUESTS) expect((await runAndCollect(engine, [r])).get(r.requestId), r.requestId).toEqual(solo.get(r.requestId));
        const staggered = await runAndCollect(engine, REQUESTS, ARRIVALS);
        for (const r of REQUESTS) expect(staggered.get(r.requestId), r.requestId).toEqual(solo.get(r.requestId));
        const stats = boundStats(engine)!;
        expect(stats.numRuns).toBeGreaterThan(REQUESTS.length);
        // a bucket keeps its rows between steps: staging happens only when the rows or their lengths change
        expect(stats.numRunsStaged).toBeLessThan(stats.numRuns);
        // rows that join, leave or outgrow their capacity are gathered from open buckets on the device, the rest staged from the pool
        const talkerStats = stats as { numRunsRegrouped?: number; numPositionsWrittenBack?: number; numBuckets: number };
        if (maxBuckets > 1) expect(talkerStats.numRunsRegrouped).toBeGreaterThan(0);
        // decode steps keep their new KV positions in the bucket; with one bucket held, every eviction writes them back first
        if (maxBuckets === 1) expect([talkerStats.numBuckets, talkerStats.numPositionsWrittenBack! > 0]).toEqual([1, true]);
        expect((engine.parts.stages.talker as unknown as OrtTalker).kvStats()).toMatchObject({ strategy: 'host', numSequences: 0 });
        expect(boundStats(today)).toBeNull();
        // the codec ran bound: a bucket keeps its state set between a sequence's chunks, two graph ids per bucket, nothing kept after the requests
        const codec = boundCodec(engine)!.stats();
        expect(codec.numRuns).toBeGreaterThan(REQUESTS.length);
        expect(codec.numRunsStaged).toBeLessThan(codec.numRuns);
        expect(codec.numGraphIds % 2).toBe(0);
        expect(codec.numGraphIds).toBeGreaterThanOrEqual(2 * codec.numBuckets);
        expect(codec.numSequences).toBe(0);
        // per bucket: one session for each open bucket (its two graph ids share it); else one for all
        expect(codec.numSessions).toBe(codecSessions === 'per-bucket' ? codec.numBuckets : 1);
        if (codecSessions === 'per-bucket') expect(codec.numBuckets).toBeGreaterThan(1);
        expect(boundCodec(today)).toBeNull();
        const predictor = engine.parts.stages.codePredictor;
        if (!('shapeBuckets' in extra)) expect((predictor as BoundCodePredictorLoop).stats().numRuns).toBeGreaterThan(REQUESTS.length);
      } finally {
        await engine.dispose();
      }
    });
  }

  it("graphCapture 'on' with the step code predictor (never captured): the step path's bytes", { timeout: 120_000 }, async () => {
    const step = await createEngine({ modelDir: builtDir, config: { ...CONFIG, codePredictor: 'step' }, log: () => {} });
    const engine = await createEngine({ modelDir: builtDir, config: { ...CONFIG, codePredictor: 'step', graphCapture: { mode: 'on' } }, log: () => {} });
    try {
      const expected = await runAndCollect(step, REQUESTS, ARRIVALS);
      expect(await runAndCollect(engine, REQUESTS, ARRIVALS)).toEqual(expected);
      expect(engine.parts.stages.codePredictor).not.toBeInstanceOf(BoundCodePredictorLoop);
      expect(boundStats(engine)!.numRuns).toBeGreaterThan(0);
    } finally {
      await step.dispose();
      await engine.dispose();
    }
  });

  it("fp16 build: graphCapture 'on' gives today's fp16 codes and PCM bytes, alone and staggered beside others", { timeout: 180_000 }, async () => {
    // a lone fp16 build (a symlink with no fp32 sibling), or the CPU provider would open the fp32 build
    const built = (await ensureTinyModel('fp16')).builtDir;
    const fp16 = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'capture-fp16-')), path.basename(built));
    fs.symlinkSync(built, fp16);
    const plain = await createEngine({ modelDir: fp16, config: CONFIG, log: () => {} });
    const engine = await createEngine({ modelDir: fp16, config: { ...CONFIG, graphCapture: { mode: 'on' } }, log: () => {} });
    try {
      expect(engine.parts.manifest.dtype).toBe('fp16');
      for (const r of REQUESTS.slice(0, 3)) expect(await runAndCollect(engine, [r]), r.requestId).toEqual(await runAndCollect(plain, [r]));
      expect(await runAndCollect(engine, REQUESTS, ARRIVALS)).toEqual(await runAndCollect(plain, REQUESTS, ARRIVALS));
      expect(boundStats(engine)!.numRuns).toBeGreaterThan(REQUESTS.length);
    } finally {
      await plain.dispose();
      await engine.dispose();
    }
  });

  for (const [codePredictor, file] of [['step', 'tiny-engine.json'], ['loop', 'tiny-engine-loop.json']] as const) {
    it(`graphCapture 'on' reproduces the stored ${codePredictor} golden (${file}) on the unbatched reference path`, { timeout: 120_000 }, async () => {
      const stored = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'golden', file), 'utf8')) as { requests: SynthesisRequest[]; golden: Record<string, { codes: number[][]; wavPcm16Sha256: string }> };
      const engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor, graphCapture: { mode: 'on' } }, log: () => {} });
      try {
        const p = engine.parts;
        for (const r of stored.requests) {
          const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
          expect(ref.codes, r.requestId).toEqual(stored.golden[r.requestId].codes);
          expect(createHash('sha256').update(encodeWav(ref.pcm, 24000, 'pcm16')).digest('hex'), r.requestId).toBe(stored.golden[r.requestId].wavPcm16Sha256);
        }
        expect(boundStats(engine)!.numRuns).toBeGreaterThan(0);
      } finally {
        await engine.dispose();
      }
    });
  }

  it('refuses codec.stateStore device with capture (streaming codec), naming both keys', () => {
    return expect(createEngine({ modelDir: builtDir, config: { ...CONFIG, codec: { stateStore: 'device' }, graphCapture: { mode: 'bound' } }, log: () => {} })).rejects.toThrow(/codec.stateStore.*graphCapture.mode/);
  });

  it('refuses kvCache.mode device with capture, naming both keys', () => {
    return expect(createEngine({ modelDir: builtDir, config: { ...CONFIG, kvCache: { mode: 'device' }, graphCapture: { mode: 'on' } }, log: () => {} })).rejects.toThrow(/kvCache.mode.*graphCapture.mode/);
  });
});
