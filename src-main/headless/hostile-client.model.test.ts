/**
 * The local server as a hostile client sees it, on loopback against the real engine host and the
 * tiny synthetic model: DNS rebinding, cross-site posts, the WebSocket without a token, admin
 * channels, status codes a client can trust, drain that answers everything in flight, OpenAI
 * clients (voices, speed, SSE) and warnings in any script. Every loop is bounded in count and time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import WebSocket from 'ws';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { decodeWire, encodeWire } from '../../src-shared/wire';
import { decodeWav } from '../audio/wav';
import { encodeWav } from '../audio/wav-encode';
import { resample } from '../audio/resample';
import { decodeIndependently } from '../audio/testing/decode-independently';
import { postJson, serveTiny, type Served } from './testing/serve-tiny';

let modelDir: string;
let open: Served; // loopback, no user token
let guarded: Served; // loopback, with a user token

beforeAll(async () => {
  modelDir = (await ensureTinyModel()).builtDir;
  open = await serveTiny(modelDir);
  guarded = await serveTiny(modelDir, { server: { bearerToken: 'the-token' } });
}, 180_000);

afterAll(async () => {
  await open?.dispose();
  await guarded?.dispose();
});

/** A raw request, so Host and other headers fetch() will not let us forge can be set. */
function rawRequest(url: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error('timed out')));
    req.end(options.body);
  });
}

function wsOpen(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function wsCall(ws: WebSocket, id: number, channel: string, payload: unknown): Promise<{ ok: boolean; error?: { code: string; message: string }; value?: unknown }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = decodeWire(data.toString()) as { kind: string; id: number; reply: { ok: boolean } };
      if (m.kind === 'reply' && m.id === id) {
        ws.off('message', onMessage);
        resolve(m.reply as never);
      }
    };
    ws.on('message', onMessage);
    ws.send(encodeWire({ kind: 'call', id, channel, payload }));
  });
}

