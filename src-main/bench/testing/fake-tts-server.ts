/**
 * Test support: a fake TTS HTTP server on loopback with a known service time and batch width,
 * speaking the studio API shapes (/v1/audio/speech, /api/v1/tts, /status). Deterministic WAV
 * bytes per (input, seed); optional faults (one wrong byte, 429s). Batches are scheduled back to
 * back on an ideal clock (start = max(previous finish, last arrival)) so timer lag does not accumulate.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EnginePlanSummary } from '../../../src-shared/synthesis';

export interface FakeTtsServerOptions {
  serviceMs: number;
  /** How many queued requests one service period completes (1 = serial). */
  batchSize: number;
  /** Audio length of every response. */
  audioDurationMs?: number;
  /** 1-based number of the served request whose body gets one flipped byte. */
  corruptRequestNumber?: number;
  corruptByteOffset?: number;
  /** A batch waits up to this long for batchSize requests before starting with fewer (default 5 ms). */
  maxBatchWaitMs?: number;
  /** Answer 429 when more than this many are queued. */
  maxQueued?: number;
  /** Stream: send the WAV header immediately, the rest when the batch finishes. */
  streamHeaderFirst?: boolean;
  /** The engine plan /status names (absent: none, as an older server). */
  plan?: EnginePlanSummary;
  /** With this, /status counts one engine step per batch (serviceMs each, this many of them host ms). */
  hostMsPerStep?: number;
}

export interface FakeTtsServer {
  url: string;
  numServed(): number;
  bodies: Record<string, unknown>[];
  dispose(): Promise<void>;
}

const SAMPLE_RATE_HZ = 8000;

/** 16-bit mono PCM WAV whose samples are a hash of (text, seed): same request → same bytes. */
export function fakeWav(key: string, audioDurationMs: number): Uint8Array {
  const numSamples = Math.round((audioDurationMs * SAMPLE_RATE_HZ) / 1000);
  const bytes = new Uint8Array(44 + numSamples * 2);
  const view = new DataView(bytes.buffer);
  const writeTag = (offset: number, tag: string) => [...tag].forEach((c, i) => (bytes[offset + i] = c.charCodeAt(0)));
  writeTag(0, 'RIFF');
  view.setUint32(4, 36 + numSamples * 2, true);
  writeTag(8, 'WAVE');
  writeTag(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE_HZ, true);
  view.setUint32(28, SAMPLE_RATE_HZ * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  writeTag(36, 'data');
  view.setUint32(40, numSamples * 2, true);
  let h = 2166136261;
  for (const c of key) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  for (let i = 0; i < numSamples; i++) {
    h = Math.imul(h ^ i, 16777619) >>> 0;
    view.setInt16(44 + i * 2, (h & 0xffff) - 32768, true);
  }
  return bytes;
}

interface Pending {
  res: http.ServerResponse;
  body: Record<string, unknown>;
  arrivedMs: number;
}

export async function startFakeTtsServer(options: FakeTtsServerOptions): Promise<FakeTtsServer> {
  const waiting: Pending[] = [];
  let running: Pending[] = [];
  let lastFinishMs = 0;
  const steps = { numSteps: 0, totalStepMs: 0, totalHostMs: 0 };
  let numServed = 0;
  const bodies: Record<string, unknown>[] = [];
  const audioDurationMs = options.audioDurationMs ?? 1000;

  const respond = (p: Pending) => {
    numServed += 1;
    const key = `${String(p.body.input ?? p.body.text ?? p.body.ssml)}|${String(p.body.seed)}`;
    const wav = fakeWav(key, audioDurationMs);
    if (numServed === options.corruptRequestNumber) wav[options.corruptByteOffset ?? 100] ^= 0xff;
    if (options.streamHeaderFirst) p.res.end(Buffer.from(wav.subarray(44)));
    else p.res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(Buffer.from(wav));
  };

  let batchWaitTimer: NodeJS.Timeout | null = null;
  const startBatch = () => {
    if (running.length > 0 || waiting.length === 0) return;
    if (waiting.length < options.batchSize && options.batchSize > 1 && batchWaitTimer === null) {
      batchWaitTimer = setTimeout(() => {
        batchWaitTimer = null;
        runBatch();
      }, options.maxBatchWaitMs ?? 5);
      return;
    }
    if (batchWaitTimer !== null && waiting.length < options.batchSize) return;
    runBatch();
  };

  const runBatch = () => {
    if (batchWaitTimer !== null) {
      clearTimeout(batchWaitTimer);
      batchWaitTimer = null;
    }
    if (running.length > 0 || waiting.length === 0) return;
    running = waiting.splice(0, options.batchSize);
    const nowMs = performance.now();
    // ideal clock: the batch starts when the previous one was due to finish or when its last member
    // arrived, whichever is later, so a late timer in this process does not slow the fake down
    const startMs = Math.max(lastFinishMs, ...running.map((p) => p.arrivedMs));
    lastFinishMs = startMs + options.serviceMs;
    if (options.hostMsPerStep !== undefined) [steps.numSteps, steps.totalStepMs, steps.totalHostMs] = [steps.numSteps + 1, steps.totalStepMs + options.serviceMs, steps.totalHostMs + options.hostMsPerStep];
    if (options.streamHeaderFirst) {
      for (const p of running) {
        p.res.writeHead(200, { 'content-type': 'audio/wav' });
        p.res.write(Buffer.from(fakeWav(`${String(p.body.input ?? p.body.text ?? p.body.ssml)}|${String(p.body.seed)}`, audioDurationMs).subarray(0, 44)));
      }
    }
    setTimeout(() => {
      const done = running;
      running = [];
      for (const p of done) respond(p);
      startBatch();
    }, Math.max(0, lastFinishMs - nowMs));
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/status') {
      const body = JSON.stringify({ state: 'ready', provider: 'fake', queueDepth: waiting.length + running.length, numWaiting: waiting.length, numRunning: running.length, ...(options.plan ? { plan: options.plan } : {}), ...(options.hostMsPerStep !== undefined ? { steps } : {}) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (req.method !== 'POST' || (req.url !== '/v1/audio/speech' && req.url !== '/api/v1/tts')) {
      res.writeHead(404).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      bodies.push(body);
      if (options.maxQueued !== undefined && waiting.length >= options.maxQueued) {
        res.writeHead(429, { 'retry-after': '1' }).end('queue full');
        return;
      }
      waiting.push({ res, body, arrivedMs: performance.now() });
      startBatch();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    numServed: () => numServed,
    bodies,
    dispose: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
