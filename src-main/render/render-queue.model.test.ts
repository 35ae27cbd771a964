/**
 * Bulk rendering on a real Redis (redis-server on loopback, a free port, data in a temp folder)
 * with real `studio worker` processes on the tiny model: two workers and a submitter render a
 * 40-paragraph document; one worker is killed with SIGKILL while it holds a job, which BullMQ
 * finds stalled and the other worker renders; the result is complete, in order, each part rendered
 * once, byte-equal to a single-machine render. Redis restarted mid-render: the render resumes. A
 * poisoned part (bad SSML) fails with its reason and the rest finish. Re-running skips every part.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { planRender, type RenderPlan, type RenderSettings } from './render-plan';
import { assembleWork, partFile } from './render-parts';
import { renderLocally } from './render-local';
import { connectionFor, defaultQueueConfig, renderQueueName, submitRender } from './render-queue';
import { redisAvailable, TestRedis } from './testing/redis-server';

const ENGINE = { minFramesCap: 6, framesPerTextToken: 1, intraOpNumThreads: 1, provider: 'cpu' };
const HAVE_REDIS = redisAvailable();
const QUEUE_CONFIG = { ...defaultQueueConfig(), attempts: 5, lockDurationMs: 2_000, stalledIntervalMs: 1_000, maxStalledCount: 3, pollIntervalMs: 100 };
if (!HAVE_REDIS) {
  console.warn('\n*** SKIPPED: render-queue tests need redis-server (apt-get install -y redis-server; .ci/run installs it) ***\n');
}

let modelDir = '';
let redis: TestRedis;
let reference: StudioStack;
const workers: ChildProcess[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-render-'));

function writeDocument(name: string, numParagraphs: number): string {
  const file = path.join(tmp, `${name}.txt`);
  const lines = ['# Part one', ''];
  for (let i = 0; i < numParagraphs; i++) {
    if (i === numParagraphs / 2) lines.push('# Part two', '');
    lines.push(`Paragraph ${i + 1} of ${name}.`, '');
  }
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

const settings = (): RenderSettings => ({ voice: 'ryan', language: 'english', seed: 7, model: modelDir });

interface WorkerProc {
  proc: ChildProcess;
  lines: string[];
  ready: Promise<void>;
}

function startWorker(name: string): WorkerProc {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/cli/cli.ts', 'worker', '--queue', redis.url, '--name', name, '--model', modelDir, '--engine-config', JSON.stringify(ENGINE), '--concurrency', '2', '--lock-ms', '2000', '--stalled-ms', '1000'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STUDIO_DATA_DIR: path.join(tmp, `data-${name}`) } },
  );
  workers.push(proc);
  const lines: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        lines.push(line);
        if (line.startsWith('worker ready')) resolve();
      }
    });
    proc.stderr!.resume();
    proc.once('exit', (code) => reject(new Error(`worker ${name} exited with ${code}: ${lines.join('\n')}`)));
  });
  return { proc, lines, ready };
}

async function stopWorker(w: WorkerProc): Promise<void> {
  if (w.proc.exitCode !== null || w.proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    w.proc.once('exit', () => resolve());
    w.proc.kill('SIGTERM');
  });
}

/** The single-machine render of `plan`: in-process on one engine host, assembled. */
async function referenceRender(plan: RenderPlan): Promise<Uint8Array> {
  const dir = fs.mkdtempSync(path.join(tmp, 'ref-'));
  const { failures } = await renderLocally(reference.host, plan, dir, () => {}, { concurrency: 2 });
  expect(failures).toEqual([]);
  return assembleWork(plan, dir).wav;
}

const renderedIds = (lines: string[]) => lines.map((l) => /^part \d+ rendered \((\w+)\)/.exec(l)?.[1]).filter((x): x is string => x !== undefined);

