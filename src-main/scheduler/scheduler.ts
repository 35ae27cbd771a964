/**
 * The one owner of the sequences in flight: the waiting queue, the running set and their KV budget.
 * Decides who runs: admission into the running set, the per-step batch, cancellation, deadlines and
 * the queue bound. Pure TypeScript: no tensors, no ORT, no Electron; the clock is injected. The
 * engine keeps only each sequence's model state, keyed by the same id (engine/engine.ts).
 *
 * Loop contract (one engine step; the engine calls these from its step() only):
 *  0. `submit()` when a request enters the engine (Engine.enqueue) refuses it there and then when
 *     its id is already in flight, it can never fit the KV pool, or the queue is full.
 *  1. `schedule()` first drops cancelled and expired sequences (waiting or running; every sequence
 *     has a deadline, requestTimeoutMs after its arrival by default) and returns them as `removed` —
 *     the engine reports those outcomes and discards their state; their KV blocks are free already.
 *  2. Then it admits waiting sequences in queue order while the running set has room
 *     (maxRunningSequences), the step's prompt tokens fit (maxBatchTokens, at least one always
 *     admitted when there is room) and the KV budget can reserve prompt + frame cap. A sequence that
 *     does not fit stops admission (head-of-line, so large requests are not starved).
 *  3. With nothing running and fewer than targetBatchSize waiting, it may hold a partial batch for
 *     up to maxWaitMs after the oldest arrival (dynamic batching); it then returns 'idle' with waitMs.
 *     With sequences running, bulk arrivals may wait up to joinWaitMs (or until targetBatchSize, or
 *     an interactive request, is waiting) so that they join together; the running ones go on meanwhile.
 *  4. The batch is every running sequence: `admit` (prefill this step) + `decode` (one frame), each
 *     in admission order.
 *  5. After the step, the engine calls `finish(id)` for each sequence that hit EOS, its cap, or
 *     failed: it leaves at once and its KV blocks return to the pool. Then `removeCancelled()` hands
 *     back the sequences cancelled while the step ran.
 * `submit()`, `cancel()` and `checkRoomFor()` may be called at any time, also while a step awaits
 * the model; a cancel takes effect at the next step boundary. Nothing preempts a running sequence
 * except cancel and its deadline.
 */
import { StudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';
import type { RequestPriority } from '../../src-shared/synthesis';
import type { SchedulerLimits } from './batch-policy';
import { KvBudget, UNBOUNDED_KV, type KvSize } from './kv-budget';
import { RequestQueue, type QueuedSequence } from './request-queue';

export interface Clock {
  nowMs(): number;
}

export interface SequenceSpec {
  /** The sequence's request id; unique among the sequences in flight. */
  id: string;
  priority: RequestPriority;
  numPromptTokens: number;
  /** Frame cap of this sequence; with the prompt it sizes the KV reservation. */
  maxNewTokens: number;
  /**
   * Absolute time (clock ms) after which the sequence is removed with reason 'timeout'. submit()
   * tightens it to arrival + config.requestTimeoutMs, so every sequence has one unless that is 0.
   */
  deadlineAtMs?: number;
}

export type ScheduledSequence = SequenceSpec & QueuedSequence;

export type Batch =
  | { kind: 'idle'; waitMs: number | null }
  | { kind: 'step'; admit: ScheduledSequence[]; decode: ScheduledSequence[]; numPromptTokens: number };

export interface Removal {
  sequence: ScheduledSequence;
  reason: 'cancelled' | 'timeout';
  wasRunning: boolean;
}

export interface SchedulerCounters {
  numWaiting: number;
  numRunning: number;
  numRejected: number;
  numFreeKvBlocks: number;
}

export class Scheduler {
  private readonly waiting = new RequestQueue<ScheduledSequence>();
  private readonly running = new Map<string, ScheduledSequence>();
  private readonly cancelRequested = new Set<string>();
  private readonly kv: KvBudget;
  private nextOrdinal = 0;
  private numRejected = 0;

  /** `kv`: the engine's KV pool size, so admission reserves the blocks the pool holds (default: no bound). */
  constructor(
    private readonly config: Readonly<SchedulerLimits>,
    private readonly clock: Clock,
    kv: Readonly<KvSize> = UNBOUNDED_KV,
  ) {
    this.kv = new KvBudget(kv.numBlocks, kv.blockTokens);
  }

  /**
   * Queues a sequence. Refuses a duplicate id ('invalid-argument'), one that can never fit the KV
   * pool ('input-too-long') and, when the queue is full, any ('busy', counted as a rejection).
   */
  submit(spec: SequenceSpec): void {
    if (this.running.has(spec.id) || this.waiting.has(spec.id)) {
      throw new StudioError('invalid-argument', `requestId '${spec.id}' is already in flight; use a unique id per request`, { field: 'requestId' });
    }
    const numTokens = spec.numPromptTokens + spec.maxNewTokens;
    if (this.kv.blocksFor(numTokens) > this.kv.numBlocks) {
      const kvCapacityTokens = this.kv.numBlocks * this.kv.blockTokens;
      throw new StudioError(
        'input-too-long',
        `the request needs ${numTokens} KV positions but the pool holds ${kvCapacityTokens}; shorten the text or raise engine.kvCache.maxBlocks`,
        { numTokens, kvCapacityTokens },
      );
    }
    if (this.waiting.size >= this.config.maxQueueDepth) {
      this.numRejected++;
      throw this.busyError();
    }
    const arrivalMs = this.clock.nowMs();
    this.waiting.push({ ...spec, deadlineAtMs: this.deadlineFor(spec, arrivalMs), arrivalMs, ordinal: this.nextOrdinal++ });
  }

  /**
   * Admission control for a request of `numSequences` sequences (one per turn part), before any of
   * them is prepared: all fit in the queue now or none is taken. More than the queue can ever hold
   * fails for good ('input-too-long': retrying cannot help); a queue too full now is 'busy' (retry
   * after retryAfterS). Either refusal is counted.
   */
  checkRoomFor(numSequences: number): void {
    if (numSequences > this.config.maxQueueDepth) {
      this.numRejected++;
      throw new StudioError(
        'input-too-long',
        `the request has ${formatCount(numSequences)} turn parts (one engine sequence each: a new one at every voice, language or prosody change and after every break) but at most ${formatCount(this.config.maxQueueDepth)} can be queued at once (scheduler.maxQueueDepth); split the document into several requests or raise maxQueueDepth`,
        { field: 'input', numTurns: numSequences, maxQueueDepth: this.config.maxQueueDepth },
      );
    }
    if (this.waiting.size + numSequences > this.config.maxQueueDepth) {
      this.numRejected++;
      throw this.busyError();
    }
  }

  /** Marks a sequence for removal at the next step boundary; false when it is unknown. */
  cancel(id: string): boolean {
    if (!this.running.has(id) && !this.waiting.has(id)) return false;
    this.cancelRequested.add(id);
    return true;
  }

  schedule(): { batch: Batch; removed: Removal[] } {
    const nowMs = this.clock.nowMs();
    const removed = this.removeWhere((s) => s.deadlineAtMs !== undefined && nowMs >= s.deadlineAtMs);
    const admit: ScheduledSequence[] = [];
    const holdMs = this.dynamicBatchHoldMs(nowMs);
    if (holdMs === 0 && !this.holdsJoiners(nowMs)) this.admitInto(admit, nowMs);
    const decode = [...this.running.values()].filter((s) => !admit.includes(s));
    if (admit.length === 0 && decode.length === 0) {
      return { batch: { kind: 'idle', waitMs: this.waiting.size > 0 ? holdMs : null }, removed };
    }
    const numPromptTokens = admit.reduce((n, s) => n + s.numPromptTokens, 0);
    return { batch: { kind: 'step', admit, decode, numPromptTokens }, removed };
  }

  /** Removes the sequences cancelled since the last schedule() (waiting ones first) and frees their KV. */
  removeCancelled(): Removal[] {
    return this.cancelRequested.size === 0 ? [] : this.removeWhere(() => false);
  }

  /** A running sequence is done (EOS, cap or failure): it leaves, and its KV blocks are freed. */
  finish(id: string): void {
    this.running.delete(id);
    this.cancelRequested.delete(id);
    this.kv.free(id);
  }

  counters(): SchedulerCounters {
    return { numWaiting: this.waiting.size, numRunning: this.running.size, numRejected: this.numRejected, numFreeKvBlocks: this.kv.numFreeBlocks };
  }

  /** Queue position of each waiting sequence (0 = next to be admitted). */
  waitingPositions(): Map<string, number> {
    return this.waiting.positions(this.clock.nowMs(), this.config.agingMs);
  }

  get kvPool(): Pick<KvBudget, 'numBlocks' | 'numFreeBlocks' | 'numOwners'> {
    return this.kv;
  }

  /** The earlier of the sequence's own deadline and arrival + requestTimeoutMs (when that is on). */
  private deadlineFor(spec: SequenceSpec, arrivalMs: number): number | undefined {
    const fromConfig = this.config.requestTimeoutMs > 0 ? arrivalMs + this.config.requestTimeoutMs : undefined;
    if (spec.deadlineAtMs === undefined) return fromConfig;
    return fromConfig === undefined ? spec.deadlineAtMs : Math.min(spec.deadlineAtMs, fromConfig);
  }

  private busyError(): StudioError {
    return new StudioError('busy', `the queue is full (${this.waiting.size} waiting, limit ${this.config.maxQueueDepth}); retry after ${this.config.retryAfterS} s`, {
      retryAfterS: this.config.retryAfterS,
      queueDepth: this.waiting.size,
    });
  }

  /** Removes the cancelled sequences and those `expired` picks, waiting ones first, freeing the running ones' KV. */
  private removeWhere(expired: (s: ScheduledSequence) => boolean): Removal[] {
    const removed: Removal[] = [];
    for (const s of this.waiting.removeWhere((s) => this.cancelRequested.has(s.id) || expired(s))) {
      removed.push({ sequence: s, reason: this.cancelRequested.has(s.id) ? 'cancelled' : 'timeout', wasRunning: false });
      this.cancelRequested.delete(s.id);
    }
    for (const s of [...this.running.values()]) {
      if (!this.cancelRequested.has(s.id) && !expired(s)) continue;
      removed.push({ sequence: s, reason: this.cancelRequested.has(s.id) ? 'cancelled' : 'timeout', wasRunning: true });
      this.finish(s.id);
    }
    return removed;
  }

  /** 0 when admission may proceed now; otherwise how long to hold the partial batch. */
  private dynamicBatchHoldMs(nowMs: number): number {
    if (this.config.maxWaitMs <= 0 || this.running.size > 0 || this.waiting.size >= this.config.targetBatchSize) return 0;
    const oldest = this.waiting.oldestArrivalMs();
    if (oldest === null) return 0;
    return Math.max(0, oldest + this.config.maxWaitMs - nowMs);
  }

  /** True while waiting bulk arrivals should keep gathering before they join the running batch. */
  private holdsJoiners(nowMs: number): boolean {
    if (this.config.joinWaitMs <= 0 || this.running.size === 0 || this.waiting.size === 0) return false;
    const cohortSize = Math.min(this.config.targetBatchSize, this.config.maxRunningSequences);
    if (this.waiting.size >= cohortSize || this.waiting.some((s) => s.priority === 'interactive')) return false;
    const oldest = this.waiting.oldestArrivalMs();
    return oldest !== null && nowMs < oldest + this.config.joinWaitMs;
  }

  private admitInto(admit: ScheduledSequence[], nowMs: number): void {
    const maxAdmit = this.config.maxPrefillSequences ?? Infinity;
    let numTokens = 0;
    for (const s of this.waiting.ordered(nowMs, this.config.agingMs)) {
      if (this.running.size >= this.config.maxRunningSequences || admit.length >= maxAdmit) break;
      if (admit.length > 0 && numTokens + s.numPromptTokens > this.config.maxBatchTokens) break;
      const reserve = s.numPromptTokens + s.maxNewTokens;
      if (!this.kv.canAllocate(reserve)) break;
      this.waiting.remove(s.id);
      this.kv.allocate(s.id, reserve);
      this.running.set(s.id, s);
      admit.push(s);
      numTokens += s.numPromptTokens;
    }
  }
}

/** The error of a sequence removed at its deadline, naming the limit and where it was. */
export function timeoutError(removal: Removal): StudioError {
  const s = removal.sequence;
  const limitMs = s.deadlineAtMs === undefined ? 0 : Math.round(s.deadlineAtMs - s.arrivalMs);
  if (limitMs <= 0) {
    // The request's own deadline counts from before the queue (preparing it included) and was over on arrival.
    return new StudioError('timeout', "the request's deadlineMs had passed before it reached the queue (preparing it took longer); send a longer deadlineMs or leave it out", { deadlineMs: 0, wasRunning: false });
  }
  return new StudioError(
    'timeout',
    `the request did not finish within its deadline of ${formatCount(limitMs)} ms (${removal.wasRunning ? 'while running' : 'while waiting in the queue'}); send less text, or raise scheduler.requestTimeoutMs or the request's deadlineMs`,
    { deadlineMs: limitMs, wasRunning: removal.wasRunning },
  );
}
