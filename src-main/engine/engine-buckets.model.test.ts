// Shape buckets on ORT CPU, tiny model: with buckets forced on (talker runs of exactly 2 rows,
// code-predictor calls padded to 4, codec calls of at least 3 rows and at most 12 row-frames), three
// sampled requests get the same codes and PCM bytes as with buckets off (CPU's default), and the stages
// really ran at those shapes; so do they at the 64-row shapes of a wide CUDA engine (issue 42).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { fifoSchedulerConfig } from '../scheduler/batch-policy';
import { createEngine } from './create-engine';
import { resolveEngineConfig } from './engine-config';
import { planEngine } from './engine-plan';
import { loadModelManifest } from './stages/model-manifest';
import type { Engine } from './engine';
import { BucketedCodec, BucketedCodePredictor } from './stages/bucketed-stages';
import type { OrtCodecDecoder } from './stages/codec-decoder';
import type { OrtTalker } from './stages/talker';
import { runAndCollect } from './testing/run-and-collect';

const REQUESTS: SynthesisRequest[] = [
  { requestId: 'a', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 10 } },
  { requestId: 'b', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'dylan', language: 'english', seed: 7, params: { maxNewTokens: 8 } },
  { requestId: 'c', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'sohee', language: 'auto', seed: 123, params: { maxNewTokens: 9, subtalkerTopK: 5 } },
];

let plain: Engine;
let bucketed: Engine;
/** The limits createEngine handed the scheduler of `plain` (as it hands the engine host's). */
let plainLimits: { maxRunningSequences: number; maxPrefillSequences: number } | null = null;

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  plain = await createEngine({ modelDir: builtDir, config: { provider: 'cpu' }, log: () => {}, schedulerFor: (limits) => fifoSchedulerConfig((plainLimits = limits)) });
  bucketed = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', shapeBuckets: { mode: 'on', talkerRows: 2, talkerPrefillRows: 3, codePredictorRows: 4, codecMinRows: 3, codecMaxRowFrames: 12 } }, log: () => {} });
});

afterAll(async () => {
  await plain?.dispose();
  await bucketed?.dispose();
});

describe('engine shape buckets (tiny, CPU)', () => {
  it("hands the scheduler the plan's batch limits: 'auto' on the CPU is 8 running, 4 prefilled a step", () => {
    expect(plainLimits).toMatchObject({ maxRunningSequences: 8, maxPrefillSequences: 4 });
    expect(plain.status().plan).toMatchObject({ provider: 'cpu', concurrency: 'narrow', maxRunningSequences: 8, maxPrefillSequences: 4, shapeBuckets: 'off' });
  });

  it('leaves buckets off on CPU by default', () => {
    expect(plain.parts.stages.codePredictor).not.toBeInstanceOf(BucketedCodePredictor);
    expect(plain.parts.stages.codec).not.toBeInstanceOf(BucketedCodec);
  });

  it('gives the same codes and PCM bytes with buckets on as off, running every talker decode at exactly 2 rows, every prefill at 3 and every code-predictor call at 4', async () => {
    const expected = await runAndCollect(plain, REQUESTS);
    const got = await runAndCollect(bucketed, REQUESTS);
    expect(got.size).toBe(3);
    for (const r of REQUESTS) expect(got.get(r.requestId)).toEqual(expected.get(r.requestId));
    const cp = bucketed.parts.stages.codePredictor as BucketedCodePredictor;
    expect(cp.callSizes.length).toBeGreaterThan(0);
    expect(new Set(cp.callSizes)).toEqual(new Set([4]));
    const talker = bucketed.parts.stages.talker as OrtTalker;
    expect(talker.prefillRunBatchSizes.length).toBeGreaterThan(0);
    expect(new Set(talker.prefillRunBatchSizes)).toEqual(new Set([3]));
    expect(new Set(talker.runBatchSizes)).toEqual(new Set([2, 3]));
    expect(talker.runBatchSizes.filter((n) => n === 3)).toHaveLength(talker.prefillRunBatchSizes.length); // decode runs are all 2 rows
    const codec = bucketed.parts.stages.codec as BucketedCodec;
    expect(codec.callSizes.length).toBeGreaterThan(0);
    expect(Math.min(...codec.callSizes)).toBeGreaterThanOrEqual(3);
    expect(codec.streaming).toBe(true); // 'auto' streams the codec
  });

  it('splits codec calls so that rows × frames stays within codecMaxRowFrames', async () => {
    const codec = bucketed.parts.stages.codec as BucketedCodec;
    const inner = (codec as unknown as { inner: OrtCodecDecoder }).inner;
    const before = inner.runBatchSizes.length;
    const windows = Array.from({ length: 7 }, (_, b) => Array.from({ length: 4 }, (_, t) => Array.from({ length: 16 }, (_, q) => (b * 31 + t * 7 + q) % 2048)));
    const pcm = await codec.decodeBatch(windows);
    expect(pcm).toHaveLength(7);
    expect(inner.runBatchSizes.slice(before)).toEqual([3, 3, 3]); // 7 rows × 4 frames: calls of 3 + 2 + 2 rows (≤ 12 row-frames), each padded to 3
    expect([...pcm[6]]).toEqual([...(await inner.decode(windows[6]))]);
  });

  it("gives the same bytes at a wide CUDA plan's 64-row shapes (64 running, decode, predictor and codec padded to 64 rows, prefill one row a run) as with buckets off", async () => {
    const { builtDir } = await ensureTinyModel();
    // the shapes a wide CUDA engine plans (64 running and 16 admitted set by hand, as the cudawide variant does:
    // CUDA has no wide 'auto' yet; full-row buckets), run on the CPU's kernels
    const wideCounts = { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, codePredictorRows: 64 } };
    const cuda = planEngine(resolveEngineConfig(wideCounts), 'cuda', loadModelManifest(builtDir), {}, { deviceMemoryBytes: 80 * 1024 ** 3 }).resolved;
    expect([cuda.maxRunningSequences, cuda.shapeBuckets.talkerRows, cuda.shapeBuckets.talkerPrefillRows, cuda.shapeBuckets.codePredictorRows, cuda.shapeBuckets.codecMinRows]).toEqual([64, 64, 1, 64, 64]);
    const { mode: _mode, ...rows } = cuda.shapeBuckets;
    let limits: { maxRunningSequences: number; maxPrefillSequences: number } | null = null;
    const wide = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', maxRunningSequences: 64, maxPrefillSequences: cuda.maxPrefillSequences, shapeBuckets: { ...rows, mode: 'on' } }, log: () => {}, schedulerFor: (l) => fifoSchedulerConfig((limits = l)) });
    expect(limits).toMatchObject({ maxRunningSequences: 64, maxPrefillSequences: 16 });
    try {
      const expected = await runAndCollect(plain, REQUESTS);
      const got = await runAndCollect(wide, REQUESTS);
      for (const r of REQUESTS) expect(got.get(r.requestId)).toEqual(expected.get(r.requestId));
      const talker = wide.parts.stages.talker as OrtTalker;
      // decode runs at 64 rows, prefill runs at one
      expect(new Set(talker.runBatchSizes)).toEqual(new Set([1, 64]));
      expect(new Set((wide.parts.stages.codePredictor as BucketedCodePredictor).callSizes)).toEqual(new Set([64]));
    } finally {
      await wide.dispose();
    }
  });
});
