/**
 * Bulk rendering on BullMQ + Redis, the worker's side: a worker listens on its model's queue only
 * (render-queue.ts renderQueueName), checks each job as untrusted input (render-job-schema.ts),
 * and renders it on its local engine pool. A job that cannot succeed (bad payload, system folder,
 * invalid SSML) fails at once with its reason; anything else is retried by BullMQ with backoff.
 */
import os from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { isPermanentFailure, renderPart, type PartOutcome } from './render-parts';
import { connectionFor, defaultQueueConfig, renderQueueName, type RenderJobData, type RenderQueueConfig } from './render-queue';
import { checkOutputDir, parseRenderJob } from './render-job-schema';

export interface RenderWorkerOptions {
  url: string;
  host: Pick<EngineHostApi, 'call'>;
  /** The model this worker's engines run: the worker takes jobs from that model's queue only. */
  model: string;
  /** Jobs taken at once (spread over the engines by the pool). */
  concurrency: number;
  /** The worker's name in BullMQ (a job's processedBy); default host name and pid. */
  name?: string;
  config?: Partial<RenderQueueConfig>;
  onPart?: (outcome: PartOutcome & { index: number }) => void;
  /** A failed try: the part's index (null when the job is not a valid part), and why. */
  onFailure?: (failure: { jobId: string; partIndex: number | null; reason: string }) => void;
}

/** Checks the job, then renders it; every error leaves as a permanent (UnrecoverableError) or retryable failure. */
async function processJob(job: Job<unknown>, options: RenderWorkerOptions): Promise<PartOutcome> {
  let partIndex: number | null = null;
  try {
    const { part, settings, outputDir, savedVoices } = parseRenderJob(job.data);
    partIndex = part.index;
    if (settings.model !== options.model) {
      throw new StudioError('invalid-argument', `this part is for model '${settings.model}' but the worker runs '${options.model}'; start workers with --model ${settings.model}`, { field: 'model' });
    }
    const realDir = checkOutputDir(outputDir);
    const outcome = await renderPart(options.host, part, settings, realDir, `render-${part.id}-${job.attemptsMade}-${job.attemptsStarted}`, savedVoices);
    options.onPart?.({ ...outcome, index: part.index });
    return outcome;
  } catch (err) {
    const error = toStudioError(err);
    const reason = `${error.code}: ${error.message}`;
    options.onFailure?.({ jobId: String(job.id).slice(0, 100), partIndex, reason });
    if (isPermanentFailure(error)) throw new UnrecoverableError(reason);
    throw new Error(reason);
  }
}

/** A BullMQ worker rendering parts on `host`; close() stops taking jobs and waits for those running. */
export function startRenderWorker(options: RenderWorkerOptions): Worker<RenderJobData, PartOutcome> {
  const config = { ...defaultQueueConfig(), ...options.config };
  const worker = new Worker<RenderJobData, PartOutcome>(renderQueueName(options.model), (job: Job<unknown>) => processJob(job, options), {
    connection: connectionFor(options.url),
    concurrency: options.concurrency,
    name: options.name ?? `${os.hostname()}:${process.pid}`,
    lockDuration: config.lockDurationMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: config.maxStalledCount,
  });
  worker.on('error', () => {}); // Redis away: BullMQ reconnects and goes on
  return worker;
}
