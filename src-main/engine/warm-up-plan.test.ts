// The warm-up plan (warm-up-plan.ts) from resolved engine plans: the buckets a CUDA engine with graph
// capture can open (shape buckets on, full-row buckets), cut at graphCapture.maxBuckets with the rest
// counted; the codec's frame counts from the chunk schedule; when 'auto' warms up.
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from './engine-config';
import { planEngine } from './engine-plan';
import { codecFrameCounts, planWarmUp, type WarmUpFacts } from './warm-up-plan';

const FACTS = { talker: { hiddenSize: 1024, numLayers: 28, numKvHeads: 8, headDim: 128 }, dtype: 'fp16' as const, defaultCodePredictor: 'loop' as const };
const GENERATION = { generation: { subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1 }, talker: FACTS.talker, dtype: FACTS.dtype } as unknown as WarmUpFacts;
const GIB = 1024 ** 3;
const cudaPlan = (overrides: Record<string, unknown> = {}, deviceMemoryBytes: number | null = null) => planEngine(resolveEngineConfig({ provider: 'cuda', graphCapture: { mode: 'on' }, ...overrides }), 'cuda', FACTS, {}, { deviceMemoryBytes });

describe('warm-up plan', () => {
  it('lists a CUDA engine\'s talker capacities smallest first, cut at maxBuckets, and its codec buckets over the chunk schedule', () => {
    const w = planWarmUp(cudaPlan(), GENERATION);
    // decode runs of talkerRows 8 (one real row, padded); capacities double from 64 to 4096: 7 buckets, within maxBuckets 16
    expect(w.talker.map((t) => t.capacity)).toEqual([64, 128, 256, 512, 1024, 2048, 4096]);
    expect(new Set(w.talker.map((t) => `${t.rows}/${t.numRealRows}`))).toEqual(new Set(['8/1']));
    expect(w.numLeftOut.talker).toBe(0);
    // their KV buffers: 8 rows × (64 + 128 + … + 4096 = 8128 positions) × 114,688 bytes
    expect(w.talkerBytes).toEqual({ warmed: 8 * 8128 * 114688, leftOut: 0 });
    // full-row buckets: every codec call is 8 rows; frames 1, 2, 4, 8 (the schedule), then final chunks 3, 5, 6, 7
    expect(w.codec).toEqual([1, 2, 4, 8, 3, 5, 6, 7].map((frames) => ({ rows: 8, frames })));
    // code predictor: one real row padded to codePredictorRows, sampled (top_k 50) and greedy (top_k 1)
    expect(w.codePredictor.map((c) => [c.numRealRows, c.warpers.doSample, c.warpers.topK])).toEqual([[1, true, 50], [1, false, 1]]);
    expect(w.numLeftOut.codec + w.numLeftOut.codePredictor).toBe(0);
  });

  it('follows the config: a smaller maxBuckets keeps fewer capacities, a shorter maxSequenceTokens has fewer', () => {
    const few = planWarmUp(cudaPlan({ graphCapture: { mode: 'on', maxBuckets: 3 } }), GENERATION);
    expect(few.talker.map((t) => t.capacity)).toEqual([64, 128, 256]);
    expect(few.numLeftOut.talker).toBe(4);
    // 300 tokens: capacities 64, 128, 256, 512
    const short = planWarmUp(cudaPlan({ maxSequenceTokens: 300 }), GENERATION);
    expect(short.talker.map((t) => t.capacity)).toEqual([64, 128, 256, 512]);
    expect(short.numLeftOut.talker).toBe(0);
  });

  it("keeps a wide plan's talker buckets within half the device's memory, and cuts a small device's by memory", () => {
    // 80 GiB and 64-row buckets (set by hand: CUDA has no wide 'auto' yet); the bucket at capacity c holds 64 × c × 114,688 bytes:
    // capacities 64 … 2048 (4,032 positions) take 29.6e9 ≤ 40 GiB (42.9e9); adding 4,096 would take 59.7e9
    const wide = planWarmUp(cudaPlan({ maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, codePredictorRows: 64 } }, 80 * GIB), GENERATION);
    expect(new Set(wide.talker.map((t) => t.rows))).toEqual(new Set([64]));
    expect(wide.talker.map((t) => t.capacity)).toEqual([64, 128, 256, 512, 1024, 2048]);
    expect(wide.numLeftOut.talker).toBe(1);
    expect(wide.talkerBytes).toEqual({ warmed: 64 * 4032 * 114688, leftOut: 64 * 4096 * 114688 });
    expect(wide.talkerBytes.warmed).toBeLessThanOrEqual(40 * GIB);
    // the narrow shapes on the same device: 7 buckets of 8 rows take 7.5 GiB, so nothing is cut
    const narrow = planWarmUp(cudaPlan({ maxRunningSequences: 8 }, 80 * GIB), GENERATION);
    expect(narrow.talker).toHaveLength(7);
    // a small device cuts by memory: 8 GiB holds 64-row buckets up to capacity 256 (3.3e9 ≤ 4 GiB)
    const small = planWarmUp(cudaPlan({ maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, codePredictorRows: 64 } }, 8 * GIB), GENERATION);
    expect(small.talker.map((t) => t.capacity)).toEqual([64, 128, 256]);
    // host buffers (the CPU runs the bound graphs in host memory): no memory cut
    const cpu = planWarmUp(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, shapeBuckets: { mode: 'on', talkerRows: 64 } }), 'cpu', FACTS, {}, { deviceMemoryBytes: 1 * GIB }), GENERATION);
    expect(cpu.talker).toHaveLength(7);
  });

  it('takes the codec frame counts from the chunk schedule, then the shorter final chunks', () => {
    expect(codecFrameCounts({ ...resolveEngineConfig({}).codec, mode: 'stream', stateStore: 'host', firstChunkFrames: 4, chunkFrames: 8 } as never)).toEqual([4, 8, 1, 2, 3, 5, 6, 7]);
    expect(codecFrameCounts({ ...resolveEngineConfig({}).codec, firstChunkFrames: 2, chunkFrames: 2 } as never)).toEqual([2, 1]);
  });

  it("warms up with 'auto' only where a stage is captured with a provider option (the plan resolves it)", () => {
    expect(cudaPlan().resolved.warmUp).toBe('on');
    expect(cudaPlan({ graphCapture: { mode: 'bound' } }).resolved.warmUp).toBe('off');
    expect(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' } }), 'cpu', FACTS, {}).resolved.warmUp).toBe('off');
    expect(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, warmUp: 'on' }), 'cpu', FACTS, {}).resolved.warmUp).toBe('on');
    expect(cudaPlan({ warmUp: 'off' }).resolved.warmUp).toBe('off');
  });
});
