// The engine with the one-call code-predictor loop graph (the manifest default) on ORT CPU, tiny model:
// greedy and sampled rows give the step path's codes and PCM exactly (the in-graph sampler follows the
// host sampler's rules; LOOP_SAMPLING_DIFFERS names the float32 boundary case, which these requests do
// not hit); the loop path has its own golden; batch invariance (alone vs beside two batch-mates) holds
// bit for bit. UPDATE_GOLDEN=1 rewrites the golden.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { referenceSynthesis } from './reference-synthesis';
import { encodeWav } from '../audio/wav-encode';
import { runAndCollect } from './testing/run-and-collect';

const GOLDEN_FILE = path.resolve(import.meta.dirname, 'golden/tiny-engine-loop.json');

const SAMPLED: SynthesisRequest[] = [
  { requestId: 'a', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 14 } },
  { requestId: 'b', input: '你好，世界。', inputFormat: 'text', voice: 'dylan', language: 'chinese', seed: 7, params: { maxNewTokens: 9 } },
  { requestId: 'c', input: 'Short.', inputFormat: 'text', voice: 'sohee', language: 'auto', seed: 123, params: { maxNewTokens: 11, subtalkerTopK: 5, subtalkerTopP: 0.8 } },
];
/** Greedy code predictor (subtalkerDoSample false); codebook 0 still sampled on the host. */
const GREEDY: SynthesisRequest[] = SAMPLED.map((r) => ({ ...r, requestId: `${r.requestId}-greedy`, params: { ...r.params, subtalkerDoSample: false } }));

let loop: Engine;
let step: Engine;

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  loop = await createEngine({ modelDir: builtDir, config: { provider: 'cpu' }, log: () => {} });
  step = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
});

afterAll(async () => {
  await loop?.dispose();
  await step?.dispose();
});

describe('engine with the code-predictor loop graph (tiny, CPU)', () => {
  it('drives the loop graph by default, one call per frame for the whole batch', async () => {
    expect(loop.parts.manifest.defaultCodePredictor).toBe('loop');
    const cp = loop.parts.stages.codePredictor as unknown as { runBatchSizes: number[] };
    expect(cp.constructor.name).toBe('OrtCodePredictorLoop');
    const numBefore = cp.runBatchSizes.length;
    const runs = await runAndCollect(loop, SAMPLED);
    // one call per step while any row runs: the longest request has 14 frames
    expect(cp.runBatchSizes.length - numBefore).toBe(Math.max(...[...runs.values()].map((r) => r.codes.length)));
    expect(cp.runBatchSizes[numBefore]).toBe(3);
  });

  it('gives exactly the step path codes and PCM bytes when the code predictor is greedy', async () => {
    const fromLoop = await runAndCollect(loop, GREEDY);
    const fromStep = await runAndCollect(step, GREEDY);
    for (const r of GREEDY) {
      expect(fromLoop.get(r.requestId)!.codes).toEqual(fromStep.get(r.requestId)!.codes);
      expect(fromLoop.get(r.requestId)!.pcmSha256).toBe(fromStep.get(r.requestId)!.pcmSha256);
    }
  });

  it("draws the step path's sampled codebooks 1..15 (host rules: ties with the k-th kept, id-order inverse CDF), so codes and PCM bytes match", async () => {
    const fromLoop = await runAndCollect(loop, SAMPLED);
    const fromStep = await runAndCollect(step, SAMPLED);
    for (const r of SAMPLED) {
      const a = fromLoop.get(r.requestId)!;
      const b = fromStep.get(r.requestId)!;
      expect(a.codes.length).toBeGreaterThan(1);
      expect(a.codes).toEqual(b.codes);
      expect(a.pcmSha256).toBe(b.pcmSha256);
    }
  });

  it('reproduces its own golden codes and WAV hash on the unbatched reference path', async () => {
    const p = loop.parts;
    const golden: Record<string, { codes: number[][]; wavPcm16Sha256: string }> = {};
    for (const r of SAMPLED) {
      const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
      golden[r.requestId] = { codes: ref.codes, wavPcm16Sha256: createHash('sha256').update(encodeWav(ref.pcm, 24000, 'pcm16')).digest('hex') };
    }
    if (process.env.UPDATE_GOLDEN === '1') {
      fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify({ about: 'tiny model (seed 1), loop code predictor, reference path; regenerate with UPDATE_GOLDEN=1', requests: SAMPLED, golden }, null, 1)}\n`);
    }
    expect(golden).toEqual(JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')).golden);
  });

  it('gives each sampled request the same codes and PCM bytes alone as with two batch-mates', async () => {
    const together = await runAndCollect(loop, SAMPLED);
    for (const r of SAMPLED) {
      const alone = (await runAndCollect(loop, [r])).get(r.requestId)!;
      expect(together.get(r.requestId)).toEqual(alone);
    }
  });
});