/** Waits (bounded) until the engine reports a running sequence. */
async function untilRunning(s: Served): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const status = (await (await fetch(`${s.server.url}/status`)).json()) as { numRunning?: number };
    if ((status.numRunning ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no request started running within 4 s');
}

/** The highest normalised correlation of `b` against `a` over lags of ±2,048 samples (codec delay). */
function bestCorrelation(a: Float32Array, b: Float32Array): number {
  let best = -1;
  for (let lag = -2048; lag <= 2048; lag += 1) {
    let dot = 0;
    let ea = 0;
    let eb = 0;
    for (let i = 0; i < a.length; i += 4) {
      const j = i + lag;
      const y = j >= 0 && j < b.length ? b[j] : 0;
      dot += a[i] * y;
      ea += a[i] * a[i];
      eb += y * y;
    }
    best = Math.max(best, dot / Math.sqrt(ea * eb || 1));
  }
  return best;
}

const tokenOf = (s: Served) => s.server.token;
const hostOf = (s: Served) => new URL(s.server.url).host;

describe('access: Host, Origin, token', () => {
  it('refuses a DNS-rebinding Host on the API, the UI and the WebSocket', async () => {
    for (const path of ['/status', '/v1/models', '/', '/readyz']) {
      const r = await rawRequest(open.server.url, { path, headers: { host: `attacker.example:${open.server.port}` } });
      expect(r.status, path).toBe(403);
    }
    await expect(wsOpen(open.server.url, { host: 'attacker.example', authorization: `Bearer ${tokenOf(open)}` })).rejects.toThrow(/403/);
  });

  it('refuses a cross-site text/plain post (a CORS simple request) before any synthesis', async () => {
    const before = ((await (await fetch(`${open.server.url}/status`)).json()) as { numCompleted: number }).numCompleted;
    const plain = await rawRequest(open.server.url, {
      method: 'POST',
      path: '/api/v1/tts',
      headers: { host: hostOf(open), 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ text: 'forged', voice: 'ryan' }),
    });
    expect(plain.status).toBe(403); // foreign Origin
    const noOrigin = await rawRequest(open.server.url, { method: 'POST', path: '/api/v1/tts', headers: { host: hostOf(open), 'content-type': 'text/plain' }, body: JSON.stringify({ text: 'x', voice: 'ryan' }) });
    expect(noOrigin.status).toBe(415); // and no JSON body under another content type, whoever sends it
    const form = await rawRequest(open.server.url, { method: 'POST', path: '/v1/audio/speech', headers: { host: hostOf(open), 'content-type': 'application/x-www-form-urlencoded' }, body: 'input=x&voice=ryan' });
    expect(form.status).toBe(415);
    const after = ((await (await fetch(`${open.server.url}/status`)).json()) as { numCompleted: number }).numCompleted;
    expect(after).toBe(before);
  });

  it('refuses the WebSocket without the token, on a token server and on a plain loopback server', async () => {
    await expect(wsOpen(guarded.server.url)).rejects.toThrow(/401/);
    await expect(wsOpen(open.server.url)).rejects.toThrow(/401/);
    await expect(wsOpen(guarded.server.url, { authorization: 'Bearer wrong-token' })).rejects.toThrow(/401/);
    const ws = await wsOpen(guarded.server.url, { authorization: 'Bearer the-token' });
    expect((await wsCall(ws, 1, 'studio:app.ping', { message: 'hi' })).ok).toBe(true);
    ws.close();
  });

  it('requires "Bearer <token>" on every API route of a token server, prefix included', async () => {
    expect((await fetch(`${guarded.server.url}/status`)).status).toBe(401);
    expect((await fetch(`${guarded.server.url}/status`, { headers: { authorization: 'the-token' } })).status).toBe(401);
    expect((await fetch(`${guarded.server.url}/v1/models`, { headers: { authorization: 'Bearer the-token' } })).status).toBe(200);
    expect((await fetch(`${guarded.server.url}/`)).status).toBe(401); // the UI too
    expect((await fetch(`${guarded.server.url}/readyz`)).status).toBe(200); // probes stay open
  });

  it("keeps a socket's request ids its own: another socket's cancel does nothing", async () => {
    const a = await wsOpen(open.server.url, { authorization: `Bearer ${tokenOf(open)}` });
    const b = await wsOpen(open.server.url, { authorization: `Bearer ${tokenOf(open)}` });
    const request = { requestId: 'victim-1', input: 'A request that another client tries to cancel.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 3 };
    const pending = wsCall(a, 1, 'studio:tts.synthesize', request);
    const cancel = await wsCall(b, 1, 'studio:tts.cancel', { requestId: 'victim-1' });
    expect(cancel).toEqual({ ok: true, value: { cancelled: false } });
    expect((await pending).ok).toBe(true);
    a.close();
    b.close();
  }, 60_000);
});

describe('input that must not reach or block the engine', () => {
  it('refuses <audio src> outside the allowed folders, devices and FIFOs, without touching them, with one message', async () => {
    const imports = path.join(open.stack.userDataDir, 'imports');
    mkdirSync(imports, { recursive: true });
    const good = path.join(imports, 'beep.wav');
    writeFileSync(good, encodeWav(new Float32Array(2400).fill(0.1), 24_000, 'pcm16'));
    const fifo = path.join(imports, 'trap.fifo');
    execFileSync('mkfifo', [fifo]);
    const outsideWav = path.join(mkdtempSync(path.join(os.tmpdir(), 'outside-')), 'secret.wav');
    writeFileSync(outsideWav, encodeWav(new Float32Array(2400).fill(0.5), 24_000, 'pcm16'));
    const refusedWarnings: string[] = [];
    for (const src of ['/etc/passwd', '/dev/zero', fifo, outsideWav, path.join(imports, 'missing.wav'), `${imports}/../../../etc/hostname`, 'file:///dev/zero']) {
      const startedMs = performance.now();
      const r = await postJson(`${open.server.url}/api/v1/tts`, { ssml: `<speak>Before <audio src="${src}"/> after.</speak>`, voice: 'ryan' });
      expect(r.status, src).toBe(200);
      expect(performance.now() - startedMs, src).toBeLessThan(20_000);
      const warnings = JSON.parse(decodeURIComponent(r.headers.get('x-studio-warnings')!)) as string[];
      refusedWarnings.push(warnings.find((w) => w.includes('audio'))!.replace(src, '<src>'));
    }
    // Exists or not, device or file: the client reads the same words.
    expect(new Set(refusedWarnings).size).toBe(1);
    expect(refusedWarnings[0]).not.toMatch(/ENOENT|EISDIR|EACCES|no such file/i);
    const inserted = await postJson(`${open.server.url}/api/v1/tts`, { ssml: `<speak>Before <audio src="${pathToFileURL(good).href}"/> after.</speak>`, voice: 'ryan' });
    expect(inserted.headers.get('x-studio-warnings')).toBeNull();
    // The FIFO was never opened for reading: a writer would still be waiting for a reader.
    expect((await fetch(`${open.server.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it('rejects 1 MB of text before it reaches the engine host, while another request completes normally', async () => {
    const hugeText = 'word '.repeat(209_715); // 1,048,575 characters
    // What it costs is checked by where it stops, not by a wall-clock limit (that depends on the machine's load).
    const startedBefore = open.stack.host.requestCounters().numStarted;
    const other = postJson(`${open.server.url}/api/v1/tts`, { text: 'A normal request beside the hostile one.', voice: 'ryan', seed: 9 });
    for (let i = 0; i < 3; i++) {
      const huge = await postJson(`${open.server.url}/api/v1/tts`, { text: hugeText, voice: 'ryan' });
      expect(huge.status).toBe(400);
      expect((huge.json() as { error: { code: string; message: string } }).error).toMatchObject({ code: 'input-too-long', message: expect.stringMatching(/split the text/) });
    }
    expect((await other).status).toBe(200);
    // Only the normal request was handed to the engine host: the three megabytes never were.
    expect(open.stack.host.requestCounters().numStarted - startedBefore).toBe(1);
  }, 60_000);

  it('answers a document that can never be admitted with a permanent error, not 429', async () => {
    const turns = Array.from({ length: 4000 }, (_, i) => `<voice name="${i % 2 ? 'ryan' : 'serena'}">T${i}.</voice>`).join('');
    const r = await postJson(`${open.server.url}/api/v1/tts`, { ssml: `<speak>${turns}</speak>`, voice: 'ryan' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.status).not.toBe(429);
    expect(r.headers.get('retry-after')).toBeNull();
  }, 60_000);

  it('keeps /status totals across an engine restart and counts crashed requests', async () => {
    const s = await serveTiny(modelDir, { engineConfig: { minFramesCap: 3000 } });
    try {
      expect((await postJson(`${s.server.url}/api/v1/tts`, { text: 'Counted once.', voice: 'ryan', params: { maxNewTokens: 4 } })).status).toBe(200);
      const pending = postJson(`${s.server.url}/api/v1/tts`, { text: 'This one dies with its engine, mid sentence, on purpose.', voice: 'ryan' });
      await untilRunning(s);
      process.kill(s.stack.host.pid!, 'SIGKILL');
      expect((await pending).status).toBe(503);
      await s.stack.host.whenReady();
      const totals = ((await (await fetch(`${s.server.url}/status`)).json()) as { totals: { numCompleted: number; numCrashed: number; numRestarts: number } }).totals;
      expect(totals).toMatchObject({ numCompleted: 1, numCrashed: 1, numRestarts: 1 });
    } finally {
      await s.dispose();
    }
  }, 120_000);
});

describe('status codes a client can trust', () => {
  it('answers 405 with Allow, HEAD like GET without a body, 404 for unknown models and routes', async () => {
    const wrong = await fetch(`${open.server.url}/v1/audio/speech`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const head = await fetch(`${open.server.url}/v1/models`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${open.server.url}/v1/models/tts-1`)).status).toBe(200);
    const unknownModel = await fetch(`${open.server.url}/v1/models/gpt-9`);
    expect(unknownModel.status).toBe(404);
    expect(((await unknownModel.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const speech = await postJson(`${open.server.url}/v1/audio/speech`, { model: 'no-such-model', input: 'hi', voice: 'ryan' });
    expect(speech.status).toBe(404);
    expect((speech.json() as { error: { param: string } }).error.param).toBe('model');
    expect((await fetch(`${open.server.url}/v1/nothing`)).status).toBe(404);
  });

  it('answers 413 for a body over the cap and 400 for malformed percent-encoding', async () => {
    const big = await postJson(`${open.server.url}/api/v1/tts`, { text: 'a'.repeat(1_200_000), voice: 'ryan' });
    expect(big.status).toBe(413);
    const bad = await rawRequest(open.server.url, { path: '/v1/models/%E0%A4%A', headers: { host: hostOf(open) } });
    expect(bad.status).toBe(400);
  });

  it('answers 503 with Retry-After when the engine crashes under a request', async () => {
    const s = await serveTiny(modelDir, { engineConfig: { minFramesCap: 3000 } });
    try {
      const pending = postJson(`${s.server.url}/api/v1/tts`, { text: 'A sentence that will not finish, because its engine dies.', voice: 'ryan' });
      await untilRunning(s);
      process.kill(s.stack.host.pid!, 'SIGKILL');
      const r = await pending;
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect((r.json() as { error: { code: string } }).error.code).toBe('engine-crashed');
      expect(s.logs.some((l) => /answered 503: engine-crashed/.test(l))).toBe(true); // 5xx logged with its cause
    } finally {
      await s.dispose();
    }
  }, 120_000);
});

describe('lifecycle', () => {
  it('drains: readyz 503 at once, new work 503, and every in-flight response arrives whole', async () => {
    const s = await serveTiny(modelDir);
    try {
      const texts = Array.from({ length: 12 }, (_, i) => `In flight number ${i}, while the server drains.`);
      const inFlight = texts.map((text, i) => postJson(`${s.server.url}/api/v1/tts`, { text, voice: 'ryan', seed: i }));
      // Drain once all twelve are with the engine (a request still uploading when the drain starts is refused, rightly).
      for (let i = 0; i < 1000 && s.stack.host.requestCounters().numInFlight < texts.length; i++) await new Promise((r) => setTimeout(r, 10));
      expect(s.stack.host.requestCounters().numInFlight).toBe(texts.length);
      const drained = s.server.drain(60_000);
      const ready = await fetch(`${s.server.url}/readyz`);
      expect(ready.status).toBe(503);
      const late = await postJson(`${s.server.url}/api/v1/tts`, { text: 'Too late.', voice: 'ryan' });
      expect(late.status).toBe(503);
      expect(late.headers.get('retry-after')).not.toBeNull();
      const results = await Promise.all(inFlight);
      for (const r of results) {
        expect(r.status).toBe(200);
        const wav = decodeWav(r.bytes);
        expect(wav.pcm.length).toBeGreaterThan(0);
      }
      expect((await drained).numUnfinished).toBe(0);
    } finally {
      await s.dispose();
    }
  }, 180_000);

  it('writes one access-log line per request, with its status and time', async () => {
    const before = open.logs.length;
    await fetch(`${open.server.url}/v1/models`);
    await fetch(`${open.server.url}/v1/nope`);
    const lines = open.logs.slice(before).filter((l) => l.startsWith('[http]'));
    expect(lines.some((l) => / GET \/v1\/models 200 \d+ ms/.test(l))).toBe(true);
    expect(lines.some((l) => / GET \/v1\/nope 404 \d+ ms/.test(l))).toBe(true);
  });
});

describe('OpenAI compatibility', () => {
  const client = () => new OpenAI({ baseURL: `${open.server.url}/v1`, apiKey: 'unused-on-loopback' });

  it('gives the openai client with default options a valid MP3, and every other format decodes to the same audio', async () => {
    const input = 'Formats for every client.';
    // The reference: 16-bit PCM of the same request (same seed, same bytes).
    const reference = await postJson(`${open.server.url}/v1/audio/speech`, { model: 'tts-1', voice: 'ryan', input, response_format: 'pcm' });
    const ref = (await decodeIndependently('pcm', reference.bytes, 24_000)).pcm;
    const defaults = await client().audio.speech.create({ model: 'tts-1', voice: 'ryan', input }); // response_format left to the client: mp3
    expect(defaults.headers.get('content-type')).toBe('audio/mpeg');
    const formats = { mp3: new Uint8Array(await defaults.arrayBuffer()) } as Record<string, Uint8Array>;
    for (const format of ['opus', 'aac', 'flac', 'wav'] as const) {
      const response = await client().audio.speech.create({ model: 'tts-1', voice: 'ryan', input, response_format: format });
      formats[format] = new Uint8Array(await response.arrayBuffer());
    }
    for (const [format, bytes] of Object.entries(formats)) {
      const decoded = await decodeIndependently(format as 'mp3', bytes, 24_000);
      // Opus always plays at 48 kHz and this AAC decoder at 48 kHz: compare at the clip's 24 kHz.
      const pcm = decoded.sampleRateHz === 24_000 ? decoded.pcm : resample(decoded.pcm, decoded.sampleRateHz, 24_000);
      expect(Math.abs(pcm.length - ref.length), format).toBeLessThanOrEqual(2048); // within a codec frame or two of padding
      if (format === 'flac' || format === 'wav') {
        // Lossless: the same 16-bit samples (decoders scale by 1/32767 or 1/32768: under 1e-4 apart).
        let maxDiff = 0;
        for (let i = 0; i < ref.length; i++) maxDiff = Math.max(maxDiff, Math.abs(pcm[i] - ref[i]));
        expect(pcm.length, format).toBe(ref.length);
        expect(maxDiff, format).toBeLessThan(1e-4);
      }
      else expect(bestCorrelation(ref, pcm), format).toBeGreaterThan(0.5); // unrelated audio scores ≈ 0
    }
    // Streamed as produced (the documented `stream` extension): the same audio, in MP3 frames as they come.
    const streamed = await postJson(`${open.server.url}/v1/audio/speech`, { model: 'tts-1', voice: 'ryan', input, stream: true });
    expect(streamed.headers.get('content-type')).toBe('audio/mpeg');
    expect(bestCorrelation(ref, (await decodeIndependently('mp3', streamed.bytes, 24_000)).pcm)).toBeGreaterThan(0.5);
  }, 120_000);

  it("maps OpenAI's voice names to the model's speakers", async () => {
    for (const voice of ['alloy', 'echo', 'nova', 'shimmer'] as const) {
      const response = await client().audio.speech.create({ model: 'gpt-4o-mini-tts', voice, input: 'Voices.', response_format: 'wav' });
      expect(decodeWav(new Uint8Array(await response.arrayBuffer())).sampleRateHz).toBe(24_000);
    }
    const wrong = await postJson(`${open.server.url}/v1/audio/speech`, { model: 'tts-1', input: 'x', voice: 'nobody' });
    expect(wrong.status).toBe(400);
    expect((wrong.json() as { error: { param: string; message: string } }).error).toMatchObject({ param: 'voice', message: expect.stringMatching(/alloy/) });
  }, 60_000);

  it('implements speed from 0.25 to 4 as a change of duration, not an SSML error', async () => {
    const durationOf = async (speed: number) => {
      const r = await postJson(`${open.server.url}/v1/audio/speech`, { model: 'tts-1', input: 'Speed check.', voice: 'ryan', speed, response_format: 'wav', seed: 5 });
      expect(r.status).toBe(200);
      return decodeWav(r.bytes).pcm.length;
    };
    const normal = await durationOf(1);
    // timeStretch keeps exactly round(n / rate) samples
    expect(await durationOf(0.25)).toBe(Math.round(normal / 0.25));
    expect(await durationOf(4)).toBe(Math.round(normal / 4));
  }, 60_000);

  it("streams server-sent events that the openai client's stream helper parses", async () => {
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'ryan', input: 'Streaming events.', response_format: 'pcm', stream_format: 'sse' }).asResponse();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events: { type: string; audio?: string; usage?: { total_tokens: number } }[] = [];
    for await (const e of Stream.fromSSEResponse<{ type: string; audio?: string; usage?: { total_tokens: number } }>(response, new AbortController())) events.push(e);
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(events.at(-1)?.type).toBe('speech.audio.done');
    expect(events.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    // The deltas are the model's samples before loudness normalisation (README: a gain needs the
    // whole clip); the non-streamed answer is the same samples times one gain.
    const streamed = Buffer.concat(deltas.map((d) => Buffer.from(d.audio!, 'base64')));
    const whole = Buffer.from((await postJson(`${open.server.url}/v1/audio/speech`, { model: 'tts-1', voice: 'ryan', input: 'Streaming events.', response_format: 'pcm' })).bytes);
    expect(whole.length).toBe(streamed.length);
    const pairs: [number, number][] = [];
    for (let o = 0; o + 1 < whole.length; o += 2) pairs.push([streamed.readInt16LE(o), whole.readInt16LE(o)]);
    const ratios = pairs.filter(([s]) => Math.abs(s) > 2000 && Math.abs(s) < 32767).map(([s, w]) => w / s).sort((a, b) => a - b);
    expect(ratios.length).toBeGreaterThan(100);
    const gain = ratios[ratios.length >> 1];
    const unclipped = pairs.filter(([s]) => Math.abs(s) < 32767);
    const worst = unclipped.reduce((m, [s, w]) => Math.max(m, Math.abs(w - gain * s)), 0);
    expect(worst).toBeLessThanOrEqual(2 + Math.abs(gain));
  }, 60_000);

  it('takes sampling parameters, instruct and seed on both routes, through the same schema', async () => {
    const greedy = { params: { doSample: false, subtalkerDoSample: false } };
    const a = await postJson(`${open.server.url}/v1/audio/speech`, { input: 'Same params.', voice: 'ryan', response_format: 'pcm', ...greedy, seed: 1 });
    const b = await postJson(`${open.server.url}/api/v1/tts`, { text: 'Same params.', voice: 'ryan', response_format: 'pcm', ...greedy, seed: 2 });
    expect(a.status).toBe(200);
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(b.bytes))).toBe(0); // greedy: the seed does not matter
    const bad = await postJson(`${open.server.url}/api/v1/tts`, { text: 'x', voice: 'ryan', params: { temperature: -1 } });
    expect(bad.status).toBe(400);
    expect((bad.json() as { error: { param: string } }).error.param).toBe('params.temperature');
  }, 60_000);

  it('keeps a finished clip whose warnings are in any script (CJK, emoji)', async () => {
    const r = await postJson(`${open.server.url}/api/v1/tts`, { ssml: '<speak><phoneme ph="日本語😀">word</phoneme></speak>', voice: 'ryan' });
    expect(r.status).toBe(200);
    const warnings = JSON.parse(decodeURIComponent(r.headers.get('x-studio-warnings')!)) as string[];
    expect(warnings.join(' ')).toContain('日本語😀');
    expect(decodeWav(r.bytes).pcm.length).toBeGreaterThan(0);
  }, 60_000);
});
