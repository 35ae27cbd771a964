/**
 * Engine: turns queued requests into audio, one frame-synchronous batched step at a time.
 * addRequest queues (prepare + enqueue are its two halves), step() runs one tick, cancel/dispose end
 * things; the admission decision is the replaceable AdmissionPolicy. Knows the model stages through
 * models/stages.ts, nothing of IPC.
 *
 * Each step: (1) admit waiting sequences and prefill them as one batch; (2) sample codebook 0 per
 * row (EOS finishes a row); (3) code predictor for all rows, batched; (4) one batched talker decode
 * for the rows still running; (5) codec windows that are due, batched across sequences by window length; (6) events out:
 * onDidProduceAudio, onDidProgress, onDidFinish. Requests join and leave only between steps.
 * cancel() may be called at any time; it takes effect at the next step boundary. A failed model run
 * fails the sequences in that batch and the loop goes on; a row whose sampling gives no valid code
 * (non-finite logits, overflowing params) fails alone, before its token reaches a batched call.
 */
import { StudioError, toStudioError } from '../../src-shared/errors';
import { engineVersionOf } from '../../src-shared/version';
import type { AudioChunk, EngineStatus, SynthesisOutcome, SynthesisProgress, SynthesisRequest } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-builder/manifest';
import { createFifoAdmissionPolicy, type AdmissionPolicy } from './admission-policy';
import { buildResult } from './build-result';
import { createSequence } from './create-sequence';
import { Emitter } from './emitter';
import type { EngineConfig } from './engine-config';
import { decodeAudio, decodeStep, predictCodebooks, prefill, sampleCodebook0, type FrameContext } from './frame-steps';
import type { ModelStages } from './models/stages';
import { findProvider } from './runtime/providers';
import { isDone, type Sequence } from './sequence';
import type { TextTokenizer } from './tokenizer';

export type StepReport = { kind: 'idle' } | { kind: 'ran'; numPrefilled: number; numDecoded: number; numFinished: number; stepMs: number };

export interface EngineParts {
  manifest: ModelManifest;
  tokenizer: TextTokenizer;
  stages: ModelStages;
  config: EngineConfig;
  provider: { name: string; reason: string };
  policy?: AdmissionPolicy;
  nowMs?: () => number;
  /** The effective codec batching (createEngine resolves config.codecBatching 'auto'); default: not 'off'. */
  codecBatching?: boolean;
}

export class Engine {
  readonly onDidProduceAudio: Emitter<AudioChunk>['event'];
  readonly onDidProgress: Emitter<SynthesisProgress>['event'];
  readonly onDidFinish: Emitter<SynthesisOutcome>['event'];
  /** The codes [frame][codebook] of each finished sequence, fired just before onDidFinish (goldens, tests). */
  readonly onDidFinishCodes: Emitter<{ requestId: string; codes: number[][] }>['event'];
  policy: AdmissionPolicy;
  private readonly audio = new Emitter<AudioChunk>();
  private readonly progress = new Emitter<SynthesisProgress>();
  private readonly finish = new Emitter<SynthesisOutcome>();
  private readonly finishCodes = new Emitter<{ requestId: string; codes: number[][] }>();
  private readonly ctx: FrameContext;
  private readonly nowMs: () => number;
  private waiting: Sequence[] = [];
  private running: Sequence[] = [];
  private readonly cancelRequested = new Set<string>();
  private nextId = 1;
  private state: 'ready' | 'failed' | 'disposed' = 'ready';
  private readonly counts = { numCompleted: 0, numFailed: 0, numCancelled: 0, numRejected: 0 };

  constructor(readonly parts: EngineParts) {
    this.onDidProduceAudio = this.audio.event;
    this.onDidProgress = this.progress.event;
    this.onDidFinish = this.finish.event;
    this.onDidFinishCodes = this.finishCodes.event;
    this.policy = parts.policy ?? createFifoAdmissionPolicy(parts.config);
    this.nowMs = parts.nowMs ?? (() => performance.now());
    const m = parts.manifest;
    const rules = { eosId: m.codecTokens.eos, controlStartId: m.codePredictor.vocabSize, controlEndId: m.talker.vocabSize, minNewTokens: m.generation.minNewTokens };
    this.ctx = { stages: parts.stages, rules, codec: parts.config.codec, batchCodec: parts.codecBatching ?? parts.config.codecBatching !== 'off' };
  }

