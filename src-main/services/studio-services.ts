/**
 * The main-side services behind the contract: each handler forwards to the engine host and routes
 * host events back to the caller that owns the request (or to every caller for status events).
 * Transport-neutral: Electron IPC, the WebSocket bridge and the HTTP API all use these handlers.
 */
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { StudioError } from '../../src-shared/errors';
import type { AppInfo } from '../../src-shared/contract/app';
import type { ImportedAudio } from '../../src-shared/contract/desktop';
import type { SynthesisResult } from '../../src-shared/synthesis';
import type { CallContext, Handlers } from '../api/dispatcher';
import type { HostMethod } from '../engine-protocol/protocol';
import type { HostClientState } from '../engine-client/host-client';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import type { EngineStatus, ModelInfo } from '../../src-shared/synthesis';
import path from 'node:path';
import { LibraryService } from './library-service';
import { ProjectService } from './project-service';
import { BenchService, createLibraryRunStore, createProtocolBenchRunner, type BenchRunnerPort } from './bench-service';
import { createBenchRunStore, type BenchRunStore } from '../library/bench-run-store';
import type { SqliteBackendLoader } from '../library/open-sqlite';
import { ModelsService, type ModelManagerPort } from './models-service';
import { ExportService, exportOwnerOf } from './export-service';
import { checkSynthesisShare } from './client-shares';
import { ssmlOptionsForRequest } from '../ssml/ssml-options';
import type { FileGrants } from '../access/file-grants';
import { VoiceLibraryService, defaultReservedVoiceNames, selectSavedVoices } from './voice-library-service';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { readFile, stat } from 'node:fs/promises';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';
import { RenderService } from './render-service';
import { clientAppInfo, clientEngineStatus, clientModelEntries, clientModelInfo, clientModelsState, clientSavedVoices } from '../access/client-view';

/** The engine status the UI sees while the host process is not answering. */
function statusForHostState(state: HostClientState, detail: string, last: EngineStatus | null): EngineStatus | null {
  if (state === 'ready' || state === 'disposed') return null;
  const base: EngineStatus = last ?? {
    state: 'starting', provider: '', providerReason: '', queueDepth: 0, numWaiting: 0, numRunning: 0, numInFlight: 0,
    gpuLeased: false, numCompleted: 0, numFailed: 0, numCancelled: 0, numRejected: 0, numRestarts: 0, model: null, engineVersion: '',
  };
  return { ...base, state: state === 'restarting' ? 'restarting' : state === 'failed' ? 'failed' : 'starting', providerReason: detail };
}

export interface StudioServicesOptions {
  host: EngineHostApi;
  appInfo: () => AppInfo;
  /** The benchmark runner and model manager behind the dashboard and Models page (optional). */
  benchRunner?: BenchRunnerPort;
  modelManager?: ModelManagerPort;
  /** Native dialogs and imports of the desktop app; absent on the headless host (the channels answer 'unsupported'). */
  desktop?: DesktopPort;
  /** SQLite backends for the library, in order (tests inject failing ones); default: the runtime's order. */
  sqliteLoaders?: readonly SqliteBackendLoader[];
  /** Restarts the engine host on another model; absent where the host cannot switch (tests). */
  loadModel?: (modelId: string) => Promise<ModelInfo | null>;
  /** Paths callers may name (projects); default: the data folder's projects folder only. */
  grants?: FileGrants;
  /** Input size limits checked here, before a byte crosses to the engine host (the host checks again). */
  inputLimits?: InputLimits;
}

export interface InputLimits {
  /** Plain text: the engine's token budget in characters (maxSequenceTokens × characters per token). */
  maxTextChars: number;
  /** SSML documents: the parser's byte limit (several turns, each within the token budget). */
  maxSsmlBytes: number;
}

/** Refuses input that cannot fit by its length alone; UTF-16 length ≤ UTF-8 bytes, so this never refuses a fitting document. */
export function checkInputLimits(input: string, inputFormat: 'text' | 'ssml', limits: InputLimits): void {
  const limit = inputFormat === 'ssml' ? limits.maxSsmlBytes : limits.maxTextChars;
  if (input.length <= limit) return;
  const unit = inputFormat === 'ssml' ? 'bytes' : 'characters';
  throw new StudioError(
    'input-too-long',
    `the ${inputFormat === 'ssml' ? 'SSML document' : 'text'} is at least ${input.length.toLocaleString('en-US')} ${unit} but at most ${limit.toLocaleString('en-US')} fit; split the text into shorter requests (sentences or paragraphs)`,
    { field: 'input', numChars: input.length, maxChars: limit },
  );
}

