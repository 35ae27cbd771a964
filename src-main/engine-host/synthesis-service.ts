/**
 * The engine host's service: loads the model, runs the engine loop, and answers protocol calls.
 * A request is planned into turn parts (turn-plan.ts); each part is its own engine sequence, all run
 * side by side; their audio streams out by dialogue turn as it is decoded (dialogue-turn-events.ts),
 * and when every part is done they are joined (and post-processed for SSML) into one SynthesisResult. <audio> files are read
 * from the allowed roots only, admitted by the host's budget of decoded samples and decoded on worker threads before the
 * turns are queued; a request whose recording is longer than a moment is joined there too (insert-service.ts), never on
 * this event loop.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { StudioError, toStudioError, type SerializedStudioError } from '../../src-shared/errors';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { ModelManifest } from '../model-format/manifest';
import type { AudioChunk, EngineStatus, ModelInfo, SamplingParams, SynthesisOutcome, SynthesisProgress, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createEngine } from '../engine/create-engine';
import type { Engine } from '../engine/engine';
import type { Sequence } from '../engine/sequence';
import { listVoices } from '../engine/list-voices';
import { listLanguages, supportsInstruct } from '../engine/prompt';
import { buildDtypeFor } from '../engine/provider-select';
import { resolveModel } from './embedded-model';
import { EngineLoop } from './engine-loop';
import { defaultAudioInsertPolicy, type AdmittedInserts, type AudioInsertPolicy, type LoadedInserts } from './audio-inserts';
import { InsertService } from './insert-service';
import { joinTurns, type JoinedAudio } from './join-turns';
import { finishRequest } from './finish-request';
import type { HostHeartbeat, HostMethod, HostMethods, HostStartOptions, HostSynthesisRequest } from '../engine-protocol/protocol';
import { planTurns, type TurnPlan } from './turn-plan';
import { DialogueTurnEvents } from './dialogue-turn-events';
import { hostKvMemoryBytes, schedulerConfigFor } from './scheduler-config';
import type { SchedulerLimits } from '../scheduler/batch-policy';
import { createVoiceCloner, type VoiceCloner } from '../engine/voice-cloner';
import { modelTypeLabel } from '../../src-shared/model-labels';

export interface SynthesisService {
  call(method: HostMethod, args: unknown): Promise<unknown>;
  status(): EngineStatus;
  dispose(): Promise<void>;
}

/** Frame caps for synthetic checkpoints: about 3 frames (240 ms) per text token, as real speech. */
export const SYNTHETIC_MODEL_CAPS = Object.freeze({ minFramesCap: 12, framesPerTextToken: 3 });

type Emit = (event: string, payload: unknown) => void;

/** One request in flight: its plan, and each part's outcome as it arrives. */
interface Job {
  request: SynthesisRequest;
  plan: TurnPlan;
  outcomes: (SynthesisOutcome | null)[];
  /** Its parts' audio and progress, reported by dialogue turn. */
  events: DialogueTurnEvents;
  startedMs: number;
  firstAudioMs: number | null;
  /** Every turn is done and it is being joined: it can no longer be cancelled. */
  finishing: boolean;
  /** Its decoded <audio> files, holding their samples of the insert budget until the job is answered; null: none. */
  inserts: AdmittedInserts | null;
  resolve(result: SynthesisResult): void;
  reject(error: StudioError): void;
}

/** A turn part in the engine: the request it belongs to and its index in the plan (PlannedTurn.index). */
interface TurnPart {
  requestId: string;
  partIndex: number;
}

/**
 * A part's engine sequence id: unique among the sequences in flight and opaque. Events are routed by
 * HostedSynthesis.parts (id → TurnPart), never by reading the id back.
 */
const turnSequenceId = (part: TurnPart) => `${part.requestId}#turn${part.partIndex}`;

