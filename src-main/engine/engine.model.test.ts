// The engine on onnxruntime-node CPU with the tiny model: golden codes and WAV hash from the
// unbatched reference path, batched + chunked engine output vs that reference, batch invariance
// (3 together vs alone, exact bytes), run-to-run determinism, and bad model folders.
// Set UPDATE_GOLDEN=1 to rewrite src-main/engine/golden/tiny-engine.json from the reference path.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { loadModelManifest } from './stages/model-manifest';
import { referenceSynthesis } from './reference-synthesis';
import { runTogether } from './testing/run-and-collect';
import { encodeWav } from '../audio/wav-encode';

const GOLDEN_FILE = path.resolve(import.meta.dirname, 'golden/tiny-engine.json');
const MAX_CHUNKED_DIFF = 1e-4;

const REQUESTS: SynthesisRequest[] = [
  { requestId: 'a', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 14 } },
  { requestId: 'b', input: '你好，世界。', inputFormat: 'text', voice: 'dylan', language: 'chinese', seed: 7, params: { maxNewTokens: 9 } },
  { requestId: 'c', input: 'Short.', inputFormat: 'text', voice: 'sohee', language: 'auto', seed: 123, params: { maxNewTokens: 11, doSample: false } },
];

let builtDir: string;
let engine: Engine;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const pcmBytes = (pcm: Float32Array) => new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

function maxAbsDiff(a: Float32Array, b: Float32Array): { maxDiff: number; firstIndex: number } {
  let maxDiff = 0;
  let firstIndex = -1;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d > MAX_CHUNKED_DIFF && firstIndex < 0) firstIndex = i;
    maxDiff = Math.max(maxDiff, d);
  }
  return { maxDiff, firstIndex };
}

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  // the step graph with host sampling: the goldens below are its output (the loop graph has its own: engine-loop.model.test.ts)
  engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
});

afterAll(async () => {
  await engine?.dispose();
});

