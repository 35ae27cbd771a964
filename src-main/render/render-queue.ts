/**
 * Bulk rendering on BullMQ + Redis: the submitter adds one job per part (job id = part id, so a part
 * is queued once however often it is submitted) and follows their states; workers take jobs and
 * render them on their local engine pool. Retries with backoff, stalled-job detection (a worker
 * that died: its lock expires and another takes the job) and persistence are BullMQ's and Redis's.
 */
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { EngineHostApi } from '../services/studio-services';
import type { RenderPart, RenderPlan, RenderSettings } from './render-plan';
import { isPermanentFailure, partFile, renderPart, type PartOutcome, type SavedVoicesForPart } from './render-parts';
import fs from 'node:fs';
import os from 'node:os';
import { progressOf, type PartFailure, type RenderProgress } from './render-progress';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';

export const RENDER_QUEUE_NAME = 'studio-render';

/** What a job carries: everything a worker on another machine needs to render and store the part. */
export interface RenderJobData {
  part: Pick<RenderPart, 'id' | 'index' | 'chapter' | 'input' | 'inputFormat'>;
  settings: RenderSettings;
  /** The folder the part's file goes to (shared between machines). */
  outputDir: string;
  /**
   * The saved voices the part speaks in, their conditioning carried whole: a worker on another
   * machine needs no voice library, and a retry speaks the voice the job was queued with.
   */
  savedVoices?: SavedVoiceConditioning[];
}

/** Queue bounds; defaultQueueConfig() holds the defaults. */
export interface RenderQueueConfig {
  /** Tries per job (a worker's death counts as a try once BullMQ finds the job stalled). */
  attempts: number;
  /** First retry delay; doubles with each try. */
  backoffMs: number;
  /** A job's lock; a worker that has not renewed it this long is dead, and its job is taken again. */
  lockDurationMs: number;
  /** How often workers look for stalled jobs. */
  stalledIntervalMs: number;
  /** Times a job may stall before it fails. */
  maxStalledCount: number;
  /** How often the submitter reads the jobs' states. */
  pollIntervalMs: number;
}

export function defaultQueueConfig(): RenderQueueConfig {
  return { attempts: 5, backoffMs: 1_000, lockDurationMs: 30_000, stalledIntervalMs: 15_000, maxStalledCount: 3, pollIntervalMs: 250 };
}

/** BullMQ connection options for a redis:// URL (retries forever while Redis is away). */
export function connectionFor(url: string): ConnectionOptions {
  if (!/^rediss?:\/\//.test(url)) throw new StudioError('invalid-argument', `--queue must be a redis:// or rediss:// URL, got '${url}'`, { field: 'queue', value: url });
  return { url, maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(2_000, 100 * times) };
}

/**
 * Queues every part whose file is missing (a finished or failed job of the same id whose file is
 * gone is removed first, so it runs again) and waits until each part is rendered or failed.
 */
/** Retries with exponential backoff; finished jobs are kept a while (bounded) so re-runs and tools can read them. */
function jobOptions(jobId: string, config: RenderQueueConfig): JobsOptions {
  return { jobId, attempts: config.attempts, backoff: { type: 'exponential', delay: config.backoffMs }, removeOnComplete: { count: 10_000 }, removeOnFail: { count: 1_000 } };
}

/** Every this many polls the submitter looks for jobs Redis lost or that another render finished elsewhere. */
const LOST_CHECK_ROUNDS = 20;

/**
 * Queues again a part whose job is gone (Redis lost it) or finished into another render's folder
 * (the same part in another render: same id, other output folder).
 */
async function requeueLost(queue: Queue<RenderJobData>, todo: ReadonlyMap<string, RenderPart>, outputDir: string, dataOf: (part: RenderPart) => RenderJobData, config: RenderQueueConfig): Promise<void> {
  for (const [id, part] of todo) {
    const job = await queue.getJob(id);
    if (job && !((await job.getState()) === 'completed' && job.data.outputDir !== outputDir)) continue;
    if (job) await job.remove();
    await queue.add('part', dataOf(part), jobOptions(id, config));
  }
}

/** A cancelled render: its jobs no worker has taken yet leave the queue (running ones finish; their files are kept). */
async function removeWaiting(queue: Queue<RenderJobData>, ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    const job = await queue.getJob(id).catch(() => undefined);
    const state = await job?.getState().catch(() => 'unknown');
    if (job && (state === 'waiting' || state === 'delayed' || state === 'prioritized')) await job.remove().catch(() => {});
  }
}

