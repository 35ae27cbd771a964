/**
 * The engine host's insert worker threads: a decode runs on a worker and comes back in shared
 * memory, a broken file's error comes back as the request's StudioError, and a worker that dies
 * fails only the task it ran while the next task gets a fresh worker. Issue 43 (N1).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import type { StudioError } from '../../src-shared/errors';
import { encodeWav } from '../audio/wav';
import { readWavLayout } from '../audio/wav-read';
import { InsertWorkers } from './insert-workers';

const pools: InsertWorkers[] = [];
afterAll(async () => {
  for (const p of pools) await p.dispose();
});

describe('InsertWorkers', () => {
  it('decodes on a worker into shared memory, and answers a NaN sample with the request\'s error', async () => {
    const workers = new InsertWorkers(1);
    pools.push(workers);
    const bytes = encodeWav(Float32Array.from({ length: 4800 }, (_, i) => Math.sin(i / 5) * 0.5), 24_000, 'float32');
    const decoded = await workers.run({ kind: 'decode', src: 'a.wav', bytes, layout: readWavLayout(bytes), outputSampleRateHz: 24_000 });
    expect(decoded.pcm.length).toBe(4800);
    expect(decoded.pcm.buffer).toBeInstanceOf(SharedArrayBuffer);
    const broken = new Float32Array(4800);
    broken[10] = NaN;
    const nanBytes = encodeWav(broken, 24_000, 'float32');
    const err = await workers.run({ kind: 'decode', src: 'nan.wav', bytes: nanBytes, layout: readWavLayout(nanBytes), outputSampleRateHz: 24_000 }).then(() => null, (e: StudioError) => e);
    expect(err?.code).toBe('invalid-argument');
    expect(workers.numStarted()).toBe(1);
  });

  it('fails only the task of a worker that died and starts a fresh one for the next', async () => {
    let numStarted = 0;
    // the first worker exits on its first task; later ones answer every task
    const start = () => new Worker(numStarted++ === 0
      ? `require('node:worker_threads').parentPort.on('message', () => process.exit(3));`
      : `const { parentPort } = require('node:worker_threads'); parentPort.on('message', (t) => parentPort.postMessage({ id: t.id, ok: true, value: 'fine' }));`, { eval: true });
    const workers = new InsertWorkers(1, () => {}, start);
    pools.push(workers);
    const task = { kind: 'decode' as const, src: 'x.wav', bytes: new Uint8Array(0), layout: { sampleKind: 'int' as const, bitsPerSample: 16, numChannels: 1, sampleRateHz: 24_000, dataOffset: 44, numFrames: 0 }, outputSampleRateHz: 24_000 };
    const [first, second] = await Promise.all([workers.run(task).then(() => null, (e: StudioError) => e), workers.run(task)]);
    expect(first?.code).toBe('internal');
    expect(first?.message).toMatch(/an <audio> insert worker of the engine host ended \(exit code 3\)/);
    expect(second).toBe('fine');
    expect(numStarted).toBe(2);
  });
});