  /** Validates and queues a request; throws StudioError for bad input. */
  addRequest(request: SynthesisRequest): void {
    this.assertUsable();
    this.assertNewId(request.requestId);
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

  /** Queues a sequence from prepare(); it takes part from the next step on. */
  enqueue(sequence: Sequence): void {
    this.assertUsable();
    this.assertNewId(sequence.request.requestId);
    this.waiting.push(sequence);
  }

  private assertNewId(requestId: string): void {
    if (this.waiting.some((s) => s.request.requestId === requestId) || this.running.some((s) => s.request.requestId === requestId)) {
      throw new StudioError('invalid-argument', `requestId '${requestId}' is already in flight; use a unique id per request`, { field: 'requestId' });
    }
  }

  /** Marks a request cancelled; it leaves at the next step boundary with a 'cancelled' outcome. */
  cancel(requestId: string): boolean {
    const known = [...this.waiting, ...this.running].some((s) => s.request.requestId === requestId);
    if (known) this.cancelRequested.add(requestId);
    return known;
  }

  hasWork(): boolean {
    return this.waiting.length > 0 || this.running.length > 0;
  }

  async step(): Promise<StepReport> {
    this.assertUsable();
    this.sweepCancelled();
    const admitted = this.policy.admit(this.waiting, this.running);
    if (admitted.length === 0 && this.running.length === 0) return { kind: 'idle' };
    const startedMs = this.nowMs();
    this.waiting = this.waiting.filter((s) => !admitted.includes(s));
    for (const s of admitted) [s.status, s.times.admittedMs] = ['running', startedMs];
    await this.guard(admitted, () => prefill(this.ctx, admitted));
    for (const s of admitted) if (s.status === 'running') this.running.push(s);
    const batch = this.running;
    const { rows, failures } = sampleCodebook0(this.ctx, batch);
    for (const f of failures) this.fail(f.sequence, f.error);
    await this.guard(batch, async () => {
      for (const f of await predictCodebooks(this.ctx, rows)) this.fail(f.sequence, f.error);
    });
    const stillRunning = batch.filter((s) => s.status === 'running');
    await this.guard(stillRunning, () => decodeStep(this.ctx, stillRunning));
    const decoding = batch.filter((s) => s.status !== 'failed');
    await this.guard(decoding, () => this.emitAudio(decoding));
    const finished = batch.filter(isDone);
    for (const s of finished) this.complete(s);
    this.running = batch.filter((s) => !isDone(s));
    this.sweepCancelled();
    return { kind: 'ran', numPrefilled: admitted.length, numDecoded: stillRunning.length, numFinished: finished.length, stepMs: this.nowMs() - startedMs };
  }

  /** Steps until no work is left. */
  async run(): Promise<void> {
    while (this.hasWork() && this.state === 'ready') await this.step();
  }

  status(): EngineStatus {
    return {
      state: this.state === 'ready' ? 'ready' : 'failed',
      engineVersion: engineVersionOf(this.parts.manifest.builderVersion),
      provider: this.parts.provider.name,
      providerReason: this.parts.provider.reason,
      queueDepth: this.waiting.length,
      numWaiting: this.waiting.length,
      numRunning: this.running.length,
      numInFlight: this.waiting.length + this.running.length,
      gpuLeased: findProvider(this.parts.provider.name)?.deviceMemory !== false,
      ...this.counts,
      numRestarts: 0,
      model: null,
    };
  }

  async dispose(): Promise<void> {
    if (this.state === 'disposed') return;
    for (const s of [...this.waiting, ...this.running]) this.cancelRequested.add(s.request.requestId);
    this.sweepCancelled();
    this.state = 'disposed';
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

  private sweepCancelled(): void {
    if (this.cancelRequested.size === 0) return;
    const cancelled = [...this.waiting, ...this.running].filter((s) => this.cancelRequested.has(s.request.requestId));
    this.waiting = this.waiting.filter((s) => !cancelled.includes(s));
    this.running = this.running.filter((s) => !cancelled.includes(s));
    for (const s of cancelled) {
      s.status = 'cancelled';
      this.releaseState(s);
      this.counts.numCancelled++;
      this.finish.fire({ status: 'cancelled', requestId: s.request.requestId });
    }
    this.cancelRequested.clear();
  }
}
