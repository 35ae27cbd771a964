/**
 * Render workers on a real Redis (redis-server started here on a free loopback port) with fake
 * engines: two workers on two models each render only their own model's parts, whoever submits
 * first (the submitter says when no worker runs its model); and jobs written to the queue by hand are untrusted — a part id with '../', an output
 * folder under /proc (directly or through a symlink), a relative folder or no part at all fail at
 * once with their reason, nothing is written outside the output folder, and a worker process that
 * met them still renders good jobs and exits on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { connectionFor, defaultQueueConfig, renderQueueName, submitRender, type RenderJobData } from './render-queue';
import { startRenderWorker } from './render-worker';
import { partFile } from './render-parts';
import { partId, type RenderPlan, type RenderSettings } from './render-plan';
import { asHost, fakeRenderHost } from './testing/fake-render-host';
import { redisAvailable, TestRedis } from './testing/redis-server';

const HAVE_REDIS = redisAvailable();
const QUEUE = { ...defaultQueueConfig(), pollIntervalMs: 50, backoffMs: 100 };

let redis: TestRedis;
const children: ChildProcess[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-worker-'));

function planFor(model: string, texts: string[]): RenderPlan {
  const settings: RenderSettings = { voice: 'ryan', language: 'english', seed: 1, model };
  return {
    settings,
    chapters: [{ title: 'one', numParts: texts.length }],
    parts: texts.map((input, index) => ({ id: partId(input, 'text', settings), index, chapter: 0, chapterTitle: 'one', input, inputFormat: 'text' as const })),
  };
}

/** A well-formed job for `model`, with `patch` laid over it (the hostile field). */
function job(model: string, input: string, outputDir: string, patch: Record<string, unknown> = {}): RenderJobData {
  const settings: RenderSettings = { voice: 'ryan', language: 'english', seed: 1, model };
  return { part: { id: partId(input, 'text', settings), index: 0, chapter: 0, input, inputFormat: 'text' }, settings, outputDir, ...patch };
}