/** What the desktop channels need of the Electron side (src-main/desktop/desktop-service.ts implements it). */
export interface DesktopPort {
  showOpenProject(): Promise<{ path: string | null }>;
  showSaveProject(suggestedName: string): Promise<{ path: string | null }>;
  showImportAudio(): Promise<{ imported: ImportedAudio[] }>;
  showOpenDocument(): Promise<{ path: string | null }>;
}

const MAX_RECENT_RESULTS = 16;

/** `value` for the local admin session; for a remote client, `redact(value)` (server paths taken out, access/client-view.ts). */
const forCaller = <T>(ctx: CallContext, value: T, redact: (v: T) => T): T => (ctx.role === 'admin' ? value : redact(value));

/** Events that belong to one request carry its requestId (directly or in the outcome). */
function requestIdOf(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as { requestId?: unknown; result?: { requestId?: unknown } };
  if (typeof p.requestId === 'string') return p.requestId;
  if (p.result && typeof p.result.requestId === 'string') return p.result.requestId;
  return null;
}

export class StudioServices {
  readonly handlers: Handlers;
  private readonly owners = new Map<string, CallContext>();
  private readonly subscribers = new Map<string, CallContext>();
  /**
   * The last few synthesis results with the caller that made each, so studio:library.saveClip can
   * store one without the audio crossing the wire again — for that caller only.
   */
  private readonly recentResults = new Map<string, { callerId: string; result: SynthesisResult }>();
  /** Audio exports in progress (no disk, so not part of uiServices()). */
  private readonly exports = new ExportService();
  private ui: { projects: ProjectService; bench: BenchService; models: ModelsService } | null = null;
  private library: LibraryService | null = null;
  private voices: VoiceLibraryService | null = null;
  private renders: RenderService | null = null;

