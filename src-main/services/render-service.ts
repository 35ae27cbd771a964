/**
 * The Render page's service: copies the document into <data>/renders/<id>/, plans it with the CLI's
 * split (render-plan.ts), renders the parts on the engine pool (render-local.ts) or submits them to
 * BullMQ (render-queue.ts, loaded only then), assembles them by the CLI's rule (render-parts.ts)
 * and saves the work to the Library. Progress is persisted after every part, so a restart loses
 * nothing: the render is listed 'interrupted' and Resume skips the parts already on disk.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { RenderJob, RenderStartRequest } from '../../src-shared/contract/render';
import type { ClipRecord, NewClip } from '../../src-shared/contract/library';
import type { ProjectDocument } from '../../src-shared/contract/projects';
import type { ModelInfo, SynthesisRequest } from '../../src-shared/synthesis';
import type { FileGrants } from '../access/file-grants';
import { decodeWav } from '../audio/wav';
import { planRender, type RenderPlan } from '../render/render-plan';
import { assembleWork, defaultAssemblyConfig, type SavedVoicesForPart } from '../render/render-parts';
import { renderLocally } from '../render/render-local';
import type { RenderProgress } from '../render/render-progress';
import { RenderJobStore, type RenderRecord } from '../render/render-job-store';
import { checkOutputDir } from '../render/render-job-schema';
import type { RenderQueueConfig } from '../render/render-queue';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import type { EngineHostApi } from '../engine-client/engine-host-api';

export interface RenderServiceOptions {
  dataDir: string;
  host: Pick<EngineHostApi, 'call'> & { readonly size?: number };
  /** Paths a caller may read (file sources) and write (output folders); none given: only text and projects. */
  grants?: FileGrants;
  /** Opens a project file (grant-checked by the project service). */
  openProject(filePath: string): Promise<{ project: ProjectDocument }>;
  /** Stores the finished work in the Library; a failure leaves the render done without a clip. */
  saveToLibrary?(clip: NewClip, pcm: Float32Array): Promise<ClipRecord>;
  onDidChange(job: RenderJob): void;
  /** Parts in flight at once on the local engines; default 4 per engine. */
  concurrency?: number;
  /** Tries per part on the local engines (a crashed engine is restarted by the pool). */
  attempts?: number;
  queueConfig?: Partial<RenderQueueConfig>;
  /** The saved voices a request names; queue jobs carry them to workers in other processes. */
  savedVoicesFor?(req: Pick<SynthesisRequest, 'input' | 'inputFormat' | 'voice'>): SavedVoiceConditioning[];
  nowMs?: () => number;
}

const MAX_RETRIES_SHOWN = 20;
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'render';

export class RenderService {
  private readonly store: RenderJobStore;
  private readonly records = new Map<string, RenderRecord>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly nowMs: () => number;
  private disposing = false;

  constructor(private readonly options: RenderServiceOptions) {
    this.store = new RenderJobStore(options.dataDir);
    this.nowMs = options.nowMs ?? Date.now;
    for (const record of this.store.loadAll()) this.records.set(record.job.id, record);
  }

  list(): RenderJob[] {
    return [...this.records.values()].map((r) => r.job).sort((a, b) => b.createdAtMs - a.createdAtMs);
  }

  async start(req: RenderStartRequest): Promise<RenderJob> {
    const id = randomUUID();
    const jobDir = this.store.jobDir(id);
    const outputDir = req.outputDir === undefined ? jobDir : checkOutputDir(this.granted(req.outputDir, 'write'));
    const { documentPath, title } = await this.copyDocument(req, jobDir);
    const info = await this.options.host.call('modelInfo', {});
    const settings = { voice: req.voice.toLowerCase(), language: req.language.toLowerCase(), seed: req.seed, params: req.params, model: info?.id ?? 'none' };
    const plan = this.plan(documentPath, settings, jobDir);
    const queueUrl = this.readQueueUrl();
    const now = this.nowMs();
    const job: RenderJob = {
      id, title, state: 'running', mode: queueUrl ? 'queue' : 'local', createdAtMs: now, updatedAtMs: now, voice: settings.voice, language: settings.language, seed: settings.seed,
      outputDir, numParts: plan.parts.length, numDone: 0, numFailed: 0, chapters: plan.chapters.map((c) => ({ ...c, numDone: 0 })),
      failures: [], retries: [], outputPath: null, clipId: null, durationMs: null, error: null,
    };
    this.records.set(id, { job, documentPath, settings, queueUrl, ...(req.loudness ? { loudness: { ...req.loudness } } : {}) });
    this.run(id, plan);
    return this.update(id, {});
  }