/** Waits until the job `id` has failed or completed; its state and reason. */
async function settledJob(queue: Queue, id: string): Promise<{ state: string; reason: string }> {
  for (;;) {
    const state = await queue.getJobState(id);
    if (state === 'failed' || state === 'completed') return { state, reason: (await queue.getJob(id))?.failedReason ?? '' };
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  if (HAVE_REDIS) redis = await TestRedis.start();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await redis?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!HAVE_REDIS)('render workers', () => {
  it("renders each model's parts only on that model's workers, even when the other model's worker starts first", async () => {
    const hostA = fakeRenderHost();
    const hostB = fakeRenderHost();
    const b = startRenderWorker({ url: redis.url, host: asHost(hostB), model: 'model-b', concurrency: 4, config: QUEUE });
    await b.waitUntilReady();
    const planA = planFor('model-a', ['A one.', 'A two.', 'A three.']);
    const outA = path.join(tmp, 'out-a');
    const notices: (string | null)[] = [];
    const renderA = submitRender(redis.url, planA, outA, () => {}, QUEUE, { onNotice: (n) => notices.push(n) });
    // only model-b's worker runs for a while: it must leave model-a's parts alone
    await new Promise((r) => setTimeout(r, 500));
    const a = startRenderWorker({ url: redis.url, host: asHost(hostA), model: 'model-a', concurrency: 4, config: QUEUE });
    try {
      const planB = planFor('model-b', ['B one.', 'B two.']);
      const [resultA, resultB] = await Promise.all([renderA, submitRender(redis.url, planB, path.join(tmp, 'out-b'), () => {}, QUEUE)]);
      expect(resultA).toEqual({ failures: [], numQueued: 3, cancelled: false });
      expect(resultB).toEqual({ failures: [], numQueued: 2, cancelled: false });
      expect(hostA.synthesized.sort()).toEqual(['A one.', 'A three.', 'A two.']);
      expect(hostB.synthesized.sort()).toEqual(['B one.', 'B two.']);
      for (const p of planA.parts) expect(fs.existsSync(partFile(outA, p.id))).toBe(true);
      // while no worker ran model-a, the submitter said so and how to start one; then took it back
      expect(notices).toEqual([expect.stringMatching(/^no worker takes model 'model-a' parts yet; start one with studio worker --queue .* --model model-a$/), null]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("fails jobs with a '../' part id, a relative folder or no part at all at once, writing nothing outside", async () => {
    const host = fakeRenderHost();
    const failures: { jobId: string; partIndex: number | null; reason: string }[] = [];
    const worker = startRenderWorker({ url: redis.url, host: asHost(host), model: 'model-h', concurrency: 2, config: QUEUE, onFailure: (f) => failures.push(f) });
    const queue = new Queue(renderQueueName('model-h'), { connection: connectionFor(redis.url) });
    const outDir = path.join(tmp, 'hostile', 'out');
    fs.mkdirSync(outDir, { recursive: true });
    try {
      const escape = job('model-h', 'Escape.', outDir);
      escape.part.id = '../../escaped';
      await queue.add('part', escape, { jobId: 'escape', attempts: 5 });
      await queue.add('part', job('model-h', 'Relative.', 'relative/out'), { jobId: 'relative', attempts: 5 });
      await queue.add('part', { hello: 'world' } as never, { jobId: 'garbage', attempts: 5 });
      const settled = await Promise.all(['escape', 'relative', 'garbage'].map((id) => settledJob(queue, id)));
      expect(settled.map((s) => s.state)).toEqual(['failed', 'failed', 'failed']);
      expect(settled[0].reason).toMatch(/^invalid-argument: this job is not a render part \(part\.id: must be 32 lowercase hex digits/);
      expect(settled[1].reason).toMatch(/outputDir: must be an absolute path/);
      expect(settled[2].reason).toMatch(/part: .*settings: .*outputDir: /);
      // at once: one try each, not five with backoff
      expect(failures.filter((f) => f.jobId === 'escape')).toHaveLength(1);
      expect(failures.find((f) => f.jobId === 'garbage')?.partIndex).toBeNull();
      expect(host.synthesized).toEqual([]);
      expect(fs.readdirSync(path.join(tmp, 'hostile'))).toEqual(['out']);
      expect(fs.existsSync(path.join(tmp, 'escaped.wav'))).toBe(false);
    } finally {
      await Promise.all([worker.close(), queue.close()]);
    }
  });

  it('fails a job whose output folder is under /proc (or a symlink there) at once, and the worker still renders and exits on SIGTERM', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src-main/render/testing/fake-worker.ts', redis.url, 'model-p'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(proc);
    const lines: string[] = [];
    const ready = new Promise<void>((resolve) => {
      proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        lines.push(...chunk.split('\n').filter(Boolean));
        if (lines.includes('worker ready')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    const queue = new Queue(renderQueueName('model-p'), { connection: connectionFor(redis.url) });
    try {
      await ready;
      const link = path.join(tmp, 'to-proc');
      fs.symlinkSync('/proc', link);
      await queue.add('part', job('model-p', 'Proc.', '/proc/studio-render-test'), { jobId: 'proc', attempts: 5 });
      await queue.add('part', job('model-p', 'Link.', path.join(link, 'out')), { jobId: 'link', attempts: 5 });
      const [procJob, linkJob] = await Promise.all([settledJob(queue, 'proc'), settledJob(queue, 'link')]);
      expect(procJob).toEqual({ state: 'failed', reason: expect.stringMatching(/^forbidden: the output folder \/proc\/studio-render-test is under \/proc, a folder of kernel or device files; give a folder on a disk/) });
      expect(linkJob).toEqual({ state: 'failed', reason: expect.stringMatching(/^forbidden: .* is under \/proc/) });
      // the worker is not stuck: a good job renders
      const good = job('model-p', 'Good.', path.join(tmp, 'good'));
      await queue.add('part', good, { jobId: good.part.id });
      expect((await settledJob(queue, good.part.id)).state).toBe('completed');
      expect(fs.existsSync(partFile(path.join(tmp, 'good'), good.part.id))).toBe(true);
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await queue.close();
    }
  }, 60_000);
});
