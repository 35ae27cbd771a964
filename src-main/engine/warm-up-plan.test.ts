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
    // decode runs of talkerRows 8 (one real row, padded); capacities 64, 128, … 4096 = 64 buckets, 16 kept
    expect(w.talker.map((t) => t.capacity)).toEqual(Array.from({ length: 16 }, (_, i) => 64 * (i + 1)));
    expect(new Set(w.talker.map((t) => `${t.rows}/${t.numRealRows}`))).toEqual(new Set(['8/1']));
    expect(w.numLeftOut.talker).toBe(64 - 16);
    // their KV buffers: 8 rows × (64 + 128 + … + 1024 positions = 64 × 136) × 114,688 bytes; the 48 cold ones 8 × 64 × (2080 − 136) × 114,688
    expect(w.talkerBytes).toEqual({ warmed: 8 * 64 * 136 * 114688, leftOut: 8 * 64 * (2080 - 136) * 114688 });
    // full-row buckets: every codec call is 8 rows; frames 1, 2, 4, 8 (the schedule), then final chunks 3, 5, 6, 7
    expect(w.codec).toEqual([1, 2, 4, 8, 3, 5, 6, 7].map((frames) => ({ rows: 8, frames })));
    // code predictor: one real row padded to codePredictorRows, sampled (top_k 50) and greedy (top_k 1)
    expect(w.codePredictor.map((c) => [c.numRealRows, c.warpers.doSample, c.warpers.topK])).toEqual([[1, true, 50], [1, false, 1]]);
    expect(w.numLeftOut.codec + w.numLeftOut.codePredictor).toBe(0);
  });

  it('follows the config: a larger maxBuckets keeps more capacities, a shorter maxSequenceTokens has fewer', () => {
    expect(planWarmUp(cudaPlan({ graphCapture: { mode: 'on', maxBuckets: 64 } }), GENERATION).talker).toHaveLength(64);
    // 300 tokens: capacities 64, 128, 192, 256, 320
    const short = planWarmUp(cudaPlan({ maxSequenceTokens: 300 }), GENERATION);
    expect(short.talker.map((t) => t.capacity)).toEqual([64, 128, 192, 256, 320]);
    expect(short.numLeftOut.talker).toBe(0);
  });

  it("keeps a wide plan's talker buckets within half the device's memory, and only a small device's count limit where they fit", () => {
    // 80 GiB and 64-row buckets (set by hand: CUDA has no wide 'auto' yet); bucket k (capacity 64k) holds 64 × 64k × 114,688 bytes, and
    // 64 × 64 × 114,688 × k(k + 1)/2 ≤ 40 GiB holds for k ≤ 13 (91 × 469,762,048 = 42.7e9 ≤ 42.9e9; 14 would be 49.3e9)
    const wide = planWarmUp(cudaPlan({ maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, codePredictorRows: 64 } }, 80 * GIB), GENERATION);
    expect(new Set(wide.talker.map((t) => t.rows))).toEqual(new Set([64]));
    expect(wide.talker).toHaveLength(13);
    expect(wide.numLeftOut.talker).toBe(64 - 13);
    expect(wide.talkerBytes.warmed).toBe(64 * 64 * 91 * 114688);
    expect(wide.talkerBytes.warmed).toBeLessThanOrEqual(40 * GIB);
    // the narrow shapes on the same device: 16 buckets of 8 rows take 7.4 GiB, so the count limit cuts, as before
    const narrow = planWarmUp(cudaPlan({ maxRunningSequences: 8 }, 80 * GIB), GENERATION);
    expect(narrow.talker).toHaveLength(16);
    // host buffers (the CPU runs the bound graphs in host memory): no memory cut
    const cpu = planWarmUp(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, shapeBuckets: { mode: 'on', talkerRows: 64 } }), 'cpu', FACTS, {}, { deviceMemoryBytes: 1 * GIB }), GENERATION);
    expect(cpu.talker).toHaveLength(16);
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