export async function createSynthesisService(options: HostStartOptions, emit: Emit, log: (m: string) => void = (m) => console.info(m), onDeviceLost?: (error: StudioError) => void): Promise<SynthesisService> {
  const provider = (options.engineConfig.provider as string | undefined) ?? 'auto';
  const dtype = buildDtypeFor(provider);
  const model = await resolveModel(options.model, options.cacheDir, dtype, log);
  // Random weights never sample EOS, so every request would run to the runaway cap (~1 s of audio
  // per text token). For synthetic models the cap defaults to a realistic speech length instead.
  const engineConfig = model.synthetic ? { ...SYNTHETIC_MODEL_CAPS, ...options.engineConfig } : options.engineConfig;
  // The engine is built with the host's scheduler, and its one KV pool size fits half the free memory.
  let schedulerLimits: Readonly<SchedulerLimits> | null = null;
  const schedulerFor = (limits: { maxRunningSequences: number; maxPrefillSequences: number }) => (schedulerLimits = schedulerConfigFor(limits, options.schedulerConfig ?? {}));
  const engine = await createEngine({ modelDir: model.builtDir, config: engineConfig, log, schedulerFor, kvMemoryBytes: hostKvMemoryBytes() });
  log(`scheduler: ${JSON.stringify(schedulerLimits)}`);
  const audioInserts = defaultAudioInsertPolicy(options.audioRoots ?? [], engine.parts.stages.codec.sampleRateHz);
  log(`<audio> files are inserted from: ${audioInserts.roots.length > 0 ? audioInserts.roots.join(', ') : '(no folder: every <audio src> is refused)'}`);
  return new HostedSynthesis(engine, { id: options.modelId ?? options.model, synthetic: model.synthetic, displayName: model.displayName }, emit, { audioInserts, log, builtDir: model.builtDir, ...(onDeviceLost ? { onDeviceLost } : {}) });
}

export interface HostedSynthesisOptions {
  audioInserts: AudioInsertPolicy;
  log: (m: string) => void;
  /** The built model folder (its speaker encoder, for makeVoice); absent over fake stages. */
  builtDir?: string;
  /** The engine lost its device (a sticky CUDA error, a lost adapter): nothing more can run in this process. */
  onDeviceLost?: (error: StudioError) => void;
}


const NO_INSERTS: LoadedInserts = { audio: new Map(), warnings: [] };

/** A request being prepared (inserts loaded, turns tokenized): a cancel sets `cancelled` and aborts a wait for the insert budget. */
interface Preparation {
  cancelled: boolean;
  yielded: boolean;
  abort: AbortController;
}

/** Longest stretch of tokenizing turns before the host yields to its event loop (heartbeats, cancels, other calls). */
const PREPARE_SLICE_MS = 8;

/** The per-request sampling params of the checkpoint's defaults (min_new_tokens is a model rule, not a param). */
function samplingParamsOf(g: ModelManifest['generation']): SamplingParams {
  const { minNewTokens: _rule, ...params } = g;
  return params;
}

/** The host's service over an engine; exported for tests that drive it over fake model stages. */
export class HostedSynthesis implements SynthesisService {
  private readonly jobs = new Map<string, Job>();
  private readonly loop: EngineLoop;
  private draining = false;
  private readonly info: ModelInfo;
  /** Requests being joined with their <audio> files; drain waits for them. */
  private readonly finishing = new Set<Promise<void>>();
  /** Requests whose turns are being tokenized (not yet queued in the engine); cancel reaches them here. */
  private readonly preparing = new Map<string, Preparation>();
  /** <audio> inserts of every request: budget, cache, worker threads (read by tests through usage()). */
  readonly inserts: InsertService;
  private readonly preparedWaiters: (() => void)[] = [];
  /** The turn part of each engine sequence queued by this host, by sequence id, until its outcome. */
  private readonly parts = new Map<string, TurnPart>();

  constructor(
    private readonly engine: Engine,
    loaded: { id: string; synthetic: boolean; displayName: string },
    private readonly emit: Emit,
    private readonly options: HostedSynthesisOptions,
  ) {
    this.loop = new EngineLoop(engine, (err) => this.failAll(toStudioError(err)));
    this.inserts = new InsertService(options.audioInserts, options.log);
    const m = engine.parts.manifest;
    this.info = {
      id: loaded.id,
      displayName: loaded.displayName,
      path: m.checkpointDir,
      kind: m.ttsModelType as ModelInfo['kind'],
      size: m.ttsModelSize,
      synthetic: loaded.synthetic,
      supportsInstruct: supportsInstruct(m),
      voices: listVoices(m),
      languages: listLanguages(m),
      defaultParams: samplingParamsOf(m.generation),
      sampleRateHz: engine.parts.stages.codec.sampleRateHz,
      modelHash: m.checkpointHash,
    };
    engine.onDidProduceAudio((chunk) => this.onAudio(chunk));
    engine.onDidProgress((p) => this.onProgress(p));
    engine.onDidFinish((o) => this.onFinish(o));
  }

