// The talker's one KV size: kvCache.maxBlocks or enough for maxRunningSequences full sequences, in
// blocks of kvCache.blockPositions, bounded by the memory it may take; the scheduler admits by it.
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from '../engine-config';
import { Scheduler } from '../../scheduler/scheduler';
import { resolveSchedulerConfig } from '../../scheduler/batch-policy';
import { kvBytesPerPosition, kvCapacityFor } from './kv-capacity';

const shape = { talker: { numLayers: 2, numKvHeads: 4, headDim: 16 }, dtype: 'fp32' } as Parameters<typeof kvCapacityFor>[0];

describe('kvCapacityFor', () => {
  it('counts keys and values of every layer, at the dtype width', () => {
    // 2 (K, V) × 2 layers × 4 heads × 16 dims × 4 bytes = 1,024 bytes; fp16 half that
    expect(kvBytesPerPosition(shape)).toBe(1024);
    expect(kvBytesPerPosition({ ...shape, dtype: 'fp16' })).toBe(512);
  });

  it('holds maxRunningSequences sequences of maxSequenceTokens by default, or kvCache.maxBlocks, in blocks of kvCache.blockPositions', () => {
    // 8 sequences × ceil(4,096 / 64) = 512 blocks
    expect(kvCapacityFor(shape, resolveEngineConfig({}))).toEqual({ numBlocks: 512, blockTokens: 64 });
    // 2 × ceil(100 / 32) = 8 blocks of 32
    expect(kvCapacityFor(shape, resolveEngineConfig({ maxRunningSequences: 2, maxPrefillSequences: 2, maxSequenceTokens: 100, kvCache: { blockPositions: 32 } }))).toEqual({ numBlocks: 8, blockTokens: 32 });
    expect(kvCapacityFor(shape, resolveEngineConfig({ kvCache: { maxBlocks: 40 } }))).toEqual({ numBlocks: 40, blockTokens: 64 });
  });

  it('takes no more than the memory it is given, and at least one block', () => {
    // one block of 64 positions is 64 KiB: 1 MiB holds 16
    expect(kvCapacityFor(shape, resolveEngineConfig({}), 1 << 20).numBlocks).toBe(16);
    expect(kvCapacityFor(shape, resolveEngineConfig({}), 1).numBlocks).toBe(1);
  });

  it('is the budget admission reserves from: a sequence larger than the pool is refused, naming the engine setting', () => {
    const kv = kvCapacityFor(shape, resolveEngineConfig({ kvCache: { maxBlocks: 2 } }));
    const scheduler = new Scheduler(resolveSchedulerConfig({}), { nowMs: () => 0 }, kv);
    expect(scheduler.kvPool.numBlocks).toBe(2);
    expect(() => scheduler.submit({ id: 'big', priority: 'interactive', numPromptTokens: 100, maxNewTokens: 100 })).toThrowError(/needs 200 KV positions but the pool holds 128; .*engine\.kvCache\.maxBlocks/);
  });
});
