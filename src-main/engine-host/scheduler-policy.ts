/**
 * Plugs the scheduler (src-main/scheduler/) into the engine as its AdmissionPolicy: each step it
 * mirrors the engine's waiting/running sets into the scheduler (new arrivals submitted, finished
 * and vanished sequences released), then admits what schedule() picks. Deadlines that expire are
 * handed back through onExpired so the host can cancel them with a 'timeout' outcome.
 */
import os from 'node:os';
import { StudioError } from '../../src-shared/errors';
import type { AdmissionPolicy } from '../engine/admission-policy';
import type { Sequence } from '../engine/sequence';
import type { ModelManifest } from '../model-builder/manifest';
import { resolveSchedulerConfig, type SchedulerConfig } from '../scheduler/batch-policy';
import { Scheduler, type Clock } from '../scheduler/scheduler';

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

export class SchedulerAdmissionPolicy implements AdmissionPolicy {
  readonly scheduler: Scheduler;
  private readonly known = new Map<string, Sequence>();

  constructor(
    readonly config: Readonly<SchedulerConfig>,
    clock: Clock,
    private readonly onExpired: (requestId: string) => void,
  ) {
    this.scheduler = new Scheduler(config, clock);
  }

  /** Admission control before a request enters the engine: 'busy' when the queue is full. */
  checkCapacity(numWaiting: number, numNewSequences: number): void {
    if (numWaiting + numNewSequences > this.config.maxQueueDepth) {
      this.scheduler.noteRejected();
      throw new StudioError('busy', `the queue is full (${numWaiting} waiting, limit ${this.config.maxQueueDepth}); retry after ${this.config.retryAfterS} s`, {
        retryAfterS: this.config.retryAfterS,
        queueDepth: numWaiting,
      });
    }
  }

  admit(waiting: readonly Sequence[], running: readonly Sequence[]): Sequence[] {
    const live = new Set([...waiting, ...running].map((s) => String(s.id)));
    for (const [key] of this.known) {
      if (!live.has(key)) {
        this.scheduler.forget(key);
        this.known.delete(key);
      }
    }
    for (const s of waiting) {
      const key = String(s.id);
      if (this.known.has(key)) continue;
      this.known.set(key, s);
      this.scheduler.submit({
        id: key,
        priority: s.request.priority ?? 'interactive',
        numPromptTokens: s.prompt.rows.length,
        maxNewTokens: s.maxFrames,
        deadlineAtMs: s.request.deadlineMs !== undefined ? s.times.enqueuedMs + s.request.deadlineMs : undefined,
      });
    }
    const { batch, removed } = this.scheduler.schedule();
    for (const r of removed) {
      const s = this.known.get(r.sequence.id);
      if (s) this.onExpired(s.request.requestId);
    }
    if (batch.kind === 'idle') return [];
    return batch.admit.map((a) => this.known.get(a.id)!).filter((s) => s !== undefined);
  }
}
