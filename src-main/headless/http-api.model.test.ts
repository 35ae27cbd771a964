/**
 * The HTTP API end to end on loopback, with the real engine host and the tiny synthetic model:
 * the official openai client gets a valid WAV; responses are byte-identical whether a request
 * runs alone or beside 3 or 15 others, in shuffled order; an aborted request frees its slot;
 * overload answers 429 with Retry-After and every accepted request completes; drain finishes
 * in-flight work and refuses new work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { JSON_HEADERS, serveTiny } from './testing/serve-tiny';
import type { EngineStatus } from '../../src-shared/synthesis';

type Served = Awaited<ReturnType<typeof serveTiny>>;

const serve = (modelDir: string, schedulerConfig: Record<string, unknown> = {}) => serveTiny(modelDir, { schedulerConfig });

const sha = (bytes: ArrayBuffer) => createHash('sha256').update(new Uint8Array(bytes)).digest('hex');

async function tts(url: string, body: Record<string, unknown>): Promise<{ status: number; bytes: ArrayBuffer; headers: Headers }> {
  const res = await fetch(`${url}/api/v1/tts`, { method: 'POST', body: JSON.stringify(body), headers: JSON_HEADERS });
  return { status: res.status, bytes: await res.arrayBuffer(), headers: res.headers };
}

const status = async (url: string) => (await (await fetch(`${url}/status`)).json()) as EngineStatus;

let modelDir: string;
let main: Served;

beforeAll(async () => {
  modelDir = (await ensureTinyModel()).builtDir;
  main = await serve(modelDir);
}, 120_000);

afterAll(async () => {
  await main?.dispose();
});

describe('HTTP API', () => {
  it('answers the official openai client with a valid 24 kHz 16-bit mono WAV', async () => {
    const client = new OpenAI({ baseURL: `${main.server.url}/v1`, apiKey: 'local' });
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'ryan' as never, input: 'Hello from the studio.', response_format: 'wav' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const view = new DataView(bytes.buffer);
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('WAVE');
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(24000);
    expect(view.getUint16(34, true)).toBe(16);
    // data = frames × 1920 samples × 2 bytes; a WAV header is 44 bytes
    expect((bytes.length - 44) % (1920 * 2)).toBe(0);
  });

  it('gives identical bytes for each request alone and beside 3 or 15 others, in any arrival order', async () => {
    const texts = ['One.', 'Two words here.', 'A somewhat longer third sentence.', 'Four.'];
    const voices = ['ryan', 'serena', 'aiden', 'ono_anna'];
    const requests = Array.from({ length: 16 }, (_, i) => ({ text: texts[i % 4], voice: voices[(i * 3) % 4], seed: 100 + (i % 5), language: i % 2 ? 'english' : 'auto' }));
    const alone: string[] = [];
    for (const r of requests) alone.push(sha((await tts(main.server.url, r)).bytes));
    for (const concurrency of [4, 16]) {
      const order = requests.map((_, i) => i).sort((a, b) => ((a * 7919 + concurrency) % 16) - ((b * 7919 + concurrency) % 16));
      for (let start = 0; start < order.length; start += concurrency) {
        const group = order.slice(start, start + concurrency);
        const results = await Promise.all(group.map((i) => tts(main.server.url, requests[i])));
        group.forEach((i, k) => {
          expect(results[k].status).toBe(200);
          expect(sha(results[k].bytes), `request ${i} at concurrency ${concurrency}`).toBe(alone[i]);
        });
      }
    }
  }, 240_000);

  it('frees the slot of a request whose client disconnects mid-stream', async () => {
    const before = await status(main.server.url);
    const abort = new AbortController();
    const res = await fetch(`${main.server.url}/v1/audio/speech`, {
      method: 'POST',
      body: JSON.stringify({ input: 'This one will be abandoned by its client halfway through the stream, on purpose.', voice: 'ryan', stream: true, response_format: 'pcm' }),
      headers: { 'content-type': 'application/json' },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    let after = await status(main.server.url);
    for (let i = 0; i < 200 && after.numCancelled === before.numCancelled; i++) {
      await new Promise((r) => setTimeout(r, 25));
      after = await status(main.server.url);
    }
    expect(after.numCancelled).toBe(before.numCancelled + 1);
    expect(after.numRunning).toBe(0);
    expect(after.numWaiting).toBe(0);
  }, 60_000);

  it('answers 429 with Retry-After beyond the queue bound, and completes every accepted request', async () => {
    const small = await serve(modelDir, { maxQueueDepth: 2, maxRunningSequences: 1 });
    try {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => tts(small.server.url, { text: `Request number ${i}.`, voice: 'ryan', seed: i })));
      const accepted = results.filter((r) => r.status === 200);
      const rejected = results.filter((r) => r.status === 429);
      expect(accepted.length + rejected.length).toBe(10);
      expect(rejected.length).toBeGreaterThan(0);
      for (const r of rejected) expect(r.headers.get('retry-after')).toBe('1');
      for (const r of accepted) expect(new TextDecoder().decode(new Uint8Array(r.bytes).slice(0, 4))).toBe('RIFF');
      const s = await status(small.server.url);
      expect(s.numRejected).toBe(rejected.length);
      expect(s.numCompleted).toBe(accepted.length);
    } finally {
      await small.dispose();
    }
  }, 120_000);

  it('drains the engine: in-flight requests finish, new ones are refused with 503', async () => {
    const d = await serve(modelDir);
    try {
      const inFlight = Promise.all([0, 1, 2].map((i) => tts(d.server.url, { text: `Draining ${i}.`, voice: 'ryan', seed: i })));
      for (let i = 0; i < 1000 && d.stack.host.requestCounters().numInFlight < 3; i++) await new Promise((r) => setTimeout(r, 10));
      const drained = await d.stack.host.call('drain', { graceMs: 30_000 });
      const results = await inFlight;
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(drained.numCancelled).toBe(0);
      const late = await tts(d.server.url, { text: 'Too late.', voice: 'ryan' });
      expect(late.status).toBe(503);
      expect(late.headers.get('retry-after')).toBe('5');
    } finally {
      await d.dispose();
    }
  }, 120_000);
});
