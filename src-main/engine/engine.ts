/**
 * Engine: turns queued requests into audio, one frame-synchronous batched step at a time.
 * addRequest queues (prepare + enqueue are its two halves), step() runs one tick, cancel/dispose end
 * things. The scheduler (scheduler/) owns the queue: enqueue submits to it, each step asks it for the
 * batch, and the engine keeps only each sequence's model state, keyed by request id. Knows the
 * model stages through stages/stages.ts, nothing of IPC.
 *
 * Each step: (1) the scheduler ends cancelled and expired sequences and admits waiting ones, which
 * are prefilled as one batch; (2) sample codebook 0 per row (EOS finishes a row); (3) code predictor
 * for all rows, batched; (4) one batched talker decode for the rows still running; (5) codec windows
 * that are due, batched across sequences by window length; (6) events out: onDidProduceAudio,
 * onDidProgress, onDidFinish; finished rows leave the scheduler at once. Requests join and leave
 * only between steps.
 * cancel() may be called at any time; it takes effect at the next step boundary. A failed model run
 * fails the sequences in that batch and the loop goes on; a row whose sampling gives no valid code
 * (non-finite logits, overflowing params) fails alone, before its token reaches a batched call.
 */
import { StudioError, toStudioError } from '../../src-shared/errors';
import { engineVersionOf } from '../../src-shared/version';
import type { AudioChunk, EnginePlanSummary, EngineStatus, EngineSteps, SynthesisOutcome, SynthesisProgress, SynthesisRequest } from '../../src-shared/synthesis';
import { timedStages } from './timed-stages';
import type { ModelManifest } from '../model-format/manifest';
import { buildResult } from './build-result';
import { createSequence } from './create-sequence';
import { Emitter } from '../../src-shared/emitter';
import { batchLimitsOf, type EngineConfig } from './engine-config';
import { decodeAudio, decodeStep, predictCodebooks, sampleCodebook0, type FrameContext } from './frame-steps';
import { PrefixKvCache } from './kv/prefix-kv-cache';
import { prefill } from './prefix-prefill';
import type { ModelStages } from './stages/stages';
import { findProvider } from './runtime/providers';
import { isDone, type Sequence } from './sequence';
import type { TextTokenizer } from './tokenizer';
import { runWarmUp, type WarmUpReport } from './warm-up';
import type { WarmUpPlan } from './warm-up-plan';
import { fifoSchedulerConfig, type SchedulerLimits } from '../scheduler/batch-policy';
import type { KvSize } from '../scheduler/kv-budget';
import { Scheduler, timeoutError, type Removal } from '../scheduler/scheduler';

/** stepMs: from the batch's start to its last event; hostMs: the whole step (its scheduling too) less the time awaiting the model stages. */
export type StepReport = { kind: 'idle' } | { kind: 'ran'; numPrefilled: number; numDecoded: number; numFinished: number; stepMs: number; hostMs: number };

export interface EngineParts {
  manifest: ModelManifest;
  tokenizer: TextTokenizer;
  stages: ModelStages;
  config: EngineConfig;
  provider: { name: string; reason: string };
  nowMs?: () => number;
  /** The effective codec batching (createEngine resolves config.codecBatching 'auto'); default: not 'off'. */
  codecBatching?: boolean;
  /**
   * The limits of the scheduler the engine is built with and runs by: the engine host's (queue bound,
   * priorities, KV budget, deadlines, engine-host/scheduler-config.ts); default: FIFO within the
   * config's batch limits (fifoSchedulerConfig).
   */
  scheduler?: Readonly<SchedulerLimits>;
  /** The talker's KV pool size (kv/kv-capacity.ts), which admission reserves from; default: no bound (fake stages). */
  kv?: Readonly<KvSize>;
  /** The resolved plan it runs, for status (createEngine: engine-plan.ts summarisePlan); absent over fake stages. */
  plan?: EnginePlanSummary;
}