describe('engine on the tiny model (CPU, step code predictor)', () => {
  it('reproduces the golden codes and WAV hash on the unbatched reference path', async () => {
    const p = engine.parts;
    const golden: Record<string, { codes: number[][]; wavPcm16Sha256: string; truncated: boolean }> = {};
    for (const r of REQUESTS) {
      const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
      golden[r.requestId] = { codes: ref.codes, wavPcm16Sha256: sha256(encodeWav(ref.pcm, 24000, 'pcm16')), truncated: ref.truncated };
    }
    if (process.env.UPDATE_GOLDEN === '1') {
      fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify({ about: 'tiny model (seed 1), reference path; regenerate with UPDATE_GOLDEN=1', requests: REQUESTS, golden }, null, 1)}\n`);
    }
    const stored = JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')).golden;
    expect(golden).toEqual(stored);
  });

  it('matches the reference: same codes, PCM within 1e-4 after chunked decoding, timings that add up', async () => {
    const runs = await runTogether(engine, REQUESTS);
    const p = engine.parts;
    for (const r of REQUESTS) {
      const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
      const run = runs.get(r.requestId)!;
      expect(run.codes).toEqual(ref.codes);
      expect(run.result.numSamples).toBe(ref.pcm.length);
      const { maxDiff, firstIndex } = maxAbsDiff(run.result.pcm, ref.pcm);
      expect(maxDiff, `first sample over ${MAX_CHUNKED_DIFF} at ${firstIndex}`).toBeLessThanOrEqual(MAX_CHUNKED_DIFF);
      const t = run.result.timings;
      expect(t.numFrames).toBe(ref.codes.length);
      // 1920 samples per 80 ms frame at 24 kHz
      expect(run.result.numSamples).toBe(t.numFrames * 1920);
      expect(t.audioDurationMs).toBeCloseTo(t.numFrames * 80, 6);
      expect(t.latencyFirstAudioMs).toBeLessThanOrEqual(t.latencyTotalMs);
      expect(run.result.truncated).toBe(ref.truncated);
    }
  });

  it('gives each request the same codes and PCM bytes alone as with two batch-mates', async () => {
    const together = await runTogether(engine, REQUESTS);
    for (const r of REQUESTS) {
      const alone = (await runTogether(engine, [r])).get(r.requestId)!;
      const mate = together.get(r.requestId)!;
      expect(mate.codes).toEqual(alone.codes);
      expect(sha256(pcmBytes(mate.result.pcm))).toBe(sha256(pcmBytes(alone.result.pcm)));
    }
  });

  it('stays invariant when equal-length prompts share one batched talker run', async () => {
    // same text and row count as 'a' (another non-dialect voice), so the talker runs 'a' and 'd' as one group of 2
    const mate: SynthesisRequest = { ...REQUESTS[0], requestId: 'd', voice: 'aiden', seed: 99 };
    const talker = engine.parts.stages.talker as unknown as { runBatchSizes: number[] };
    const numRunsBefore = talker.runBatchSizes.length;
    const together = await runTogether(engine, [REQUESTS[0], mate]);
    expect(Math.max(...talker.runBatchSizes.slice(numRunsBefore))).toBe(2);
    for (const r of [REQUESTS[0], mate]) {
      const alone = (await runTogether(engine, [r])).get(r.requestId)!;
      expect(together.get(r.requestId)!.codes).toEqual(alone.codes);
      expect(sha256(pcmBytes(together.get(r.requestId)!.result.pcm))).toBe(sha256(pcmBytes(alone.result.pcm)));
    }
  });

  it('decodes due codec windows of several sequences in one call, with the bytes of one-by-one decoding', async () => {
    const codec = engine.parts.stages.codec as unknown as { runBatchSizes: number[] };
    const numRunsBefore = codec.runBatchSizes.length;
    const together = await runTogether(engine, REQUESTS);
    // all three start in the same step, so their first 4-frame windows (and later 8-frame ones) are due together
    expect(Math.max(...codec.runBatchSizes.slice(numRunsBefore))).toBe(3);
    const oneByOne = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step', codecBatching: 'off' }, log: () => {} });
    try {
      const single = await runTogether(oneByOne, REQUESTS);
      expect(Math.max(...(oneByOne.parts.stages.codec as unknown as { runBatchSizes: number[] }).runBatchSizes)).toBe(1);
      for (const r of REQUESTS) {
        expect(sha256(pcmBytes(together.get(r.requestId)!.result.pcm))).toBe(sha256(pcmBytes(single.get(r.requestId)!.result.pcm)));
      }
    } finally {
      await oneByOne.dispose();
    }
  });

  it("streams the codec by default (state carried, every frame decoded once) with the codes and, within 1e-4, the PCM of codec mode 'window'", async () => {
    const streaming = engine;
    const windowEngine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step', codec: { mode: 'window' } }, log: () => {} });
    try {
      const codec = streaming.parts.stages.codec as unknown as { streaming: boolean; runBatchSizes: number[] };
      expect(codec.streaming).toBe(true);
      expect((windowEngine.parts.stages.codec as unknown as { streaming: boolean }).streaming).toBe(false);
      const windowed = await runTogether(windowEngine, REQUESTS);
      const together = await runTogether(streaming, REQUESTS);
      const p = engine.parts;
      for (const r of REQUESTS) {
        const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
        const run = together.get(r.requestId)!;
        expect(run.codes).toEqual(windowed.get(r.requestId)!.codes);
        expect(run.result.numSamples).toBe(ref.pcm.length);
        expect(maxAbsDiff(run.result.pcm, ref.pcm).maxDiff).toBeLessThanOrEqual(MAX_CHUNKED_DIFF);
        expect(maxAbsDiff(run.result.pcm, windowed.get(r.requestId)!.result.pcm).maxDiff).toBeLessThanOrEqual(MAX_CHUNKED_DIFF);
        const alone = (await runTogether(streaming, [r])).get(r.requestId)!;
        expect(sha256(pcmBytes(alone.result.pcm))).toBe(sha256(pcmBytes(run.result.pcm)));
      }
      // chunks of 1, 2, 4 and 8 new frames: 'a' (14 frames) needs 4 calls of its own, never a frame twice
      const numRunsBefore = codec.runBatchSizes.length;
      await runTogether(streaming, [REQUESTS[0]]);
      expect(codec.runBatchSizes.length - numRunsBefore).toBe(4);
    } finally {
      await windowEngine.dispose();
    }
  });

  it('gives the same bytes on a second run', async () => {
    const first = await runTogether(engine, [REQUESTS[0]]);
    const second = await runTogether(engine, [REQUESTS[0]]);
    expect(sha256(pcmBytes(second.get('a')!.result.pcm))).toBe(sha256(pcmBytes(first.get('a')!.result.pcm)));
  });

  it('names a missing, incomplete or foreign-built model folder', () => {
    const codeOf = (dir: string) => {
      try {
        loadModelManifest(dir);
        return 'ok';
      } catch (err) {
        return `${(err as StudioError).code}: ${(err as StudioError).message}`;
      }
    };
    expect(codeOf(path.join(os.tmpdir(), 'no-such-model-dir'))).toMatch(/^model-missing: .*does not exist/);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'model-empty-'));
    expect(codeOf(empty)).toMatch(/^model-invalid: .*has no manifest\.json/);
    const manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8'));
    const incomplete = fs.mkdtempSync(path.join(os.tmpdir(), 'model-incomplete-'));
    fs.writeFileSync(path.join(incomplete, 'manifest.json'), JSON.stringify(manifest));
    expect(codeOf(incomplete)).toMatch(/^model-invalid: .*incomplete: missing talker\.onnx/);
    const foreign = fs.mkdtempSync(path.join(os.tmpdir(), 'model-foreign-'));
    fs.writeFileSync(path.join(foreign, 'manifest.json'), JSON.stringify({ ...manifest, builderVersion: '0-other' }));
    expect(codeOf(foreign)).toMatch(/^model-invalid: .*builder version 0-other.*rebuild/);
    expect(codeOf(builtDir)).toBe('ok');
  });
});
