/**
 * Builds and sizes the talker's KV store from the resolved plan (engine-plan.ts resolves kvCache 'auto'):
 * the host store, or the device store with its downloader and on-device regrouper, over a pool of the
 * engine's one KV size (kv-capacity.ts).
 */
import type { ModelManifest } from '../../model-format/manifest';
import type { ResolvedEngineConfig } from '../engine-plan';
import { buildCopyGraph, buildRegroupGraph, copyInputName, copyOutputName, REGROUP_CAPACITY, REGROUP_ROWS, regroupOutputName, regroupSourceName } from '../../model-format/copy-graph';
import { createSession, runSession, tensor, type ProviderName } from '../runtime/ort';
import { PROVIDERS } from '../runtime/providers';
import { sessionsByCount } from '../runtime/sessions-by-count';
import { DeviceKvStore, type TensorDownloader, type TensorRegrouper } from './device-kv-store';
import { HostKvPool } from './host-kv-pool';
import { HostKvStore } from './host-kv-store';
import type { TalkerKvStore } from './kv-store';
import type { KvSize } from '../../scheduler/kv-budget';
import { kvCapacityFor } from './kv-capacity';
import type { OrtTalkerOptions } from '../stages/talker';

/**
 * A downloader for device-resident tensors: one run of a copy graph on `provider` whose outputs stay
 * on the host (Tensor.getData() on a WebGPU tensor aborted the process in onnxruntime-node 1.29.0, the pinned version).
 */
async function copySessionDownloader(count: number, elemType: 'float32' | 'float16', provider: ProviderName): Promise<{ download: TensorDownloader; release: () => Promise<void> }> {
  const session = await createSession(buildCopyGraph(count, elemType, 4), { provider, intraOpNumThreads: 1 });
  return {
    download: async (tensors) => {
      const out = await runSession(session, Object.fromEntries(tensors.map((t, i) => [copyInputName(i), t])));
      return tensors.map((_, i) => out[copyOutputName(i)].data as ArrayLike<number>);
    },
    release: () => session.release(),
  };
}

/** Regroups device tensors with one session per source count (opened on first use), outputs left on the device. */
function sessionRegrouper(count: number, elemType: 'float32' | 'float16', provider: ProviderName): { regroup: TensorRegrouper; release: () => Promise<void> } {
  const outputs = Array.from({ length: count }, (_, i) => regroupOutputName(i));
  const sessions = sessionsByCount((n) => buildRegroupGraph(n, count, elemType), { provider, intraOpNumThreads: 1, ...(PROVIDERS[provider].gpuBufferOutputs ? { gpuOutputs: outputs } : {}) });
  return {
    regroup: async (sources, rows, capacity) => {
      const feeds: Record<string, ReturnType<typeof tensor>> = {
        [REGROUP_ROWS]: tensor('int64', BigInt64Array.from(rows, BigInt), [rows.length]),
        [REGROUP_CAPACITY]: tensor('int64', BigInt64Array.of(BigInt(capacity)), [1]),
      };
      sources.forEach((tensors, s) => tensors.forEach((t, i) => (feeds[regroupSourceName(s, i)] = t)));
      const out = await runSession(await sessions.open(sources.length), feeds, outputs);
      return outputs.map((n) => out[n]);
    },
    release: sessions.release,
  };
}

/** The KV settings and batch limits a store is built by, 'auto' resolved. */
type KvConfig = Pick<ResolvedEngineConfig, 'kvCache' | 'maxSequenceTokens' | 'maxRunningSequences'>;

/** The store over a pool of `capacity` (kv-capacity.ts: the size the scheduler admits by too). */
export async function createTalkerKvStore(manifest: ModelManifest, config: KvConfig, provider: ProviderName, capacity: Readonly<KvSize>): Promise<TalkerKvStore> {
  const k = config.kvCache;
  const maxBlocks = capacity.numBlocks;
  const initialBlocks = Math.min(maxBlocks, k.initialBlocks > 0 ? k.initialBlocks : config.maxRunningSequences * 4);
  const t = manifest.talker;
  const dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  const pool = new HostKvPool({ dims: { numLayers: t.numLayers, numKvHeads: t.numKvHeads, headDim: t.headDim, blockPositions: capacity.blockTokens }, dtype, initialBlocks, maxBlocks });
  if (config.kvCache.mode === 'host') return new HostKvStore(pool, dtype);
  const copier = await copySessionDownloader(t.numLayers * 2, dtype, provider);
  const regrouper = k.regroupOnDevice ? sessionRegrouper(t.numLayers * 2, dtype, provider) : null;
  const release = async () => {
    await copier.release();
    await regrouper?.release();
  };
  return new DeviceKvStore(pool, dtype, copier.download, release, regrouper?.regroup ?? null);
}

/** OrtTalker options for a provider: its KV store (over a pool of `capacity`), capacity step and the row buckets of decode and prefill runs (null: none). */
export async function talkerOptionsFor(
  manifest: ModelManifest,
  config: KvConfig,
  provider: ProviderName,
  bucketRows: { decode: number; prefill: number } | null,
  capacity: Readonly<KvSize> = kvCapacityFor(manifest, config),
): Promise<OrtTalkerOptions> {
  const kv = await createTalkerKvStore(manifest, config, provider, capacity);
  return { kv, blockPositions: capacity.blockTokens, bucketRows: bucketRows?.decode ?? 0, prefillBucketRows: bucketRows?.prefill ?? 0 };
}
