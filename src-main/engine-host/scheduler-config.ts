/**
 * The host's scheduler settings: the defaults, the engine's batch limit, and a KV budget that fits
 * the machine's free memory, under the user's overrides. The host builds its Scheduler from them
 * and hands it to the engine (synthesis-service.ts), which runs every step by it.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import os from 'node:os';
import type { ModelManifest } from '../model-format/manifest';
import { resolveSchedulerConfig, type SchedulerConfig } from '../scheduler/batch-policy';

/** KV bytes one position of one sequence takes in the talker (keys + values, fp32 or fp16). */
export function kvBytesPerPosition(manifest: Pick<ModelManifest, 'talker' | 'dtype'>): number {
  const t = manifest.talker;
  return 2 * t.numLayers * t.numKvHeads * t.headDim * (manifest.dtype === 'fp16' ? 2 : 4);
}

/** Scheduler config: defaults, the engine's batch limit, a KV budget that fits in half the free memory, then overrides. */
export function schedulerConfigFor(
  manifest: Pick<ModelManifest, 'talker' | 'dtype'>,
  engineLimits: { maxRunningSequences: number },
  overrides: Record<string, unknown>,
  freeMemoryBytes = os.freemem(),
): Readonly<SchedulerConfig> {
  const fitsTokens = Math.floor((freeMemoryBytes * 0.5) / kvBytesPerPosition(manifest));
  const base = resolveSchedulerConfig({ maxRunningSequences: engineLimits.maxRunningSequences });
  return resolveSchedulerConfig({
    maxRunningSequences: base.maxRunningSequences,
    kvCapacityTokens: Math.max(base.kvBlockTokens, Math.min(base.kvCapacityTokens, fitsTokens)),
    ...overrides,
  });
}