  async call(method: HostMethod, args: unknown): Promise<unknown> {
    switch (method) {
      case 'synthesize':
        return this.synthesize(args as HostMethods['synthesize']['args']);
      case 'cancel':
        return this.cancel((args as HostMethods['cancel']['args']).requestId);
      case 'status':
        return this.status();
      case 'modelInfo':
        return this.info;
      case 'listVoices':
        return this.info.voices;
      case 'makeVoice':
        return this.makeVoice(args as HostMethods['makeVoice']['args']);
      case 'drain':
        return this.drain((args as HostMethods['drain']['args']).graceMs);
      case 'ping':
        return this.heartbeat();
    }
  }

  private voiceCloner: Promise<VoiceCloner> | null = null;

  /** Clones a voice: the speaker (and speech) encoders, opened on first use on the CPU, over the decoded, checked clip. */
  private async makeVoice({ audio, refText }: HostMethods['makeVoice']['args']): Promise<HostMethods['makeVoice']['result']> {
    if (!(audio instanceof Uint8Array)) throw new StudioError('invalid-argument', 'makeVoice needs the clip file\'s bytes', { field: 'audio' });
    const manifest = this.engine.parts.manifest;
    if (!manifest.speakerEncoder || !this.options.builtDir) {
      throw new StudioError('unsupported', `cloning a voice needs a Base model but the loaded one is ${modelTypeLabel(this.info.kind, this.info.size)}; pull Qwen3-TTS-12Hz-0.6B-Base or 1.7B-Base on the Models page (or studio model pull) and use it`, {
        field: 'model',
        validValues: ['base'],
      });
    }
    const builtDir = this.options.builtDir;
    this.voiceCloner ??= createVoiceCloner(builtDir, manifest);
    const text = refText?.trim() ?? '';
    return (await this.voiceCloner).createClonePromptFromBytes(audio, text ? { mode: 'icl', refText: text } : { mode: 'xvector' });
  }

  /** The answer to the supervisor's heartbeat: proof that this event loop runs, and how long the current step has. */
  heartbeat(): HostHeartbeat {
    return { stepAgeMs: this.loop.currentStepAgeMs(), numJobs: this.jobs.size + this.preparing.size };
  }

  status(): EngineStatus {
    const s = this.engine.status();
    return { ...s, state: this.draining ? 'draining' : s.state, model: this.info };
  }

  async dispose(): Promise<void> {
    this.loop.stop();
    const cloner = await this.voiceCloner?.catch(() => null);
    await cloner?.dispose();
    await this.inserts.dispose();
    await this.engine.dispose();
  }

  private async synthesize(call: HostSynthesisRequest): Promise<SynthesisResult> {
    const { clientId, ...request } = call;
    if (this.draining) throw new StudioError('unavailable', 'the engine is shutting down and accepts no new requests; retry on the restarted studio', { retryAfterS: 5 });
    if (this.jobs.has(request.requestId) || this.preparing.has(request.requestId)) {
      throw new StudioError('invalid-argument', `requestId '${request.requestId}' is already in flight; use a unique id per request`, { field: 'requestId' });
    }
    let plan: TurnPlan;
    try {
      plan = planTurns(request, { voices: this.info.voices, languages: this.info.languages, model: { kind: this.info.kind, size: this.info.size } });
    } catch (err) {
      throw toStudioError(err);
    }
    // nothing for the engine to run means no part would ever finish: refused, not left unanswered
    if (plan.turns.length === 0) throw new StudioError('invalid-argument', 'the SSML document has no text to speak (only <audio>, <break> or <mark> elements); add a sentence to it', { field: 'input' });
    this.checkCapacity(plan.turns.length);
    const preparation: Preparation = { cancelled: false, yielded: false, abort: new AbortController() };
    this.preparing.set(request.requestId, preparation);
    let sequences: Sequence[];
    let inserts: AdmittedInserts | null = null;
    try {
      // before any turn runs: a request the insert budget refuses ('busy') or a broken file costs no engine work
      const segments = plan.segments ?? [];
      if (segments.some((s) => s.kind === 'audio')) {
        inserts = await this.inserts.load(clientId, segments, preparation.abort.signal);
        preparation.yielded = true;
      }
      sequences = await this.prepareTurns(request, plan, preparation);
      if (preparation.yielded) this.checkCapacity(plan.turns.length); // others may have filled the queue meanwhile
    } catch (err) {
      inserts?.release();
      this.donePreparing(request.requestId);
      throw toStudioError(err);
    }
    // from here on synchronous: the job is queued and the loop kicked before drain() can look
    const result = this.enqueueJob(request, plan, sequences, inserts);
    this.donePreparing(request.requestId);
    return result;
  }

  /** Admission control (all of a request's turn parts or none); a refusal is announced with the status. */
  private checkCapacity(numSequences: number): void {
    try {
      this.engine.scheduler.checkRoomFor(numSequences);
    } catch (err) {
      this.emitStatus();
      throw err;
    }
  }

