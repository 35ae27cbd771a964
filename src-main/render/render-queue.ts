/**
 * Bulk rendering on BullMQ + Redis, the submitter's side: one job per part (job id = part id, so a
 * part is queued once however often it is submitted) on the queue of the render's model, then its
 * states followed until each part is rendered or failed. Redis is probed first (a URL that is not
 * Redis fails at once, naming it), and every wait on Redis gives way to the cancel signal. Workers:
 * render-worker.ts. Retries, stalled jobs and persistence are BullMQ's and Redis's.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { RenderPart, RenderPlan, RenderSettings, SavedVoicesForPart } from './render-plan';
import { partFile } from './render-parts';
import { progressOf, type PartFailure, type RenderProgress } from './render-progress';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { probeRedis } from './redis-probe';
import { sleep, untilAborted, within } from './abortable';

/**
 * The queue of one model's parts: a worker listens only on its own model's queue, so it never
 * takes (and fails) a part meant for another model. The model id is hashed (queue names cannot
 * hold ':' or '/', which model ids do).
 */
export function renderQueueName(model: string): string {
  return `studio-render-${createHash('sha256').update(model).digest('hex').slice(0, 16)}`;
}

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
  /** How long the first contact with Redis may take (and the clean-up after a cancel) before giving up. */
  connectTimeoutMs: number;
}

export function defaultQueueConfig(): RenderQueueConfig {
  return { attempts: 5, backoffMs: 1_000, lockDurationMs: 30_000, stalledIntervalMs: 15_000, maxStalledCount: 3, pollIntervalMs: 250, connectTimeoutMs: 10_000 };
}

/** BullMQ connection options for a redis:// URL (retries forever while Redis is away: probe it first). */
export function connectionFor(url: string): ConnectionOptions {
  if (!/^rediss?:\/\//.test(url)) throw new StudioError('invalid-argument', `--queue must be a redis:// or rediss:// URL, got '${url}'`, { field: 'queue', value: url });
  return { url, maxRetriesPerRequest: null, retryStrategy: (times: number) => Math.min(2_000, 100 * times) };
}

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

/** What a render may be told besides progress, and how it is cancelled. */
export interface SubmitOptions {
  /** Cancels at any point, Redis reachable or not. */
  signal?: AbortSignal;
  /** The saved voices each part speaks in; each job carries them. None by default. */
  savedVoicesFor?: SavedVoicesForPart;
  /** A line for the user while parts wait with no worker for their model (null: one is there again). */
  onNotice?: (notice: string | null) => void;
}

/**
 * Queues every part whose file is missing (a finished or failed job of the same id whose file is
 * gone is removed first, so it runs again) and waits until each part is rendered or failed.
 * Throws 'network' or 'timeout' when `url` is not a Redis that answers within connectTimeoutMs.
 * On cancel (`options.signal`) the jobs no worker took are removed (bounded by connectTimeoutMs)
 * and the result says cancelled.
 */
export async function submitRender(
  url: string,
  plan: RenderPlan,
  outputDir: string,
  onProgress: (p: RenderProgress) => void,
  config: RenderQueueConfig = defaultQueueConfig(),
  options: SubmitOptions = {},
): Promise<{ failures: PartFailure[]; numQueued: number; cancelled: boolean }> {
  const { signal, savedVoicesFor = () => [], onNotice } = options;
  const connection = connectionFor(url);
  const cancelled = { failures: [], numQueued: 0, cancelled: true };
  try {
    await probeRedis(url, { timeoutMs: config.connectTimeoutMs, signal });
  } catch (err) {
    if (toStudioError(err).code === 'cancelled') return cancelled;
    throw err;
  }
  const queue = new Queue<RenderJobData>(renderQueueName(plan.settings.model), { connection });
  queue.on('error', () => {}); // connection drops: ioredis reconnects; the poll below retries
  const wait = <T>(p: Promise<T>) => untilAborted(p, signal);
  const done = new Set<string>();
  const failed = new Map<string, string>();
  const todo = new Map<string, RenderPart>();
  let numQueued = 0;
  let noWorker = false;
  const noticeWorkers = async () => {
    const none = (await wait(queue.getWorkersCount())) === 0;
    if (none !== noWorker) onNotice?.(none ? `no worker takes model '${plan.settings.model}' parts yet; start one with studio worker --queue <this queue's URL> --model ${plan.settings.model}` : null);
    noWorker = none;
  };
  try {
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
      const existing = await wait(queue.getJob(part.id));
      if (existing) {
        const state = await wait(existing.getState());
        if (state === 'completed' || state === 'failed') await wait(existing.remove());
      }
      await wait(queue.add('part', jobData(part), jobOptions(part.id, config)));
    }
    numQueued = todo.size;
    onProgress(progressOf(plan, done, failed));
    for (let round = 1; todo.size > 0 && !signal?.aborted; round++) {
      await sleep(config.pollIntervalMs, signal);
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
        for (const job of await wait(queue.getFailed(0, -1))) {
          if (job.id === undefined || !todo.has(job.id)) continue;
          failed.set(job.id, job.failedReason || 'failed');
          todo.delete(job.id);
          changed = true;
        }
        if (round === 1 || round % LOST_CHECK_ROUNDS === 0) await noticeWorkers();
        if (round % LOST_CHECK_ROUNDS === 0) await wait(requeueLost(queue, todo, outputDir, (part) => jobData(part), config));
      } catch (err) {
        if (signal?.aborted) throw err;
        // Redis away: ioredis reconnects; try again next round
      }
      if (changed) onProgress(progressOf(plan, done, failed));
    }
  } catch (err) {
    if (!signal?.aborted) throw err;
  } finally {
    if (noWorker) onNotice?.(null);
    if (signal?.aborted) await within(removeWaiting(queue, todo.keys()), config.connectTimeoutMs);
    // close() waits for Redis to take QUIT; a Redis that went away gets a disconnect instead
    if ((await within(queue.close().then(() => true), config.connectTimeoutMs)) !== true) await queue.disconnect().catch(() => {});
  }
  if (signal?.aborted) return { ...cancelled, numQueued, failures: failuresOf(plan, failed) };
  return { failures: failuresOf(plan, failed), numQueued, cancelled: false };
}

function failuresOf(plan: RenderPlan, failed: ReadonlyMap<string, string>): PartFailure[] {
  return plan.parts.filter((p) => failed.has(p.id)).map((part) => ({ part, reason: failed.get(part.id)! }));
}
