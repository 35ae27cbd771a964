/**
 * The Render page's queue mode on a real redis-server (started here on a free loopback port): with
 * a queue URL set, a render's parts become BullMQ jobs that a `studio worker` (in process, on a
 * fake engine) renders, and the result is the same assembly; cancel takes the jobs no worker has
 * taken off the queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Queue } from 'bullmq';
import type { RenderJob } from '../../src-shared/contract/render';
import { connectionFor, renderQueueName } from '../render/render-queue';
import { startRenderWorker } from '../render/render-worker';
import { asHost, fakeRenderHost, MODEL } from '../render/testing/fake-render-host';
import { redisAvailable, TestRedis } from '../render/testing/redis-server';
import { RenderService, type RenderServiceOptions } from './render-service';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { tempDirs } from '../platform/testing/temp-dirs';

const HAVE_REDIS = redisAvailable();
const QUEUE = { pollIntervalMs: 50, backoffMs: 100 };
const DOC = '# One\n\nFirst paragraph.\n\nSecond one.\n\n# Two\n\nThird.';

let redis: TestRedis;
const tempDir = tempDirs('studio-render-queue-', 'all');

/** Anna, a saved (designed) voice that only the submitter's library knows. */
const ANNA: SavedVoiceConditioning = { id: 'v-0123456789ab', name: 'Anna', kind: 'design', modelKind: 'voice_design', modelSize: '1.7b', description: 'a calm low voice' };

function service(savedVoicesFor?: RenderServiceOptions['savedVoicesFor']): { service: RenderService; events: RenderJob[] } {
  const dataDir = tempDir();
  const events: RenderJob[] = [];
  const s = new RenderService({ dataDir, host: asHost(fakeRenderHost()), queueConfig: QUEUE, openProject: async () => { throw new Error('unused'); }, onDidChange: (j) => events.push(j), savedVoicesFor });
  s.setQueueUrl(redis.url);
  return { service: s, events };
}

const start = (s: RenderService, title: string, voice = 'ryan') => s.start({ source: { kind: 'text', text: DOC, inputFormat: 'text', title }, voice, language: 'auto', seed: 3 });

describe.skipIf(!HAVE_REDIS)('RenderService on the render queue', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it('submits every part to BullMQ, a worker renders them, and the render finishes with its file', async () => {
    const { service: s, events } = service();
    const host = fakeRenderHost();
    const worker = startRenderWorker({ url: redis.url, host: asHost(host), model: MODEL.id, concurrency: 2 });
    try {
      const job = await start(s, 'Queued');
      expect(job.mode).toBe('queue');
      await s.settled(job.id);
      const done = s.list()[0];
      expect(done).toMatchObject({ state: 'done', numDone: 3, numParts: 3 });
      expect(fs.existsSync(done.outputPath!)).toBe(true);
      expect(host.synthesized.sort()).toEqual(['First paragraph.', 'Second one.', 'Third.']);
      // progress comes from the part files as they appear (several may land within one poll)
      expect([events[0].numDone, events[events.length - 1].numDone]).toEqual([0, 3]);
    } finally {
      await worker.close();
    }
  });

  it("carries a saved voice's conditioning in each job, so a worker without the voice library speaks it", async () => {
    const asked: string[] = [];
    const { service: s } = service((req) => {
      asked.push(`${req.voice}:${req.input}`);
      return req.voice === 'anna' ? [ANNA] : [];
    });
    const queue = new Queue(renderQueueName(MODEL.id), { connection: connectionFor(redis.url) });
    const host = fakeRenderHost(); // another process's engine: no library, only what the job carries
    const worker = startRenderWorker({ url: redis.url, host: asHost(host), model: MODEL.id, concurrency: 2 });
    try {
      const job = await start(s, 'Anna reads', 'anna');
      await s.settled(job.id);
      expect(s.list().find((j) => j.id === job.id)).toMatchObject({ state: 'done', numDone: 3 });
      // asked per part when planning (the voice's content is in the part id) and when queuing (the job carries it)
      expect([...new Set(asked)].sort()).toEqual(['anna:First paragraph.', 'anna:Second one.', 'anna:Third.']);
      expect([...host.savedVoiceNames.values()]).toEqual([['Anna'], ['Anna'], ['Anna']]);
      const stored = (await queue.getCompleted(0, -1)).filter((j) => j.data.part.input === 'Third.' && j.data.settings.voice === 'anna');
      expect(stored.map((j) => j.data.savedVoices)).toEqual([[ANNA]]); // whole, as plain JSON in Redis
    } finally {
      await worker.close();
      await queue.close();
    }
  });

  it('queues jobs without saved voices when the request names none', async () => {
    const { service: s } = service(() => []);
    const host = fakeRenderHost();
    const worker = startRenderWorker({ url: redis.url, host: asHost(host), model: MODEL.id, concurrency: 2 });
    try {
      const job = await start(s, 'Plain', 'vivian');
      await s.settled(job.id);
      expect([...host.savedVoiceNames.values()]).toEqual([[], [], []]);
    } finally {
      await worker.close();
    }
  });

  it('cancel removes the jobs no worker took and leaves the render resumable', async () => {
    const { service: s } = service();
    const job = await start(s, 'Waiting');
    await new Promise((r) => setTimeout(r, 200));
    const queue = new Queue(renderQueueName(MODEL.id), { connection: connectionFor(redis.url) });
    try {
      expect(await queue.getWaitingCount()).toBe(3);
      expect(s.cancel(job.id)).toBe(true);
      await s.settled(job.id);
      expect(s.list()[0].state).toBe('cancelled');
      expect(await queue.getWaitingCount()).toBe(0);
    } finally {
      await queue.close();
    }
  });
});