export class Engine {
  readonly onDidProduceAudio: Emitter<[AudioChunk]>['event'];
  readonly onDidProgress: Emitter<[SynthesisProgress]>['event'];
  readonly onDidFinish: Emitter<[SynthesisOutcome]>['event'];
  /** The codes [frame][codebook] of each finished sequence, fired just before onDidFinish (goldens, tests). */
  readonly onDidFinishCodes: Emitter<[{ requestId: string; codes: number[][] }]>['event'];
  private readonly audio = new Emitter<[AudioChunk]>();
  private readonly progress = new Emitter<[SynthesisProgress]>();
  private readonly finish = new Emitter<[SynthesisOutcome]>();
  private readonly finishCodes = new Emitter<[{ requestId: string; codes: number[][] }]>();
  private readonly ctx: FrameContext;
  private readonly nowMs: () => number;
  /** Who is in flight, and who runs next; callers read its counters and ask it for room (checkRoomFor). */
  readonly scheduler: Scheduler;
  /** The model state of each sequence in flight (in the scheduler), by request id. */
  private readonly sequences = new Map<string, Sequence>();
  private nextId = 1;
  private state: 'ready' | 'failed' | 'disposed' = 'ready';
  private readonly counts = { numCompleted: 0, numFailed: 0, numCancelled: 0, numRejected: 0 };
  private warmed: WarmUpReport | null = null;
  /** The prompt-prefix KV of repeated voices (prefix-prefill.ts); its counters are in status(). */
  private readonly prefixCache: PrefixKvCache;
  /** The ms spent awaiting the model stages (timed-stages.ts), and the ran steps' totals (status().steps). */
  private readonly stageClock = { ms: 0 };
  private readonly steps: EngineSteps = { numSteps: 0, totalStepMs: 0, totalHostMs: 0 };

  constructor(readonly parts: EngineParts) {
    this.onDidProduceAudio = this.audio.event;
    this.onDidProgress = this.progress.event;
    this.onDidFinish = this.finish.event;
    this.onDidFinishCodes = this.finishCodes.event;
    this.nowMs = parts.nowMs ?? (() => performance.now());
    this.prefixCache = new PrefixKvCache(parts.config.prefixCache.maxBytes);
    this.scheduler = new Scheduler(parts.scheduler ?? fifoSchedulerConfig(batchLimitsOf(parts.config)), { nowMs: () => this.nowMs() }, parts.kv);
    const m = parts.manifest;
    const rules = { eosId: m.codecTokens.eos, controlStartId: m.codePredictor.vocabSize, controlEndId: m.talker.vocabSize, minNewTokens: m.generation.minNewTokens };
    // one cache per engine, so per loaded model (a model change builds a new engine); the model id in its keys says so too
    const prefixCache = { cache: this.prefixCache, modelId: `${m.checkpointHash}/${m.builderVersion}/${m.dtype}` };
    this.ctx = { stages: timedStages(parts.stages, () => this.nowMs(), this.stageClock), rules, codec: parts.config.codec, batchCodec: parts.codecBatching ?? parts.config.codecBatching !== 'off', prefixCache };
  }

  /** Validates and queues a request; throws StudioError for bad input or a request the scheduler refuses. */
  addRequest(request: SynthesisRequest): void {
    this.assertUsable();
    this.enqueue(this.prepare(request));
  }

  /**
   * Validates and tokenizes a request into a waiting sequence without queueing it (the expensive,
   * synchronous part of addRequest), so a caller with many requests can yield between them; throws
   * StudioError for bad input. Queue the result with enqueue().
   */
  prepare(request: SynthesisRequest): Sequence {
    this.assertUsable();
    try {
      return createSequence(this.nextId++, request, this.parts.manifest, this.parts.tokenizer, this.parts.config, this.nowMs());
    } catch (err) {
      this.counts.numRejected++;
      throw err;
    }
  }

  /**
   * Submits a sequence from prepare() to the scheduler; it takes part from the next step on. Throws
   * what the scheduler refuses (an id already in flight, a sequence the KV pool can never hold, a
   * full queue).
   */
  enqueue(sequence: Sequence): void {
    this.assertUsable();
    const { request } = sequence;
    this.scheduler.submit({
      id: request.requestId,
      priority: request.priority ?? 'interactive',
      numPromptTokens: sequence.prompt.rows.length,
      maxNewTokens: sequence.maxFrames,
      deadlineAtMs: request.deadlineMs !== undefined ? sequence.times.enqueuedMs + request.deadlineMs : undefined,
    });
    this.sequences.set(request.requestId, sequence);
  }

