/**
 * The host's scheduler settings: the defaults, the engine's batch limits (maxRunningSequences, and
 * maxPrefillSequences per step), and a KV budget that fits the machine's free memory, under the
 * user's overrides. The host's engine is built with a Scheduler of these limits (createEngine's
 * schedulerFor, synthesis-service.ts) and runs every step by it.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import os from 'node:os';
import type { ModelManifest } from '../model-format/manifest';
import { resolveSchedulerConfig, type SchedulerLimits } from '../scheduler/batch-policy';

/** KV bytes one position of one sequence takes in the talker (keys + values, fp32 or fp16). */
export function kvBytesPerPosition(manifest: Pick<ModelManifest, 'talker' | 'dtype'>): number {
  const t = manifest.talker;
  return 2 * t.numLayers * t.numKvHeads * t.headDim * (manifest.dtype === 'fp16' ? 2 : 4);
}

/**
 * Scheduler limits: defaults, the engine's batch limits, a KV budget that fits in half the free
 * memory, then overrides (scheduler.* settings; maxPrefillSequences is the engine's, not one of them).
 */
export function schedulerConfigFor(
  manifest: Pick<ModelManifest, 'talker' | 'dtype'>,
  engineLimits: { maxRunningSequences: number; maxPrefillSequences: number },
  overrides: Record<string, unknown>,
  freeMemoryBytes = os.freemem(),
): Readonly<SchedulerLimits> {
  const fitsTokens = Math.floor((freeMemoryBytes * 0.5) / kvBytesPerPosition(manifest));
  const base = resolveSchedulerConfig({ maxRunningSequences: engineLimits.maxRunningSequences });
  const config = resolveSchedulerConfig({
    maxRunningSequences: base.maxRunningSequences,
    kvCapacityTokens: Math.max(base.kvBlockTokens, Math.min(base.kvCapacityTokens, fitsTokens)),
    ...overrides,
  });
  return Object.freeze({ ...config, maxPrefillSequences: engineLimits.maxPrefillSequences });
}
