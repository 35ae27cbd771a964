/**
 * Lab: BullMQ queue overhead per job on a local redis-server (started here, loopback, temp data):
 * submit → first pick-up by a worker whose processor returns at once, (1) with an empty queue, one
 * job at a time, and (2) for a job submitted behind 1,000 queued jobs, plus the drain rate.
 * Usage: node --import tsx lab/render/queue-overhead.ts [numSamples=200]
 */
import { Queue, Worker, type Job } from 'bullmq';
import { connectionFor } from '../../src-main/render/render-queue';
import { TestRedis } from '../../src-main/render/testing/redis-server';

const numSamples = Number(process.argv[2] ?? 200);
const redis = await TestRedis.start();
const connection = connectionFor(redis.url);
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const queue = new Queue('overhead', { connection });
const pickups = new Map<string, number>();
const waiters = new Map<string, () => void>();
const worker = new Worker(
  'overhead',
  async (job: Job) => {
    pickups.set(job.id!, performance.now());
    waiters.get(job.id!)?.();
  },
  { connection, concurrency: 1 },
);
await worker.waitUntilReady();

// (1) empty queue: one job at a time
const empty: number[] = [];
for (let i = 0; i < numSamples + 10; i++) {
  const id = `e${i}`;
  const picked = new Promise<void>((r) => waiters.set(id, r));
  const t0 = performance.now();
  await queue.add('x', { i }, { jobId: id, removeOnComplete: true });
  await picked;
  if (i >= 10) empty.push(pickups.get(id)! - t0); // the first 10 warm up
}
console.log(`empty queue: submit → pick-up p50 ${percentile(empty, 50).toFixed(2)} ms, p95 ${percentile(empty, 95).toFixed(2)} ms, max ${Math.max(...empty).toFixed(2)} ms over ${empty.length} jobs`);

// (2) 1,000 queued: pause the worker, queue 1,000, then one probe job behind them
await worker.pause();
const tAdd = performance.now();
await queue.addBulk(Array.from({ length: 1000 }, (_, i) => ({ name: 'x', data: { i }, opts: { jobId: `q${i}`, removeOnComplete: true } })));
const addBulkMs = performance.now() - tAdd;
const probePicked = new Promise<void>((r) => waiters.set('probe', r));
const tProbe = performance.now();
await queue.add('x', {}, { jobId: 'probe', removeOnComplete: true });
const probeAddMs = performance.now() - tProbe;
const tResume = performance.now();
worker.resume();
await probePicked;
const drainMs = pickups.get('probe')! - tResume;
console.log(`1,000 queued: addBulk of 1,000 took ${addBulkMs.toFixed(0)} ms (${(addBulkMs / 1000).toFixed(3)} ms/job); one more add ${probeAddMs.toFixed(2)} ms`);
console.log(`1,000 queued: the job behind them was picked up ${drainMs.toFixed(0)} ms after the worker resumed = ${(drainMs / 1001).toFixed(3)} ms per job (concurrency 1, instant processor)`);

await worker.close();
await queue.obliterate({ force: true });
await queue.close();
await redis.dispose();
process.exit(0);