  /** Marks a request cancelled; it leaves at the next step boundary with a 'cancelled' outcome. */
  cancel(requestId: string): boolean {
    return this.scheduler.cancel(requestId);
  }

  hasWork(): boolean {
    return this.sequences.size > 0;
  }

  async step(): Promise<StepReport> {
    this.assertUsable();
    const [scheduledMs, stageMsBefore] = [this.nowMs(), this.stageClock.ms];
    const { batch: next, removed } = this.scheduler.schedule();
    this.end(removed);
    if (next.kind === 'idle') return { kind: 'idle' };
    const startedMs = this.nowMs();
    const admitted = next.admit.map((a) => this.sequences.get(a.id)!);
    for (const s of admitted) [s.status, s.times.admittedMs] = ['running', startedMs];
    await this.guard(admitted, () => prefill(this.ctx, admitted));
    for (const s of admitted) if (s.status !== 'running') this.leave(s); // failed in prefill: its outcome is out
    const batch = [...next.decode.map((d) => this.sequences.get(d.id)!), ...admitted.filter((s) => s.status === 'running')];
    const { rows, failures } = sampleCodebook0(this.ctx, batch);
    for (const f of failures) this.fail(f.sequence, f.error);
    await this.guard(batch, async () => {
      for (const f of await predictCodebooks(this.ctx, rows)) this.fail(f.sequence, f.error);
    });
    const stillRunning = batch.filter((s) => s.status === 'running');
    // rows that stopped decoding free their talker KV now, not after the step: the bound decode would otherwise
    // copy their newest positions back to the host pool before reusing their bucket rows, only to free them
    for (const s of batch) if (s.status !== 'running') this.parts.stages.talker.release(s.id);
    await this.guard(stillRunning, () => decodeStep(this.ctx, stillRunning));
    const decoding = batch.filter((s) => s.status !== 'failed');
    await this.guard(decoding, () => this.emitAudio(decoding));
    const finished = batch.filter(isDone);
    for (const s of finished) {
      this.complete(s);
      this.leave(s);
    }
    this.end(this.scheduler.removeCancelled());
    const endedMs = this.nowMs();
    const hostMs = endedMs - scheduledMs - (this.stageClock.ms - stageMsBefore);
    this.steps.numSteps++;
    this.steps.totalStepMs += endedMs - scheduledMs;
    this.steps.totalHostMs += hostMs;
    return { kind: 'ran', numPrefilled: admitted.length, numDecoded: stillRunning.length, numFinished: finished.length, stepMs: endedMs - startedMs, hostMs };
  }

  /**
   * Opens and runs once every bucket of `plan` (warm-up.ts) with fake sequences that leave nothing
   * behind; only while no request is in flight. createEngine calls it before returning (EngineConfig.warmUp).
   */
  async warmUp(plan: WarmUpPlan): Promise<WarmUpReport> {
    this.assertUsable();
    if (this.sequences.size > 0) throw new StudioError('internal', `the engine warms up only while no request is in flight (${this.sequences.size} are)`);
    this.warmed = await runWarmUp(this.parts.stages, plan, this.nowMs);
    return this.warmed;
  }

  /** Steps until no work is left. */
  async run(): Promise<void> {
    while (this.hasWork() && this.state === 'ready') await this.step();
  }

  status(): EngineStatus {
    const queue = this.scheduler.counters();
    return {
      state: this.state === 'ready' ? 'ready' : 'failed',
      engineVersion: engineVersionOf(this.parts.manifest.builderVersion),
      provider: this.parts.provider.name,
      providerReason: this.parts.provider.reason,
      queueDepth: queue.numWaiting,
      numWaiting: queue.numWaiting,
      numRunning: queue.numRunning,
      numInFlight: queue.numWaiting + queue.numRunning,
      gpuLeased: findProvider(this.parts.provider.name)?.deviceMemory !== false,
      ...this.counts,
      // the engine's refusals (bad input) and the scheduler's (queue full, more turns than it holds)
      numRejected: this.counts.numRejected + queue.numRejected,
      numRestarts: 0,
      model: null,
      prefixCache: this.prefixCache.stats(),
      steps: { ...this.steps },
      ...(this.parts.plan ? { plan: this.parts.plan } : {}),
      ...(this.warmed ? { warmUp: { durationMs: this.warmed.durationMs, numBuckets: this.warmed.numBuckets, numBucketsLeftOut: this.warmed.numBucketsLeftOut } } : {}),
    };
  }

