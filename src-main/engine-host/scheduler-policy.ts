/**
 * Plugs the scheduler (src-main/scheduler/) into the engine as its AdmissionPolicy: each step it
 * mirrors the engine's waiting/running sets into the scheduler (new arrivals submitted, finished
 * and vanished sequences released), then admits what schedule() picks. Sequences the scheduler ends
 * itself (deadline passed, never admissible) are handed back through onEnded with their error, so
 * the host cancels them in the engine and reports that error as their outcome.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import os from 'node:os';
import { StudioError, toStudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';
import type { AdmissionPolicy } from '../engine/admission-policy';
import type { Sequence } from '../engine/sequence';
import type { ModelManifest } from '../model-format/manifest';
import { resolveSchedulerConfig, type SchedulerConfig } from '../scheduler/batch-policy';
import { Scheduler, type Clock, type Removal } from '../scheduler/scheduler';

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

  /**
   * `onEnded(requestId, error)` hears of each sequence the scheduler ends on its own: past its
   * deadline ('timeout') or never admissible ('input-too-long'); the host cancels it in the engine
   * and reports the error as its outcome.
   */
  constructor(
    readonly config: Readonly<SchedulerConfig>,
    clock: Clock,
    private readonly onEnded: (requestId: string, error: StudioError) => void,
  ) {
    this.scheduler = new Scheduler(config, clock);
  }

  /**
   * Admission control before a request enters the engine. A request with more sequences than the
   * queue can ever hold fails for good ('input-too-long': retrying cannot help); one that only
   * finds the queue full now is 'busy' (retry after retryAfterS).
   */
  checkCapacity(numWaiting: number, numNewSequences: number): void {
    if (numNewSequences > this.config.maxQueueDepth) {
      this.scheduler.noteRejected();
      throw new StudioError(
        'input-too-long',
        `the request has ${formatCount(numNewSequences)} turn parts (one engine sequence each: a new one at every voice, language or prosody change and after every break) but at most ${formatCount(this.config.maxQueueDepth)} can be queued at once (scheduler.maxQueueDepth); split the document into several requests or raise maxQueueDepth`,
        { field: 'input', numTurns: numNewSequences, maxQueueDepth: this.config.maxQueueDepth },
      );
    }
    if (numWaiting + numNewSequences > this.config.maxQueueDepth) {
      this.scheduler.noteRejected();
      throw new StudioError('busy', `the queue is full (${numWaiting} waiting, limit ${this.config.maxQueueDepth}); retry after ${this.config.retryAfterS} s`, {
        retryAfterS: this.config.retryAfterS,
        queueDepth: numWaiting,
      });
    }
  }

  admit(waiting: readonly Sequence[], running: readonly Sequence[]): Sequence[] {
    const live = new Set<string>();
    for (const s of waiting) live.add(String(s.id));
    for (const s of running) live.add(String(s.id));
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
      try {
        this.scheduler.submit({
          id: key,
          priority: s.request.priority ?? 'interactive',
          numPromptTokens: s.prompt.rows.length,
          maxNewTokens: s.maxFrames,
          deadlineAtMs: s.request.deadlineMs !== undefined ? s.times.enqueuedMs + s.request.deadlineMs : undefined,
        });
      } catch (err) {
        // one request the scheduler refuses must not fail the step (and with it every other request)
        this.onEnded(s.request.requestId, toStudioError(err));
      }
    }
    const { batch, removed } = this.scheduler.schedule();
    for (const r of removed) {
      const s = this.known.get(r.sequence.id);
      if (s) this.onEnded(s.request.requestId, removalError(r));
    }
    if (batch.kind === 'idle') return [];
    return batch.admit.map((a) => this.known.get(a.id)!).filter((s) => s !== undefined);
  }
}

function removalError(r: Removal): StudioError {
  if (r.reason === 'cancelled') return new StudioError('cancelled', 'the request was cancelled');
  const limitMs = r.sequence.deadlineAtMs === undefined ? 0 : Math.round(r.sequence.deadlineAtMs - r.sequence.arrivalMs);
  return new StudioError(
    'timeout',
    `the request did not finish within its deadline of ${formatCount(limitMs)} ms (${r.wasRunning ? 'while running' : 'while waiting in the queue'}); send less text, or raise scheduler.requestTimeoutMs or the request's deadlineMs`,
    { deadlineMs: limitMs, wasRunning: r.wasRunning },
  );
}