export async function submitRender(
  url: string,
  plan: RenderPlan,
  outputDir: string,
  onProgress: (p: RenderProgress) => void,
  config: RenderQueueConfig = defaultQueueConfig(),
  signal?: AbortSignal,
  savedVoicesFor: SavedVoicesForPart = () => [],
): Promise<{ failures: PartFailure[]; numQueued: number; cancelled: boolean }> {
  const queue = new Queue<RenderJobData>(RENDER_QUEUE_NAME, { connection: connectionFor(url) });
  queue.on('error', () => {}); // connection drops: ioredis reconnects; the poll below retries
  try {
    const done = new Set<string>();
    const failed = new Map<string, string>();
    const todo = new Map<string, RenderPart>();
    for (const part of plan.parts) {
      if (fs.existsSync(partFile(outputDir, part.id))) done.add(part.id);
      else todo.set(part.id, part);
    }
    const jobData = (part: RenderPart): RenderJobData => {
      const savedVoices = savedVoicesFor(part);
      const data: RenderJobData = { part: { id: part.id, index: part.index, chapter: part.chapter, input: part.input, inputFormat: part.inputFormat }, settings: plan.settings, outputDir };
      return savedVoices.length > 0 ? { ...data, savedVoices } : data;
    };
    for (const part of todo.values()) {
      const existing = await queue.getJob(part.id);
      if (existing) {
        const state = await existing.getState();
        if (state === 'completed' || state === 'failed') await existing.remove();
      }
      await queue.add('part', jobData(part), jobOptions(part.id, config));
    }
    const numQueued = todo.size;
    onProgress(progressOf(plan, done, failed));
    for (let round = 1; todo.size > 0 && !signal?.aborted; round++) {
      await new Promise((r) => setTimeout(r, config.pollIntervalMs));
      let changed = false;
      // A part's file appears complete (temp + rename): its presence means done.
      for (const id of [...todo.keys()]) {
        if (fs.existsSync(partFile(outputDir, id))) {
          done.add(id);
          todo.delete(id);
          changed = true;
        }
      }
      try {
        for (const job of await queue.getFailed(0, -1)) {
          if (job.id === undefined || !todo.has(job.id)) continue;
          failed.set(job.id, job.failedReason || 'failed');
          todo.delete(job.id);
          changed = true;
        }
        if (round % LOST_CHECK_ROUNDS === 0) await requeueLost(queue, todo, outputDir, (part) => jobData(part), config);
      } catch {
        // Redis away: ioredis reconnects; try again next round
      }
      if (changed) onProgress(progressOf(plan, done, failed));
    }
    if (signal?.aborted) await removeWaiting(queue, todo.keys());
    const failures = plan.parts.filter((p) => failed.has(p.id)).map((part) => ({ part, reason: failed.get(part.id)! }));
    return { failures, numQueued, cancelled: signal?.aborted ?? false };
  } finally {
    await queue.close();
  }
}

export interface RenderWorkerOptions {
  url: string;
  host: Pick<EngineHostApi, 'call'>;
  /** The model this worker's engines run (jobs for another model fail with that reason). */
  model: string;
  /** Jobs taken at once (spread over the engines by the pool). */
  concurrency: number;
  /** The worker's name in BullMQ (a job's processedBy); default host name and pid. */
  name?: string;
  config?: Partial<RenderQueueConfig>;
  onPart?: (outcome: PartOutcome & { index: number }) => void;
  onFailure?: (partIndex: number, reason: string) => void;
}

/** A BullMQ worker rendering parts on `host`; close() stops taking jobs and waits for those running. */
export function startRenderWorker(options: RenderWorkerOptions): Worker<RenderJobData, PartOutcome> {
  const config = { ...defaultQueueConfig(), ...options.config };
  const worker = new Worker<RenderJobData, PartOutcome>(
    RENDER_QUEUE_NAME,
    async (job: Job<RenderJobData>) => {
      const { part, settings, outputDir, savedVoices } = job.data;
      if (settings.model !== options.model) {
        throw new UnrecoverableError(`this part is for model '${settings.model}' but the worker runs '${options.model}'; start workers with --model ${settings.model}`);
      }
      try {
        const outcome = await renderPart(options.host, part, settings, outputDir, `render-${job.id}-${job.attemptsMade}-${job.attemptsStarted}`, savedVoices);
        options.onPart?.({ ...outcome, index: part.index });
        return outcome;
      } catch (err) {
        const error = toStudioError(err);
        options.onFailure?.(part.index, `${error.code}: ${error.message}`);
        if (isPermanentFailure(error)) throw new UnrecoverableError(`${error.code}: ${error.message}`);
        throw new Error(`${error.code}: ${error.message}`);
      }
    },
    {
      connection: connectionFor(options.url),
      concurrency: options.concurrency,
      name: options.name ?? `${os.hostname()}:${process.pid}`,
      lockDuration: config.lockDurationMs,
      stalledInterval: config.stalledIntervalMs,
      maxStalledCount: config.maxStalledCount,
    },
  );
  worker.on('error', () => {}); // Redis away: BullMQ reconnects and goes on
  return worker;
}
