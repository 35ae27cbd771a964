/**
 * The one size of the talker's KV pool, sized once per engine (createEngine): the pool never holds
 * more blocks (kv/create-kv-store.ts), and the scheduler's admission reserves the same blocks of the
 * same size (scheduler/kv-budget.ts), so an admitted sequence always finds room in the pool.
 */
import type { ModelManifest } from '../../model-format/manifest';
import type { KvSize } from '../../scheduler/kv-budget';
import { defaultConcurrency, type EngineConfig } from '../engine-config';

/** KV bytes one position of one sequence takes in the talker (keys + values of every layer, fp32 or fp16). */
export function kvBytesPerPosition(manifest: { talker: Pick<ModelManifest['talker'], 'numLayers' | 'numKvHeads' | 'headDim'>; dtype: ModelManifest['dtype'] }): number {
  const t = manifest.talker;
  return 2 * t.numLayers * t.numKvHeads * t.headDim * (manifest.dtype === 'fp16' ? 2 : 4);
}

/**
 * Blocks of kvCache.blockPositions: kvCache.maxBlocks, or (0) enough for maxRunningSequences sequences
 * of maxSequenceTokens; at most what fits in `memoryBytes` (the engine host passes half the free
 * memory; default: no bound), and at least one block.
 */
export function kvCapacityFor(
  manifest: Pick<ModelManifest, 'talker' | 'dtype'>,
  config: Pick<EngineConfig, 'kvCache' | 'maxSequenceTokens' | 'maxRunningSequences'>,
  memoryBytes = Infinity,
): Readonly<KvSize> {
  const blockTokens = config.kvCache.blockPositions;
  // an engine built without a plan reads 'auto' as the narrow default (createEngine passes the plan's number)
  const running = config.maxRunningSequences === 'auto' ? defaultConcurrency().maxRunningSequences : config.maxRunningSequences;
  const wanted = config.kvCache.maxBlocks > 0 ? config.kvCache.maxBlocks : running * Math.ceil(config.maxSequenceTokens / blockTokens);
  const fits = Math.floor(memoryBytes / (kvBytesPerPosition(manifest) * blockTokens));
  return Object.freeze({ numBlocks: Math.max(1, Math.min(wanted, fits)), blockTokens });
}