  async resume(jobId: string): Promise<RenderJob> {
    const record = this.recordOf(jobId);
    if (this.running.has(jobId)) return record.job;
    const info = await this.options.host.call('modelInfo', {});
    if (info && info.id !== record.settings.model) {
      throw new StudioError('invalid-argument', `this render was started with model '${record.settings.model}' but '${info.id}' is loaded; load that model on the Models page, then Resume`, { field: 'model' });
    }
    const plan = this.plan(record.documentPath, record.settings, this.store.jobDir(jobId));
    this.update(jobId, { state: 'running', failures: [], retries: [], error: null, mode: record.queueUrl ? 'queue' : 'local' });
    this.run(jobId, plan);
    return record.job;
  }

  cancel(jobId: string): boolean {
    const run = this.running.get(jobId);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** Resolves when the job's current run has ended (tests; dispose). */
  async settled(jobId: string): Promise<void> {
    await this.running.get(jobId)?.done;
  }

  /** Stops every render (the app quits): each is left 'interrupted', resumable at the next start. */
  async dispose(): Promise<void> {
    this.disposing = true;
    const runs = [...this.running.values()];
    for (const r of runs) r.abort.abort();
    await Promise.all(runs.map((r) => r.done));
  }

  readQueueUrl(): string | null {
    try {
      return (JSON.parse(fs.readFileSync(path.join(this.store.rootDir, 'queue.json'), 'utf8')) as { queueUrl: string | null }).queueUrl;
    } catch {
      return null;
    }
  }

  setQueueUrl(queueUrl: string | null): { queueUrl: string | null } {
    const value = queueUrl?.trim() || null;
    if (value !== null && !/^rediss?:\/\/[^\s]+$/.test(value)) {
      throw new StudioError('invalid-argument', `the render queue must be a redis:// or rediss:// URL (redis://host:6379), got '${value.slice(0, 100)}'`, { field: 'queueUrl' });
    }
    fs.mkdirSync(this.store.rootDir, { recursive: true });
    fs.writeFileSync(path.join(this.store.rootDir, 'queue.json'), JSON.stringify({ queueUrl: value }));
    return { queueUrl: value };
  }

  private granted(p: string, access: 'read' | 'write'): string {
    if (!this.options.grants) throw new StudioError('forbidden', 'that file is not available to this client; pick it in the studio (Open/Import) or place it in the data folder');
    return this.options.grants.check(p, access);
  }

  /** Copies the document into the job folder (a folder source: its text files) and names the render. */
  private async copyDocument(req: RenderStartRequest, jobDir: string): Promise<{ documentPath: string; title: string }> {
    fs.mkdirSync(jobDir, { recursive: true });
    const src = req.source;
    if (src.kind === 'text' || src.kind === 'project') {
      const { text, inputFormat, title } = src.kind === 'text' ? src : await this.options.openProject(src.path).then(({ project }) => ({ ...project.editor, title: project.name }));
      const documentPath = path.join(jobDir, `document.${inputFormat === 'ssml' ? 'ssml' : 'txt'}`);
      fs.writeFileSync(documentPath, text);
      return { documentPath, title: title.trim().slice(0, 200) || 'Render' };
    }
    const real = this.granted(src.path, 'read');
    const title = path.basename(real).replace(/\.[^.]+$/, '');
    if (fs.statSync(real, { throwIfNoEntry: false })?.isDirectory()) {
      const documentPath = path.join(jobDir, 'document');
      fs.mkdirSync(documentPath, { recursive: true });
      for (const f of fs.readdirSync(real).filter((f) => /\.(txt|md|ssml|xml)$/i.test(f))) fs.copyFileSync(path.join(real, f), path.join(documentPath, f));
      return { documentPath, title };
    }
    const documentPath = path.join(jobDir, `document${path.extname(real) || '.txt'}`);
    fs.copyFileSync(real, documentPath);
    return { documentPath, title };
  }

  /** The saved voices a part of this render speaks in (their content is part of its id; queue jobs carry them). */
  private savedVoicesFor(settings: RenderRecord['settings']): SavedVoicesForPart {
    return (part) => this.options.savedVoicesFor?.({ ...part, voice: settings.voice }) ?? [];
  }

  private plan(documentPath: string, settings: RenderRecord['settings'], jobDir: string): RenderPlan {
    try {
      return planRender(documentPath, settings, { savedVoicesFor: this.savedVoicesFor(settings) });
    } catch (err) {
      // the message names the copy in the job folder; the user knows the document
      const error = toStudioError(err);
      throw new StudioError(error.code, error.message.replaceAll(jobDir + path.sep, ''), error.details);
    }
  }

  private recordOf(jobId: string): RenderRecord {
    const record = this.records.get(jobId);
    if (!record) throw new StudioError('not-found', `no render '${jobId}'; list renders to see their ids`, { field: 'jobId' });
    return record;
  }

  private update(jobId: string, patch: Partial<RenderJob>): RenderJob {
    const record = this.recordOf(jobId);
    record.job = { ...record.job, ...patch, updatedAtMs: this.nowMs() };
    this.store.save(record);
    this.options.onDidChange(record.job);
    return record.job;
  }

  private run(jobId: string, plan: RenderPlan): void {
    const abort = new AbortController();
    const done = this.execute(jobId, plan, abort.signal).finally(() => this.running.delete(jobId));
    this.running.set(jobId, { abort, done });
  }

  private async execute(jobId: string, plan: RenderPlan, signal: AbortSignal): Promise<void> {
    const record = this.recordOf(jobId);
    const { outputDir } = record.job;
    const startedMs = this.nowMs();
    const onProgress = (p: RenderProgress) => this.update(jobId, { numDone: p.numDone, numFailed: p.numFailed, chapters: p.chapters });
    try {
      let result: { failures: { part: { index: number; chapter: number }; reason: string }[]; cancelled: boolean };
      if (record.queueUrl) {
        const { submitRender, defaultQueueConfig } = await import('../render/render-queue');
        const onNotice = (notice: string | null) => this.update(jobId, { error: notice });
        result = await submitRender(record.queueUrl, plan, outputDir, onProgress, { ...defaultQueueConfig(), ...this.options.queueConfig }, { signal, savedVoicesFor: this.savedVoicesFor(plan.settings), onNotice });
      } else {
        const concurrency = this.options.concurrency ?? 4 * (this.options.host.size ?? 1);
        const onRetry = (part: { index: number }, attempt: number, reason: string) =>
          this.update(jobId, { retries: [...record.job.retries, { partIndex: part.index, attempt, reason }].slice(-MAX_RETRIES_SHOWN) });
        result = await renderLocally(this.options.host, plan, outputDir, onProgress, { concurrency, attempts: this.options.attempts ?? 3, signal, onRetry });
      }
      const failures = result.failures.map((f) => ({ partIndex: f.part.index, chapter: f.part.chapter, reason: f.reason }));
      if (result.cancelled) {
        this.update(jobId, { state: this.disposing ? 'interrupted' : 'cancelled', failures });
        return;
      }
      if (failures.length > 0) {
        this.update(jobId, { state: 'failed', failures, error: `${failures.length} of ${plan.parts.length} parts failed; fix them and Resume (finished parts are kept)` });
        return;
      }
      const work = assembleWork(plan, outputDir, { ...defaultAssemblyConfig(), ...(record.loudness ? { loudness: record.loudness } : {}) });
      const outputPath = path.join(outputDir, `${slug(record.job.title)}.wav`);
      fs.writeFileSync(outputPath, work.wav);
      const durationMs = Math.round((work.numSamples / work.sampleRateHz) * 1000);
      const clipId = await this.saveClip(record, plan, decodeWav(work.wav).pcm, work.sampleRateHz, durationMs, this.nowMs() - startedMs);
      this.update(jobId, { state: 'done', outputPath, durationMs, clipId });
    } catch (err) {
      const error = toStudioError(err);
      this.update(jobId, { state: 'failed', error: `${error.code}: ${error.message}` });
    }
  }

  private async saveClip(record: RenderRecord, plan: RenderPlan, pcm: Float32Array, sampleRateHz: number, durationMs: number, elapsedMs: number): Promise<string | null> {
    if (!this.options.saveToLibrary) return null;
    try {
      const info = (await this.options.host.call('modelInfo', {})) as ModelInfo | null;
      const oneFile = fs.statSync(record.documentPath).isFile();
      const clip: NewClip = {
        title: record.job.title,
        input: oneFile ? fs.readFileSync(record.documentPath, 'utf8') : plan.parts.map((p) => p.input).join('\n\n'),
        inputFormat: oneFile && plan.parts.every((p) => p.inputFormat === 'ssml') ? 'ssml' : 'text',
        voice: record.settings.voice,
        language: record.settings.language,
        seed: record.settings.seed,
        instruct: null,
        params: { ...info!.defaultParams, ...record.settings.params },
        modelHash: info?.modelHash ?? '',
        timings: { numPromptTokens: 0, numFrames: 0, queueWaitMs: 0, latencyFirstAudioMs: 0, latencyTotalMs: elapsedMs, audioDurationMs: durationMs, rtf: durationMs > 0 ? elapsedMs / durationMs : 0 },
        sampleRateHz,
        turnSpans: [],
      };
      return (await this.options.saveToLibrary(clip, pcm)).id;
    } catch (err) {
      this.update(record.job.id, { error: `saved to ${record.job.outputDir}, not to the Library: ${toStudioError(err).message}` });
      return null;
    }
  }
}
