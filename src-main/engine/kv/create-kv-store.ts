/**
 * Picks and sizes the talker's KV store for a provider: resolves kvCache 'auto' (device-resident on
 * WebGPU, host-resident elsewhere) and the pool's block counts derived from the batch limits.
 */
import type { ModelManifest } from '../../model-builder/manifest';
import type { EngineConfig } from '../engine-config';
import type { ProviderName } from '../runtime/ort';
import { DeviceKvStore } from './device-kv-store';
import { HostKvPool } from './host-kv-pool';
import { HostKvStore } from './host-kv-store';
import type { TalkerKvStore } from './kv-store';
import type { OrtTalkerOptions } from '../models/talker';

export function resolveKvStrategy(config: Pick<EngineConfig, 'kvCache'>, provider: ProviderName): 'host' | 'device' {
  if (config.kvCache.mode !== 'auto') return config.kvCache.mode;
  return provider === 'webgpu' ? 'device' : 'host';
}

export function createTalkerKvStore(manifest: ModelManifest, config: EngineConfig, provider: ProviderName): TalkerKvStore {
  const k = config.kvCache;
  const blocksPerSequence = Math.ceil(config.maxSequenceTokens / k.blockPositions);
  const maxBlocks = k.maxBlocks > 0 ? k.maxBlocks : config.maxRunningSequences * blocksPerSequence;
  const initialBlocks = Math.min(maxBlocks, k.initialBlocks > 0 ? k.initialBlocks : config.maxRunningSequences * 4);
  const t = manifest.talker;
  const dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  const pool = new HostKvPool({ dims: { numLayers: t.numLayers, numKvHeads: t.numKvHeads, headDim: t.headDim, blockPositions: k.blockPositions }, dtype, initialBlocks, maxBlocks });
  return resolveKvStrategy(config, provider) === 'device' ? new DeviceKvStore(pool, dtype) : new HostKvStore(pool, dtype);
}

/** OrtTalker options for a provider: its KV store, capacity step and row bucket (0: none). */
export function talkerOptionsFor(manifest: ModelManifest, config: EngineConfig, provider: ProviderName, bucketRows: number): OrtTalkerOptions {
  return { kv: createTalkerKvStore(manifest, config, provider), blockPositions: config.kvCache.blockPositions, bucketRows };
}
