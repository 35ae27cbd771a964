// fp16 builds in the engine (tiny model, ORT CPU): which build a provider opens when both dtypes are
// built side by side, and an fp16 build run end to end on the CPU provider (sanity: finite, non-silent
// PCM of the expected length, same bytes alone and beside a batch-mate).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { modelDirForProvider } from './model-dir-for-provider';
import { loadModelManifest } from './stages/model-manifest';
import { preferredDtype } from './provider-select';

let fp32Dir: string;
let fp16Dir: string;

const REQUEST: SynthesisRequest = { requestId: 'h', input: 'Half precision, please.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 5, params: { maxNewTokens: 10 } };

async function run(engine: Engine, requests: SynthesisRequest[]): Promise<Map<string, SynthesisResult>> {
  const results = new Map<string, SynthesisResult>();
  const off = engine.onDidFinish((o) => o.status === 'done' && results.set(o.result.requestId, o.result));
  for (const r of requests) engine.addRequest(r);
  await engine.run();
  off();
  return results;
}

beforeAll(async () => {
  fp32Dir = (await ensureTinyModel('fp32')).builtDir;
  fp16Dir = (await ensureTinyModel('fp16')).builtDir;
});

describe('fp16 builds', () => {
  it('opens the fp16 sibling build for GPU providers and the fp32 one for CPU', () => {
    expect(preferredDtype('webgpu')).toBe('fp16');
    expect(preferredDtype('cpu')).toBe('fp32');
    const fromFp32 = modelDirForProvider(fp32Dir, loadModelManifest(fp32Dir), preferredDtype('webgpu'));
    expect(fromFp32).toMatchObject({ modelDir: fp16Dir, dtype: 'fp16' });
    const fromFp16 = modelDirForProvider(fp16Dir, loadModelManifest(fp16Dir), preferredDtype('cpu'));
    expect(fromFp16).toMatchObject({ modelDir: fp32Dir, dtype: 'fp32' });
  });

  it('keeps the given build and says how to make the other when no sibling exists', () => {
    const lonely = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fp16-alone-')), path.basename(fp16Dir));
    fs.symlinkSync(fp16Dir, lonely);
    const choice = modelDirForProvider(lonely, loadModelManifest(lonely), 'fp32');
    expect(choice).toMatchObject({ modelDir: lonely, dtype: 'fp16' });
    expect(choice.reason).toMatch(/no fp32 build next to it; 'studio model build --dtype fp32'/);
  });

  // step code predictor: the fp16 loop graph on CPU gives a row different codes beside a batch-mate
  // (measured: frame codes differ, PCM up to 1.56 apart; fp32 loop and fp16 step are exact), cause not found yet
  it('runs an fp16 build end to end on the CPU provider with the same bytes alone and batched (step code predictor)', async () => {
    const lonely = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fp16-cpu-')), path.basename(fp16Dir));
    fs.symlinkSync(fp16Dir, lonely);
    const engine = await createEngine({ modelDir: lonely, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
    try {
      expect(engine.parts.manifest.dtype).toBe('fp16');
      expect(engine.status().providerReason).toMatch(/fp16 build as given/);
      const alone = (await run(engine, [REQUEST])).get('h')!;
      // the random tiny talker never draws EOS: 10 frames × 1,920 samples
      expect(alone.timings.numFrames).toBe(10);
      expect(alone.pcm.length).toBe(10 * 1920);
      expect(alone.pcm.every(Number.isFinite)).toBe(true);
      expect(Math.max(...alone.pcm.map(Math.abs))).toBeGreaterThan(1e-4);
      const together = (await run(engine, [REQUEST, { ...REQUEST, requestId: 'mate', seed: 6 }])).get('h')!;
      expect(Buffer.from(together.pcm.buffer).equals(Buffer.from(alone.pcm.buffer))).toBe(true);
    } finally {
      await engine.dispose();
    }
  });
});