  constructor(private readonly options: StudioServicesOptions) {
    options.host.onEvent((event, payload) => this.route(event, payload));
    options.host.onDidChangeState?.((state, detail) => {
      const status = statusForHostState(state, detail, options.host.lastKnownStatus ?? null);
      if (status) this.route(EVENTS.onDidChangeEngineStatus, status);
    });
    this.handlers = {
      [CHANNELS.info]: async (_req, ctx) => forCaller(ctx, options.appInfo(), clientAppInfo),
      [CHANNELS.ping]: async (req) => ({ message: req.message, receivedAtMs: Date.now() }),
      [CHANNELS.synthesize]: async (req, ctx) => {
        if (this.owners.has(req.requestId)) {
          throw new StudioError('invalid-argument', `requestId '${req.requestId}' is already in flight; use a unique id per request`, { field: 'requestId' });
        }
        if (options.inputLimits) checkInputLimits(req.input, req.inputFormat, options.inputLimits);
        checkSynthesisShare(this.owners.values(), ctx);
        this.owners.set(req.requestId, ctx);
        try {
          const result = await options.host.call('synthesize', { ...this.attachSavedVoices(req, ctx.savedVoices), clientId: ctx.clientId ?? ctx.callerId });
          this.recentResults.set(req.requestId, { callerId: ctx.callerId, result });
          if (this.recentResults.size > MAX_RECENT_RESULTS) this.recentResults.delete(this.recentResults.keys().next().value!);
          return result;
        } finally {
          this.owners.delete(req.requestId);
        }
      },
      [CHANNELS.cancel]: async (req, ctx) => {
        // A request id belongs to the caller that started it; anyone else's cancel is a no-op.
        if (this.owners.get(req.requestId)?.callerId !== ctx.callerId) return { cancelled: false };
        return options.host.call('cancel', req);
      },
      [CHANNELS.listVoices]: async () => options.host.call('listVoices', {}),
      [CHANNELS.engineStatus]: async (_req, ctx) => forCaller(ctx, await options.host.call('status', {}), clientEngineStatus),
      [CHANNELS.modelInfo]: async (_req, ctx) => forCaller(ctx, await options.host.call('modelInfo', {}), clientModelInfo),
      [CHANNELS.loadModel]: async (req) => {
        if (!options.loadModel) throw new StudioError('unsupported', 'this host cannot switch models; restart it with --model', { modelId: req.modelId });
        return options.loadModel(req.modelId);
      },
      [CHANNELS.listClips]: async (req) => this.libraryService().listClips(req),
      [CHANNELS.saveClip]: async (req, ctx) => {
        const recent = req.fromRequestId ? this.recentResults.get(req.fromRequestId) : undefined;
        // Another caller's request id is answered like an unknown one: ids are not shared.
        const pcm = req.pcm ?? (recent?.callerId === ctx.callerId ? recent.result.pcm : undefined);
        if (!pcm) throw new StudioError('invalid-argument', `saveClip needs pcm, or fromRequestId of one of your last ${MAX_RECENT_RESULTS} synthesize calls on this connection; '${req.fromRequestId ?? ''}' is not one — send the pcm`, { field: 'fromRequestId' });
        return this.libraryService().saveClip(req.clip, pcm);
      },
      [CHANNELS.getClip]: async (req) => this.libraryService().getClip(req.id),
      [CHANNELS.readClipAudio]: async (req) => this.libraryService().readClipAudio(req.id),
      [CHANNELS.deleteClip]: async (req) => ({ deleted: await this.libraryService().deleteClip(req.id) }),
      [CHANNELS.updateClip]: async (req) => this.libraryService().updateClip(req.id, { title: req.title, favourite: req.favourite, chooseTake: req.chooseTake }),
      [CHANNELS.saveProject]: async (req) => this.uiServices().projects.save(req.project, req.path),
      [CHANNELS.openProject]: async (req) => this.uiServices().projects.open(req.path),
      [CHANNELS.listRecent]: async () => this.uiServices().projects.listRecent(),
      [CHANNELS.listProjects]: async () => this.uiServices().projects.listProjects(),
      [CHANNELS.deleteProject]: async (req) => ({ deleted: await this.uiServices().projects.deleteProject(req.path) }),
      [CHANNELS.autosave]: async (req) => this.uiServices().projects.autosave(req.project, req.path),
      [CHANNELS.readRecovery]: async () => this.uiServices().projects.readRecovery(),
      [CHANNELS.discardRecovery]: async () => ({ discarded: await this.uiServices().projects.discardRecovery() }),
      [CHANNELS.validateSsml]: async (req) => {
        // The loaded model's voices and languages, as generation checks them; none loaded: any voice passes.
        const info = await options.host.call('modelInfo', {}).catch(() => null);
        const saved = this.savedVoicesFor({ input: req.text, inputFormat: 'ssml', voice: '' }).map((v) => ({ name: v.name }));
        const facts = { voices: info ? [...info.voices, ...saved] : null, languages: info?.languages ?? null, requestLanguage: req.language };
        return this.uiServices().projects.validateSsml(req.text, ssmlOptionsForRequest(req.ssmlOptions, facts));
      },
      [CHANNELS.startRun]: async (req, ctx) =>
        this.uiServices().bench.startRun(req, (s) => ctx.emit(EVENTS.onDidSample, s), (v) => ctx.emit(EVENTS.onDidFinishRun, v)),
      [CHANNELS.stopRun]: async (req) => ({ stopped: this.uiServices().bench.stopRun(req.runId) }),
      [CHANNELS.listRuns]: async () => this.uiServices().bench.listRuns(),
      [CHANNELS.getRun]: async (req) => this.uiServices().bench.getRun(req.runId),
      [CHANNELS.exportRun]: async (req) => this.uiServices().bench.exportRun(req.runId, req.format),
      [CHANNELS.listModels]: async (_req, ctx) => forCaller(ctx, await this.uiServices().models.listModels(), clientModelEntries),
      [CHANNELS.pullModel]: async (req, ctx) => this.uiServices().models.pullModel(req.modelId, (p) => ctx.emit(EVENTS.onDidProgressPull, p), { build: req.build }),
      [CHANNELS.planPull]: async (req) => this.uiServices().models.planPull(req.modelId),
      [CHANNELS.cancelPull]: async (req) => ({ cancelled: await this.uiServices().models.cancelPull(req.modelId) }),
      [CHANNELS.modelsState]: async (_req, ctx) => forCaller(ctx, await this.uiServices().models.modelsState(), clientModelsState),
      [CHANNELS.removeModel]: async (req) => ({ removed: await this.uiServices().models.removeModel(req.modelId) }),
      [CHANNELS.verifyModel]: async (req) => this.uiServices().models.verifyModel(req.modelId),
      [CHANNELS.appendExportAudio]: async (req, ctx) => this.exports.append(exportOwnerOf(ctx), req.exportId, req.pcm),
      [CHANNELS.encodeExportAudio]: async (req, ctx) => this.exports.encode(exportOwnerOf(ctx), req),
      [CHANNELS.showOpenProject]: async () => this.desktop().showOpenProject(),
      [CHANNELS.showSaveProject]: async (req) => this.desktop().showSaveProject(req.suggestedName),
      [CHANNELS.showImportAudio]: async () => this.desktop().showImportAudio(),
      [CHANNELS.listSavedVoices]: async (_req, ctx) => forCaller(ctx, this.voiceLibrary().list(), clientSavedVoices),
      [CHANNELS.cloneVoice]: async (req) => {
        const library = this.voiceLibrary();
        library.checkName(req.name); // before the clip is read or the encoder runs
        const audio = req.audio ?? (await this.readGrantedClip(req.path!));
        const originalName = req.originalName ?? (req.path ? path.basename(req.path) : 'clip');
        const model = await options.host.call('modelInfo', {});
        return library.clone({ name: req.name, audio, originalName, refText: req.refText }, model, (bytes, refText) => options.host.call('makeVoice', { audio: bytes, refText }));
      },
      [CHANNELS.designVoice]: async (req) => this.voiceLibrary().design(req, await options.host.call('modelInfo', {})),
      [CHANNELS.renameVoice]: async (req) => this.voiceLibrary().rename(req.id, req.name),
      [CHANNELS.deleteVoice]: async (req) => ({ deleted: await this.voiceLibrary().delete(req.id) }),
      [CHANNELS.addVoiceSample]: async (req) => {
        const audio = req.audio ?? (await this.readGrantedClip(req.path!));
        const originalName = req.originalName ?? (req.path ? path.basename(req.path) : 'clip');
        const model = await options.host.call('modelInfo', {});
        return this.voiceLibrary().addSample(req.id, { audio, originalName, refText: req.refText }, model, (bytes, refText) => options.host.call('makeVoice', { audio: bytes, refText }));
      },
      [CHANNELS.useVoiceSample]: async (req) => this.voiceLibrary().useSample(req.id, req.sampleId),
      [CHANNELS.showOpenDocument]: async () => this.desktop().showOpenDocument(),
      [CHANNELS.startRender]: async (req) => this.renderService().start(req),
      [CHANNELS.listRenders]: async () => this.renderService().list(),
      [CHANNELS.cancelRender]: async (req) => ({ cancelled: this.renderService().cancel(req.jobId) }),
      [CHANNELS.resumeRender]: async (req) => this.renderService().resume(req.jobId),
      [CHANNELS.getRenderQueue]: async () => ({ queueUrl: this.renderService().readQueueUrl() }),
      [CHANNELS.setRenderQueue]: async (req) => this.renderService().setQueueUrl(req.queueUrl),
    };
  }

