// Tests for the http target: both API shapes, status parsing, loopback safety, WAV duration,
// and rejections (429) counted by a closed-loop run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTarget } from './http-target';
import { runBenchmark } from './run-benchmark';
import { fakeWav, startFakeTtsServer, type FakeTtsServer } from './testing/fake-tts-server';
import { isLoopbackHost } from './url-safety';
import { wavDurationMs } from './wav-duration';
import { compareBytes } from './compare-bytes';

describe('createHttpTarget', () => {
  let server: FakeTtsServer;
  beforeAll(async () => {
    server = await startFakeTtsServer({ serviceMs: 10, batchSize: 1, audioDurationMs: 750 });
  });
  afterAll(() => server.dispose());

  it('posts the OpenAI shape with the seed extension and reads the WAV duration', async () => {
    const target = createHttpTarget(server.url, { api: 'openai', model: 'qwen3-tts-0.6b' });
    const res = await target.synthesize({ text: 'hello', voice: 'ryan', seed: 42, language: 'english', stream: false }, new AbortController().signal);
    expect(server.bodies.at(-1)).toEqual({ model: 'qwen3-tts-0.6b', input: 'hello', voice: 'ryan', response_format: 'wav', stream: false, seed: 42, language: 'english' });
    expect(res.status).toBe(200);
    expect(res.audioDurationMs).toBeCloseTo(750, 6);
    expect(res.firstByteMs).toBeNull();
    expect(compareBytes(fakeWav('hello|42', 750), res.bytes)).toBeNull();
  });

  it('refuses SSML on the OpenAI shape instead of reading the markup aloud', async () => {
    const target = createHttpTarget(server.url, { api: 'openai' });
    await expect(target.synthesize({ ssml: '<speak>hi</speak>', voice: 'ryan', seed: 7, stream: false }, new AbortController().signal)).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('posts the studio /api/v1/tts shape with ssml by default', async () => {
    const target = createHttpTarget(server.url);
    await target.synthesize({ ssml: '<speak>hi</speak>', voice: 'ryan', seed: 7, stream: false }, new AbortController().signal);
    expect(server.bodies.at(-1)).toEqual({ ssml: '<speak>hi</speak>', voice: 'ryan', seed: 7, stream: false });
  });

  it('reads queue depth, waiting and running from /status', async () => {
    const status = await createHttpTarget(server.url).status?.();
    expect(status).toEqual({ queueDepth: 0, numWaiting: 0, numRunning: 0 });
    expect((await createHttpTarget(server.url).describe?.())?.provider).toBe('fake');
  });

  it('measures first-byte latency when streaming', async () => {
    const streaming = await startFakeTtsServer({ serviceMs: 600, batchSize: 1, streamHeaderFirst: true });
    try {
      const startedMs = performance.now();
      const res = await createHttpTarget(streaming.url).synthesize({ text: 'a', voice: 'v', seed: 1, stream: true }, new AbortController().signal);
      const totalMs = performance.now() - startedMs;
      // the header arrives at once, the rest after the 600 ms service time (wide apart, so timer
      // lag on a loaded machine cannot blur the two)
      expect(res.firstByteMs).not.toBeNull();
      expect(res.firstByteMs).toBeLessThan(300);
      expect(totalMs).toBeGreaterThan(550);
      expect(res.audioDurationMs).toBeCloseTo(1000, 6);
    } finally {
      await streaming.dispose();
    }
  });

  it('refuses non-loopback hosts without allowRemote, naming the flag', () => {
    expect(() => createHttpTarget('http://192.168.1.20:8080')).toThrow(/allowRemote/);
    expect(() => createHttpTarget('ftp://127.0.0.1')).toThrow(/http/);
    expect(() => createHttpTarget('http://192.168.1.20:8080', { allowRemote: true })).not.toThrow();
    expect(['localhost', '127.0.0.1', '127.8.9.1', '[::1]', 'a.localhost'].every(isLoopbackHost)).toBe(true);
    expect(['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'].some(isLoopbackHost)).toBe(false);
  });

  it('turns a refused connection into a network error', async () => {
    const target = createHttpTarget('http://127.0.0.1:1');
    await expect(target.synthesize({ text: 'a', voice: 'v', seed: 1, stream: false }, new AbortController().signal)).rejects.toMatchObject({ code: 'network' });
  });
});

describe('rejections under admission control', () => {
  it('counts 429 answers as rejections and marks the measurement invalid', async () => {
    // 4 clients, at most 1 queued behind the running one: the extra clients get 429 and back off
    const server = await startFakeTtsServer({ serviceMs: 40, batchSize: 1, maxQueued: 1 });
    try {
      const record = await runBenchmark({ nvidiaSmiPath: '/nonexistent/nvidia-smi', variants: [{ name: 'v', createTarget: () => createHttpTarget(server.url) }], workloads: ['plain'], clientCounts: [4], windowMs: 600, numPasses: 1, rejectionBackoffMs: 30 });
      const m = record.measurements[0];
      expect(m.counts.numRejected).toBeGreaterThan(0);
      expect(m.valid).toBe(false);
      expect(m.invalidReasons.join(' ')).toContain('rejected (429/503)');
      // rejections are not completions: throughput stays at the 1 / 40 ms = 25 req/s ceiling
      expect(m.reqPerS).toBeLessThanOrEqual(26);
    } finally {
      await server.dispose();
    }
  }, 20_000);
});

describe('wavDurationMs', () => {
  it('reads duration from the header and falls back to the bytes present for streaming placeholders', () => {
    const wav = fakeWav('x', 500); // 8 kHz 16-bit mono: 500 ms = 8000 data bytes
    expect(wavDurationMs(wav)).toBeCloseTo(500, 9);
    const streamed = wav.slice();
    new DataView(streamed.buffer).setUint32(40, 0xffffffff, true);
    expect(wavDurationMs(streamed.subarray(0, 44 + 4000))).toBeCloseTo(250, 9);
    expect(wavDurationMs(new TextEncoder().encode('not a wav file at all'))).toBeNull();
  });
});