  async dispose(): Promise<void> {
    if (this.state === 'disposed') return;
    for (const id of this.sequences.keys()) this.scheduler.cancel(id);
    this.end(this.scheduler.removeCancelled());
    this.state = 'disposed';
    this.prefixCache.clear();
    const st = this.parts.stages;
    await Promise.all([st.talker.dispose(), st.codePredictor.dispose(), st.codec.dispose()]);
    for (const e of [this.audio, this.progress, this.finish, this.finishCodes]) e.dispose();
  }

  private assertUsable(): void {
    if (this.state !== 'ready') throw new StudioError('engine-crashed', `the engine is ${this.state}; create a new engine`, { state: this.state });
  }

  /** Runs a model phase; on failure fails those sequences (a lost device fails the engine). */
  private async guard(sequences: readonly Sequence[], phase: () => Promise<unknown>): Promise<void> {
    if (sequences.length === 0) return;
    try {
      await phase();
    } catch (err) {
      const error = toStudioError(err);
      if (error.code === 'device-lost') this.state = 'failed';
      for (const s of sequences) this.fail(s, error);
    }
  }

  /** Decodes the due codec windows of all sequences (batched by window length), then fires their events in batch order. */
  private async emitAudio(sequences: readonly Sequence[]): Promise<void> {
    const sampleRateHz = this.ctx.stages.codec.sampleRateHz;
    const pieces = await decodeAudio(this.ctx, sequences);
    for (const s of sequences) {
      for (const piece of pieces.get(s) ?? []) {
        s.times.firstAudioMs ??= this.nowMs();
        s.numChunksEmitted++;
        this.audio.fire({ requestId: s.request.requestId, turnIndex: 0, startSample: piece.startSample, sampleRateHz, pcm: piece.pcm });
      }
      const numFramesEstimated = Math.max(s.codes.length, Math.min(s.maxFrames, s.prompt.numTextTokens * 4));
      this.progress.fire({ requestId: s.request.requestId, turnIndex: 0, numFramesDone: s.codes.length, numFramesEstimated });
    }
  }

  /** Frees what the stages keep for a sequence: its talker KV and its streaming codec state. */
  private releaseState(s: Sequence): void {
    this.parts.stages.talker.release(s.id);
    this.parts.stages.codec.releaseStream?.(s.id);
  }

  private complete(s: Sequence): void {
    this.releaseState(s);
    s.times.finishedMs = this.nowMs();
    if (s.status === 'failed') return; // outcome already fired by fail()
    this.counts.numCompleted++;
    this.finishCodes.fire({ requestId: s.request.requestId, codes: s.codes });
    this.finish.fire({ status: 'done', result: buildResult(s, this.ctx.stages.codec.sampleRateHz, this.parts.manifest.checkpointHash) });
  }

  private fail(s: Sequence, error: StudioError): void {
    if (s.status === 'failed') return;
    s.status = 'failed';
    this.counts.numFailed++;
    this.finish.fire({ status: 'failed', requestId: s.request.requestId, error: error.toJSON() });
  }

  /** A sequence that finished or failed leaves the scheduler (freeing its KV budget) and the engine. */
  private leave(s: Sequence): void {
    this.scheduler.finish(s.request.requestId);
    this.sequences.delete(s.request.requestId);
  }

  /**
   * Ends the sequences the scheduler removed: a cancel with 'cancelled', a deadline with a 'failed'
   * outcome carrying the timeout (both counted as cancelled). The scheduler has let them go already.
   */
  private end(removed: readonly Removal[]): void {
    for (const r of removed) {
      const s = this.sequences.get(r.sequence.id);
      if (!s) continue;
      const requestId = s.request.requestId;
      this.sequences.delete(requestId);
      s.status = 'cancelled';
      this.releaseState(s);
      this.counts.numCancelled++;
      if (r.reason === 'cancelled') {
        this.finish.fire({ status: 'cancelled', requestId });
      } else {
        const error = timeoutError(r);
        this.finish.fire({ status: 'failed', requestId, error: { ...error.toJSON(), details: { ...error.details, requestId } } });
      }
    }
  }
}