  /**
   * Validates and tokenizes every turn. Tokenizing blocks this process's event loop, so after each
   * PREPARE_SLICE_MS of it the host yields: heartbeats, cancels and other requests get through
   * between the turns of a long document. A cancel that arrives meanwhile ends the request here.
   */
  private async prepareTurns(request: SynthesisRequest, plan: TurnPlan, preparation: Preparation): Promise<Sequence[]> {
    const sequences: Sequence[] = [];
    let sliceStartMs = performance.now();
    for (const turn of plan.turns) {
      if (performance.now() - sliceStartMs >= PREPARE_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        preparation.yielded = true;
        sliceStartMs = performance.now();
      }
      if (preparation.cancelled) throw new StudioError('cancelled', `request '${request.requestId}' was cancelled`, { requestId: request.requestId });
      const id = turnSequenceId({ requestId: request.requestId, partIndex: turn.index });
      const { savedVoices: _saved, ...own } = request;
      sequences.push(
        this.engine.prepare({ ...own, requestId: id, input: turn.text, inputFormat: 'text', voice: turn.savedVoiceId ? '' : turn.voice, language: turn.language, instruct: turn.instruct, ...(turn.savedVoiceId ? { speakerEmbedding: turn.speakerEmbedding, refCodes: turn.refCodes, refText: turn.refText } : {}) }),
      );
    }
    return sequences;
  }

  private donePreparing(requestId: string): void {
    this.preparing.delete(requestId);
    if (this.preparing.size === 0) for (const w of this.preparedWaiters.splice(0)) w();
  }

  private whenNothingPreparing(): Promise<void> {
    if (this.preparing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.preparedWaiters.push(resolve));
  }

  private enqueueJob(request: SynthesisRequest, plan: TurnPlan, sequences: readonly Sequence[], inserts: AdmittedInserts | null): Promise<SynthesisResult> {
    return new Promise<SynthesisResult>((resolve, reject) => {
      const job: Job = { request, plan, outcomes: plan.turns.map(() => null), events: new DialogueTurnEvents(plan.turns.map((t) => t.dialogueTurnIndex)), startedMs: performance.now(), firstAudioMs: null, finishing: false, inserts, resolve, reject };
      const added: string[] = [];
      try {
        sequences.forEach((sequence, i) => {
          this.engine.enqueue(sequence);
          added.push(sequence.request.requestId);
          this.parts.set(sequence.request.requestId, { requestId: request.requestId, partIndex: plan.turns[i].index });
        });
      } catch (err) {
        // the scheduler refused a part (say, one the KV pool can never hold): the parts queued before it leave at the next step
        for (const id of added) this.engine.cancel(id);
        if (added.length > 0) this.loop.kick();
        inserts?.release();
        reject(toStudioError(err));
        return;
      }
      this.jobs.set(request.requestId, job);
      this.loop.kick();
      this.emitStatus();
    });
  }

  private cancel(requestId: string): { cancelled: boolean } {
    const preparation = this.preparing.get(requestId);
    if (preparation) {
      preparation.cancelled = true;
      preparation.abort.abort(); // a wait for the insert budget ends now
      return { cancelled: true };
    }
    const job = this.jobs.get(requestId);
    if (!job || job.finishing) return { cancelled: false };
    for (const turn of job.plan.turns) this.engine.cancel(turnSequenceId({ requestId, partIndex: turn.index }));
    return { cancelled: true };
  }

  private async drain(graceMs: number): Promise<{ numFinished: number; numCancelled: number }> {
    this.draining = true;
    this.emitStatus();
    const before = this.engine.status();
    const timer = setTimeout(() => {
      for (const id of [...this.preparing.keys(), ...this.jobs.keys()]) this.cancel(id);
    }, graceMs);
    await this.whenNothingPreparing();
    await this.loop.whenIdle();
    while (this.finishing.size > 0) await Promise.all([...this.finishing]);
    clearTimeout(timer);
    const after = this.engine.status();
    return { numFinished: after.numCompleted - before.numCompleted, numCancelled: after.numCancelled - before.numCancelled };
  }

  private onAudio(chunk: AudioChunk): void {
    const key = this.parts.get(chunk.requestId);
    const job = key && this.jobs.get(key.requestId);
    if (!key || !job) return;
    if (job.firstAudioMs === null) job.firstAudioMs = performance.now() - job.startedMs;
    if (job.request.stream) this.emitAudio(key.requestId, job.events.audio(key.partIndex, chunk));
  }

