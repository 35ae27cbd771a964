/**
 * Scheduler knobs, in one place: batch limits, queue bound, dynamic-batching wait, aging and the
 * per-request deadline. The KV budget is the engine's pool size (KvSize, kv-budget.ts), not a setting here. defaultSchedulerConfig() is complete; resolveSchedulerConfig()
 * rejects unknown keys and wrong types naming the key path, and returns a frozen value;
 * fifoSchedulerConfig() is what an engine without a host runs by. Pure.
 */
import { StudioError } from '../../src-shared/errors';

export interface SchedulerConfig {
  /** Sequences decoded together in one step (1 = serial baseline). */
  maxRunningSequences: number;
  /** Prompt tokens admitted (prefilled) in one step. */
  maxBatchTokens: number;
  /** Requests allowed to wait; beyond it submit() rejects with 'busy' (HTTP 429). */
  maxQueueDepth: number;
  /** With nothing running, wait up to this long for more arrivals before a partial batch starts. */
  maxWaitMs: number;
  /** Batch size that ends the dynamic-batching wait (and the join wait) early. */
  targetBatchSize: number;
  /**
   * With sequences running, bulk arrivals wait up to this long so that several join in one step
   * (one prefill run and one KV regroup instead of one each); 0 admits them at the next step.
   */
  joinWaitMs: number;
  /** A bulk request waiting longer than this is ordered as interactive (no starvation). */
  agingMs: number;
  /** Seconds suggested to a rejected client (Retry-After). */
  retryAfterS: number;
  /**
   * Deadline of every sequence, counted from its arrival (queue time included): past it the sequence
   * is removed with reason 'timeout' and its KV blocks are freed. A request's own deadlineMs may only
   * shorten it; 0 turns this default off. 10 minutes covers the longest sequence the default engine
   * admits (4,096 frames of 80 ms = 328 s of audio) up to a real-time factor of 1.8; raise it on
   * slower devices.
   */
  requestTimeoutMs: number;
}

/**
 * What a Scheduler runs by: the scheduler.* settings, plus a cap on the sequences admitted in one
 * step (engine.maxPrefillSequences, with a host or without; unset: only maxBatchTokens caps a step).
 */
export type SchedulerLimits = SchedulerConfig & { maxPrefillSequences?: number };

export function defaultSchedulerConfig(): SchedulerConfig {
  return {
    maxRunningSequences: 16,
    maxBatchTokens: 4096,
    maxQueueDepth: 256,
    maxWaitMs: 0,
    targetBatchSize: 8,
    joinWaitMs: 0,
    agingMs: 10_000,
    retryAfterS: 1,
    requestTimeoutMs: 600_000,
  };
}

const MIN: Record<keyof SchedulerConfig, number> = {
  maxRunningSequences: 1,
  maxBatchTokens: 1,
  maxQueueDepth: 0,
  maxWaitMs: 0,
  targetBatchSize: 1,
  joinWaitMs: 0,
  agingMs: 0,
  retryAfterS: 0,
  requestTimeoutMs: 0,
};

/** Settings that moved, and where: the KV budget is the engine's one pool size (engine/kv/kv-capacity.ts). */
const MOVED: Record<string, string> = {
  kvCapacityTokens: 'the KV capacity is the engine pool\'s, engine.kvCache.maxBlocks × engine.kvCache.blockPositions (0 blocks: maxRunningSequences × maxSequenceTokens; under a host at most half the free memory)',
  kvBlockTokens: 'the KV block size is engine.kvCache.blockPositions, one size for admission and the pool',
};

/** Settings in milliseconds that may be fractional. */
const FRACTIONAL = new Set<keyof SchedulerConfig>(['maxWaitMs', 'joinWaitMs', 'agingMs']);

export function resolveSchedulerConfig(overrides: Record<string, unknown> = {}, keyPrefix = 'scheduler'): Readonly<SchedulerConfig> {
  const config = defaultSchedulerConfig();
  for (const [key, value] of Object.entries(overrides)) {
    const moved = MOVED[key];
    if (moved) throw new StudioError('invalid-argument', `${keyPrefix}.${key} is no longer a setting: ${moved}`, { field: `${keyPrefix}.${key}` });
    if (!(key in config)) {
      throw new StudioError('invalid-argument', `unknown setting ${keyPrefix}.${key}; valid settings: ${Object.keys(config).join(', ')}`, { field: `${keyPrefix}.${key}` });
    }
    const k = key as keyof SchedulerConfig;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN[k] || (!FRACTIONAL.has(k) && !Number.isInteger(value))) {
      throw new StudioError('invalid-argument', `${keyPrefix}.${key} must be a number ≥ ${MIN[k]}${FRACTIONAL.has(k) ? '' : ' (integer)'}, got ${JSON.stringify(value)}`, {
        field: `${keyPrefix}.${key}`,
      });
    }
    config[k] = value;
  }
  return Object.freeze(config);
}

/**
 * The scheduler of an engine run without a host (tests, goldens, benches): FIFO in submission order,
 * up to maxPrefillSequences admitted per step and maxRunningSequences running; no priorities (agingMs
 * 0 ranks every waiting sequence alike), no queue bound, no batching waits and no default deadline; its
 * KV budget is the engine's pool size, as under a host. The engine host builds its
 * engine with the host's limits instead (engine-host/scheduler-config.ts).
 */
export function fifoSchedulerConfig(limits: { maxRunningSequences: number; maxPrefillSequences: number }): Readonly<SchedulerLimits> {
  return Object.freeze({
    ...defaultSchedulerConfig(),
    maxRunningSequences: limits.maxRunningSequences,
    maxPrefillSequences: limits.maxPrefillSequences,
    maxBatchTokens: Infinity,
    maxQueueDepth: Infinity,
    maxWaitMs: 0,
    joinWaitMs: 0,
    agingMs: 0,
    requestTimeoutMs: 0,
  });
}