  private desktop(): DesktopPort {
    if (!this.options.desktop) throw new StudioError('unsupported', 'native dialogs exist only in the desktop app; in a browser, use the project list and the data folder', {});
    return this.options.desktop;
  }

  /**
   * The library, opened on first use. Kept apart from the other services: when no SQLite backend
   * loads in this runtime its calls fail with 'unavailable' (and the fix) while projects, bench and
   * models keep working; the next call tries again.
   */
  private libraryService(): LibraryService {
    this.library ??= new LibraryService({ dataDir: this.options.appInfo().userDataDir, sqliteLoaders: this.options.sqliteLoaders });
    return this.library;
  }

  /** The voice library, in the library database (so unavailable with it). */
  voiceLibrary(): VoiceLibraryService {
    if (this.voices) return this.voices;
    const library = this.libraryService();
    this.voices = new VoiceLibraryService({ dataDir: this.options.appInfo().userDataDir, libraryDb: library.libraryDb, reservedNames: defaultReservedVoiceNames() });
    return this.voices;
  }

  /** Every saved voice with what makes it speak: one read of the library; none when it is unavailable (the engine then refuses the name). */
  savedVoiceLibrary(): SavedVoiceConditioning[] {
    try {
      return this.voiceLibrary().conditioning();
    } catch {
      return [];
    }
  }

  /**
   * The saved voices a request may speak in: plain text, the one its voice names; SSML, those its
   * voice or the document names. From `library` when the caller already read it, else from a read now.
   */
  savedVoicesFor(req: Pick<SynthesisRequest, 'input' | 'inputFormat' | 'voice'>, library: readonly SavedVoiceConditioning[] = this.savedVoiceLibrary()): SavedVoiceConditioning[] {
    return selectSavedVoices(library, req);
  }

  /** The request with the saved voices it names attached (unchanged when it names none). */
  attachSavedVoices(req: SynthesisRequest, library?: readonly SavedVoiceConditioning[]): SynthesisRequest {
    const savedVoices = this.savedVoicesFor(req, library);
    return savedVoices.length > 0 ? { ...req, savedVoices } : req;
  }

