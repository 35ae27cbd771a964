/**
 * Bulk rendering on BullMQ + Redis: the submitter adds one job per part (job id = part id, so a part
 * is queued once however often it is submitted) and follows their states; workers take jobs and
 * render them on their local engine pool. Retries with backoff, stalled-job detection (a worker
 * that died: its lock expires and another takes the job) and persistence are BullMQ's and Redis's.
 */
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { EngineHostApi } from '../services/studio-services';
import type { RenderPart, RenderPlan, RenderSettings } from './render-plan';
import { isPermanentFailure, partFile, renderPart, type PartOutcome } from './render-parts';
import fs from 'node:fs';
import os from 'node:os';
import { progressOf, type PartFailure, type RenderProgress } from './render-progress';

export const RENDER_QUEUE_NAME = 'studio-render';

/** What a job carries: everything a worker on another machine needs to render and store the part. */
export interface RenderJobData {
  part: Pick<RenderPart, 'id' | 'index' | 'chapter' | 'input' | 'inputFormat'>;
  settings: RenderSettings;
  /** The folder the part's file goes to (shared between machines). */
  outputDir: string;
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
export async function submitRender(
  url: string,
  plan: RenderPlan,
  outputDir: string,
  onProgress: (p: RenderProgress) => void,
  config: RenderQueueConfig = defaultQueueConfig(),
): Promise<{ failures: PartFailure[]; numQueued: number }> {
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
    for (const part of todo.values()) {
      const existing = await queue.getJob(part.id);
      if (existing) {
        const state = await existing.getState();
        if (state === 'completed' || state === 'failed') await existing.remove();
      }
      await queue.add(
        'part',
        { part: { id: part.id, index: part.index, chapter: part.chapter, input: part.input, inputFormat: part.inputFormat }, settings: plan.settings, outputDir },
        { jobId: part.id, attempts: config.attempts, backoff: { type: 'exponential', delay: config.backoffMs }, removeOnComplete: false, removeOnFail: false },
      );
    }
    const numQueued = todo.size;
    onProgress(progressOf(plan, done, failed));
    while (todo.size > 0) {
      await new Promise((r) => setTimeout(r, config.pollIntervalMs));
      let changed = false;
      try {
        for (const [id, part] of [...todo]) {
          const job = await queue.getJob(id);
          const state = job ? await job.getState() : 'unknown';
          if (state === 'completed' && fs.existsSync(partFile(outputDir, id))) {
            done.add(id);
            todo.delete(id);
            changed = true;
          } else if (state === 'failed') {
            failed.set(id, job?.failedReason || 'failed');
            todo.delete(id);
            changed = true;
          } else if (state === 'unknown') {
            // lost (Redis restarted without this job): queue it again; its id keeps it single
            await queue.add('part', { part: { id, index: part.index, chapter: part.chapter, input: part.input, inputFormat: part.inputFormat }, settings: plan.settings, outputDir }, { jobId: id, attempts: config.attempts, backoff: { type: 'exponential', delay: config.backoffMs } });
          }
        }
      } catch {
        continue; // Redis away: try again next round
      }
      if (changed) onProgress(progressOf(plan, done, failed));
    }
    const failures = plan.parts.filter((p) => failed.has(p.id)).map((part) => ({ part, reason: failed.get(part.id)! }));
    return { failures, numQueued };
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
      const { part, settings, outputDir } = job.data;
      if (settings.model !== options.model) {
        throw new UnrecoverableError(`this part is for model '${settings.model}' but the worker runs '${options.model}'; start workers with --model ${settings.model}`);
      }
      try {
        const outcome = await renderPart(options.host, part, settings, outputDir, `render-${job.id}-${job.attemptsMade}-${job.attemptsStarted}`);
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