beforeAll(async () => {
  if (!HAVE_REDIS) return;
  modelDir = (await ensureTinyModel()).builtDir;
  redis = await TestRedis.start();
  reference = createStudioStack({ hostKind: 'headless', version: 'test', model: modelDir, userDataDir: fs.mkdtempSync(path.join(tmp, 'refdata-')), engineConfig: ENGINE, log: () => {} });
  await reference.host.start();
}, 120_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  await reference?.dispose();
  await redis?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!HAVE_REDIS)('render queue on Redis', () => {
  it('two workers render 40 paragraphs; a worker killed mid-job loses nothing and the result equals a single-machine render', async () => {
    const plan = planRender(writeDocument('forty', 40), settings());
    expect(plan.parts).toHaveLength(40);
    const expected = await referenceRender(plan);
    const a = startWorker('a');
    const b = startWorker('b');
    await Promise.all([a.ready, b.ready]);
    const outDir = path.join(tmp, 'forty-out');
    const submitted = submitRender(redis.url, plan, outDir, () => {}, { ...QUEUE_CONFIG, backoffMs: 200 });
    // Kill worker a with SIGKILL while it holds a job (an active job it processes).
    const queue = new Queue(renderQueueName(modelDir), { connection: connectionFor(redis.url) });
    let victim: string | undefined;
    const deadline = Date.now() + 60_000;
    while (!victim && Date.now() < deadline) {
      const active = await queue.getActive();
      victim = active.find((j) => j.processedBy === 'a')?.id;
      if (!victim) await new Promise((r) => setTimeout(r, 20));
    }
    expect(victim).toBeDefined();
    a.proc.kill('SIGKILL');
    const { failures, numQueued } = await submitted;
    expect(failures).toEqual([]);
    expect(numQueued).toBe(40);
    // the killed worker's job ended on b
    const job = await queue.getJob(victim!);
    expect(job?.processedBy).toBe('b');
    expect(await job?.getState()).toBe('completed');
    await queue.close();
    // each part rendered once: no id in both workers' logs or twice in one
    const rendered = [...renderedIds(a.lines), ...renderedIds(b.lines)];
    expect(new Set(rendered).size).toBe(rendered.length);
    expect(renderedIds(b.lines).length).toBeGreaterThan(0);
    const files = fs.readdirSync(path.join(outDir, 'parts')).filter((f) => f.endsWith('.wav'));
    expect(files.sort()).toEqual(plan.parts.map((p) => `${p.id}.wav`).sort());
    const work = assembleWork(plan, outDir);
    expect(work.chapterStarts).toHaveLength(2);
    expect(Buffer.from(work.wav).equals(Buffer.from(expected))).toBe(true);
    // a second run finds every part and queues nothing
    const again = await submitRender(redis.url, plan, outDir, () => {});
    expect(again).toEqual({ failures: [], numQueued: 0, cancelled: false });
    await stopWorker(b);
  }, 180_000);

  it('resumes when Redis restarts mid-render', async () => {
    const plan = planRender(writeDocument('restart', 24), settings());
    const expected = await referenceRender(plan);
    const w = startWorker('r');
    await w.ready;
    const outDir = path.join(tmp, 'restart-out');
    let restarted = false;
    let restarting: Promise<void> | null = null;
    const result = await submitRender(redis.url, plan, outDir, (p) => {
      if (!restarted && p.numDone >= 4) {
        restarted = true;
        restarting = redis.restart();
      }
    }, { ...QUEUE_CONFIG, backoffMs: 200 });
    await restarting;
    expect(restarted).toBe(true);
    expect(result.failures).toEqual([]);
    expect(Buffer.from(assembleWork(plan, outDir).wav).equals(Buffer.from(expected))).toBe(true);
    await stopWorker(w);
  }, 180_000);

  it('fails a poisoned part (bad SSML) with its reason and renders the rest', async () => {
    const folder = path.join(tmp, 'poisoned');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, '1-intro.txt'), 'First good paragraph.\n\nSecond good paragraph.\n');
    fs.writeFileSync(path.join(folder, '2-bad.ssml'), '<speak><p>Broken <prosody rate="fast">tag</p></speak>');
    fs.writeFileSync(path.join(folder, '3-outro.txt'), 'Last good paragraph.\n');
    const plan = planRender(folder, settings());
    expect(plan.parts.map((p) => p.inputFormat)).toEqual(['text', 'text', 'ssml', 'text']);
    const w = startWorker('p');
    await w.ready;
    const outDir = path.join(tmp, 'poisoned-out');
    const started = Date.now();
    const { failures } = await submitRender(redis.url, plan, outDir, () => {}, { ...QUEUE_CONFIG, backoffMs: 5_000 });
    expect(failures.map((f) => f.part.index)).toEqual([2]);
    expect(failures[0].reason).toMatch(/^ssml-invalid: /);
    // not retried with the 5 s backoff: a permanent failure fails at once
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const i of [0, 1, 3]) expect(fs.existsSync(partFile(outDir, plan.parts[i].id))).toBe(true);
    expect(() => assembleWork(plan, outDir)).toThrow(/1 of 4 parts are not rendered/);
    await stopWorker(w);
  }, 120_000);
});