  /** A clip named by path: only one the user picked or dropped (granted), read whole within the size limit. */
  private async readGrantedClip(clipPath: string): Promise<Uint8Array> {
    const grants = this.options.grants;
    if (!grants) throw new StudioError('forbidden', 'this host takes clips as uploaded bytes only; send audio instead of path', { field: 'path' });
    const real = grants.check(clipPath, 'read');
    const sizeBytes = (await stat(real).catch(() => null))?.size ?? 0;
    if (sizeBytes > MAX_REFERENCE_BYTES) {
      throw new StudioError('payload-too-large', `the clip is ${(sizeBytes / 1048576).toFixed(0)} MB but at most ${MAX_REFERENCE_BYTES / 1048576} MB is read; cut it to 5–15 s`, { field: 'path' });
    }
    try {
      return new Uint8Array(await readFile(real));
    } catch {
      throw new StudioError('not-found', `the clip ${path.basename(real)} could not be read; import it again`, { field: 'path' });
    }
  }

  /** Renders (the Render page), created on first use; their events go to admin windows only. */
  private renderService(): RenderService {
    const host = this.options.host;
    // Local renders speak saved voices as the Speak screen does; queue jobs carry them (savedVoicesFor).
    const withSavedVoices: Pick<EngineHostApi, 'call'> & { readonly size?: number } = {
      get size() {
        return (host as { size?: number }).size;
      },
      call: ((method: HostMethod, args: never) => host.call(method, method === 'synthesize' ? this.attachSavedVoices(args as SynthesisRequest) : args)) as EngineHostApi['call'],
    };
    this.renders ??= new RenderService({
      dataDir: this.options.appInfo().userDataDir,
      host: withSavedVoices,
      savedVoicesFor: (req) => this.savedVoicesFor(req),
      grants: this.options.grants,
      openProject: (p) => this.uiServices().projects.open(p),
      saveToLibrary: (clip, pcm) => this.libraryService().saveClip(clip, pcm),
      onDidChange: (job) => {
        for (const ctx of this.subscribers.values()) if (ctx.role === 'admin') ctx.emit(EVENTS.onDidChangeRender, job);
      },
    });
    return this.renders;
  }

  /** Stops running renders (each stays resumable) before the engines go away. */
  async dispose(): Promise<void> {
    await this.renders?.dispose();
  }

  /** Projects, bench and models services, created on first use in the user data folder. */
  private uiServices(): NonNullable<StudioServices['ui']> {
    if (this.ui) return this.ui;
    const dataDir = this.options.appInfo().userDataDir;
    const host = this.options.host;
    const runner = this.options.benchRunner ?? createProtocolBenchRunner(host, (req) => this.savedVoicesFor(req));
    // Bench history lives in the library database; a run store that opens it lazily lets a
    // benchmark run (unsaved) when the library is unavailable.
    let store: BenchRunStore | null = null;
    const runs = (): BenchRunStore => (store ??= createBenchRunStore(this.libraryService().libraryDb));
    const runStore = createLibraryRunStore({
      save: (record) => runs().save(record),
      list: (opts) => runs().list(opts),
      get: (runId) => runs().get(runId),
      delete: (runId) => runs().delete(runId),
    });
    this.ui = {
      projects: new ProjectService({ dataDir, grants: this.options.grants }),
      bench: new BenchService({ runner, runStore }),
      models: new ModelsService({ modelsDir: path.join(dataDir, 'models'), loadedModel: () => this.options.host.call('modelInfo', {}), manager: this.options.modelManager, grants: this.options.grants }),
    };
    return this.ui;
  }

  /** A caller (window, socket) that wants broadcast events such as engine status. */
  attach(ctx: CallContext): () => void {
    this.subscribers.set(ctx.callerId, ctx);
    return () => this.detach(ctx.callerId);
  }

  /** A caller went away: forget it, cancel what it still had in flight and drop its unfinished exports. */
  detach(callerId: string): void {
    this.subscribers.delete(callerId);
    this.exports.dropCaller(callerId);
    for (const [requestId, ctx] of this.owners) {
      if (ctx.callerId === callerId) void this.options.host.call('cancel', { requestId }).catch(() => {});
    }
  }

  private route(event: string, payload: unknown): void {
    const requestId = requestIdOf(payload);
    if (requestId !== null && event !== EVENTS.onDidChangeEngineStatus) {
      this.owners.get(requestId)?.emit(event, payload);
      return;
    }
    const status = event === EVENTS.onDidChangeEngineStatus ? (payload as EngineStatus) : null;
    for (const ctx of this.subscribers.values()) ctx.emit(event, status ? forCaller(ctx, status, clientEngineStatus) : payload);
  }
}
