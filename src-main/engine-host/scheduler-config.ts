/**
 * The host's scheduler settings: the defaults and the engine's batch limits (maxRunningSequences, and
 * maxPrefillSequences per step), under the user's overrides; and the memory the host lets the engine's
 * KV pool take, which sizes the pool and admission alike (engine/kv/kv-capacity.ts). The host's engine
 * is built with a Scheduler of these limits (createEngine's schedulerFor and kvMemoryBytes,
 * synthesis-service.ts) and runs every step by it.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import os from 'node:os';
import { resolveSchedulerConfig, type SchedulerLimits } from '../scheduler/batch-policy';

/**
 * Scheduler limits: defaults, the engine's batch limits, then overrides (scheduler.* settings;
 * maxPrefillSequences is the engine's, not one of them).
 */
export function schedulerConfigFor(
  engineLimits: { maxRunningSequences: number; maxPrefillSequences: number },
  overrides: Record<string, unknown>,
): Readonly<SchedulerLimits> {
  const config = resolveSchedulerConfig({ maxRunningSequences: engineLimits.maxRunningSequences, ...overrides });
  return Object.freeze({ ...config, maxPrefillSequences: engineLimits.maxPrefillSequences });
}

/** The memory a hosted engine's KV pool may take: half the free memory. */
export function hostKvMemoryBytes(freeMemoryBytes = os.freemem()): number {
  return freeMemoryBytes * 0.5;
}