  private emitAudio(requestId: string, chunks: readonly AudioChunk[]): void {
    for (const chunk of chunks) this.emit(EVENTS.onDidProduceAudio, { ...chunk, requestId } satisfies AudioChunk);
  }

  private onProgress(p: SynthesisProgress): void {
    const key = this.parts.get(p.requestId);
    const job = key && this.jobs.get(key.requestId);
    const progress = key && job ? job.events.progress(key.partIndex, p) : null;
    if (key && progress) this.emit(EVENTS.onDidProgress, { ...progress, requestId: key.requestId } satisfies SynthesisProgress);
  }

  private onFinish(outcome: SynthesisOutcome): void {
    const sequenceId = outcome.status === 'done' ? outcome.result.requestId : outcome.requestId;
    if (outcome.status === 'failed' && outcome.error.code === 'device-lost') this.reportDeviceLost(outcome.error);
    const key = this.parts.get(sequenceId);
    this.parts.delete(sequenceId); // a sequence's outcome is its last event
    const job = key && this.jobs.get(key.requestId);
    if (!key || !job) return;
    job.outcomes[key.partIndex] = outcome;
    const failed = outcome.status !== 'done';
    if (!failed) this.emitAudio(key.requestId, job.events.finishPart(key.partIndex)); // later parts' held chunks (only streamed ones are held)
    if (failed) for (const t of job.plan.turns) if (job.outcomes[t.index] === null) this.engine.cancel(turnSequenceId({ requestId: key.requestId, partIndex: t.index }));
    if (job.outcomes.some((o) => o === null)) return;
    job.finishing = true;
    const inserts = job.inserts ?? NO_INSERTS;
    const turns = job.outcomes.every((o) => o?.status === 'done') ? job.outcomes.map((o) => (o as Extract<SynthesisOutcome, { status: 'done' }>).result) : null;
    // a failed or cancelled part is answered before any join; a short recording is joined here (a few ms)
    if (!turns || !this.inserts.joinsOnWorker(turns, job.plan, inserts)) {
      this.complete(key.requestId, job, (done) => joinTurns(job.request, job.plan, done, inserts));
      return;
    }
    // O(audio): resampling, fades, loudness and true peak over the whole recording (seconds per minute of audio); on a worker
    const joining = this.inserts.join(job.request, job.plan, turns, inserts).then(
      (joined) => this.complete(key.requestId, job, () => joined),
      (err: unknown) => this.complete(key.requestId, job, toStudioError(err)),
    );
    this.finishing.add(joining);
    void joining.finally(() => this.finishing.delete(joining));
  }

  /** Joins the turns (or fails the request with the join's error) and answers the call; a job already answered (failAll) is left alone. */
  private complete(requestId: string, job: Job, join: ((turns: SynthesisResult[]) => JoinedAudio) | StudioError): void {
    job.inserts?.release();
    if (this.jobs.get(requestId) !== job) return;
    this.jobs.delete(requestId);
    const failed = (error: StudioError): ReturnType<typeof finishRequest> => ({ outcome: { status: 'failed', requestId, error: error.toJSON() }, error });
    let done: ReturnType<typeof finishRequest>;
    try {
      if (join instanceof StudioError) done = failed(join);
      else done = finishRequest(job.request, job.plan, job.outcomes as SynthesisOutcome[], { startedMs: job.startedMs, firstAudioMs: job.firstAudioMs }, join);
    } catch (err) {
      done = failed(toStudioError(err));
    }
    this.emit(EVENTS.onDidFinish, done.outcome);
    if (done.outcome.status === 'done') job.resolve(done.outcome.result);
    else job.reject(done.error!);
    this.emitStatus();
  }

  private deviceLost = false;

  /** Once: the device is gone, so the process must be replaced (engine-host.ts exits; the supervisor restarts it). */
  private reportDeviceLost(error: SerializedStudioError): void {
    if (this.deviceLost) return;
    this.deviceLost = true;
    this.options.log(`engine: the device was lost (${error.message.slice(0, 200)}); the engine host restarts`);
    this.options.onDeviceLost?.(new StudioError('device-lost', error.message));
  }

  private failAll(error: StudioError): void {
    for (const [id, part] of this.parts) if (this.jobs.has(part.requestId)) this.parts.delete(id);
    for (const [id, job] of this.jobs) {
      this.jobs.delete(id);
      job.inserts?.release();
      job.reject(error);
    }
    this.emitStatus();
  }

  private emitStatus(): void {
    this.emit(EVENTS.onDidChangeEngineStatus, this.status());
  }
}
