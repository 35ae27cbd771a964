/**
 * The engine host's service over fake model stages: hostile input is refused cheaply and for good
 * (1 MB of text, thousands of SSML turns), <audio src> reads only allowed regular files and never
 * blocks on a FIFO or /dev/zero, every request has a deadline that frees its resources, and a
 * request the scheduler can never admit fails alone (at once, with the parts queued before it
 * released) instead of taking the others down with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { encodeWav } from '../audio/wav';
import { Engine } from '../engine/engine';
import { batchLimitsOf, resolveEngineConfig } from '../engine/engine-config';
import { MAX_BYTES_PER_TEXT_TOKEN } from '../engine/create-sequence';
import { fakeManifest, fakeStages, fakeTokenizer } from '../engine/testing/fake-stages';
import { resolveSchedulerConfig } from '../scheduler/batch-policy';
import type { KvSize } from '../scheduler/kv-budget';
import { AUDIO_INSERT_MAX_BYTES, defaultAudioInsertPolicy, refusalWarning } from './audio-inserts';
import { schedulerConfigFor } from './scheduler-config';
import { HostedSynthesis } from './synthesis-service';

/** A request with more text than the token budget is refused well inside this, on a loaded CI box. */
const MAX_REJECT_MS = 500;
const POSIX = process.platform !== 'win32';

let dataDir: string;
let clips: string;
const services: HostedSynthesis[] = [];

/** Busy-waits, as a real tokenizer keeps the event loop busy. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function makeService(options: { engine?: Record<string, unknown>; scheduler?: Record<string, unknown>; kv?: KvSize; stepDelayMs?: number; encodeMs?: number } = {}) {
  const stages = fakeStages();
  const tokenizer = fakeTokenizer();
  const counts = { numEncodes: 0 };
  const encode = tokenizer.encode;
  tokenizer.encode = (text) => {
    counts.numEncodes++;
    if (options.encodeMs) spin(options.encodeMs);
    return encode(text);
  };
  if (options.stepDelayMs) {
    const decode = stages.talker.decode.bind(stages.talker);
    stages.talker.decode = async (inputs) => {
      await new Promise((r) => setTimeout(r, options.stepDelayMs));
      return decode(inputs);
    };
  }
  const manifest = fakeManifest();
  const engine = new Engine({
    manifest,
    tokenizer,
    stages,
    config: resolveEngineConfig({ provider: 'cpu', ...options.engine }),
    provider: { name: 'cpu', reason: 'test' },
    scheduler: resolveSchedulerConfig({ maxRunningSequences: 8, ...options.scheduler }),
    ...(options.kv ? { kv: options.kv } : {}),
  });
  const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, () => {}, {
    audioInserts: defaultAudioInsertPolicy([clips], 24000),
    log: () => {},
  });
  services.push(service);
  return { service, engine, counts };
}

let nextId = 0;
const request = (input: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  requestId: `r${nextId++}`, input, inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1, ...extra,
});
const synthesize = (service: HostedSynthesis, req: SynthesisRequest) => service.call('synthesize', req) as Promise<SynthesisResult>;
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as StudioError);

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hosted-synthesis-'));
  clips = path.join(dataDir, 'library', 'clips');
  fs.mkdirSync(clips, { recursive: true });
  fs.writeFileSync(path.join(clips, 'ding.wav'), encodeWav(new Float32Array(2400).fill(0.25), 24000, 'pcm16'));
});

afterAll(async () => {
  for (const s of services) await s.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('cheap limits before expensive work', () => {
  it('refuses 1 MB of text with input-too-long, naming the limit and the fix, before tokenizing it', async () => {
    const { service, engine, counts } = makeService();
    const started = performance.now();
    const err = await failure(synthesize(service, request('word '.repeat(200_000))));
    const elapsedMs = performance.now() - started;
    expect(err.code).toBe('input-too-long');
    // 4,096 tokens × 8 bytes per token = 32,768 bytes at most
    expect(err.message).toContain(`at most ${(4096 * MAX_BYTES_PER_TEXT_TOKEN).toLocaleString('en-US')} bytes fit the token budget`);
    expect(err.message).toMatch(/engine\.maxSequenceTokens 4,096 × 8 bytes per token\); split the text/);
    expect(err.details).toMatchObject({ field: 'input', numBytesAtLeast: 1_000_000, maxBytes: 4096 * MAX_BYTES_PER_TEXT_TOKEN });
    // the tokenizer never saw it: the check counts bytes first
    expect(counts.numEncodes).toBe(0);
    expect(elapsedMs).toBeLessThan(MAX_REJECT_MS);
    expect(engine.status().numRejected).toBe(1);
  });

  it('counts UTF-8 bytes, so CJK text is refused at a third of the characters', async () => {
    const { service } = makeService();
    const cjk = '语'.repeat(11_000); // 33,000 bytes > 32,768, though only 11,000 characters
    const err = await failure(synthesize(service, request(cjk)));
    expect(err.code).toBe('input-too-long');
    expect(err.details).toMatchObject({ numBytesAtLeast: 33_000 });
    expect(err.message).toMatch(/text is 33,000 bytes/);
  });

  it('refuses an over-long instruct the same way', async () => {
    const { service } = makeService();
    const err = await failure(synthesize(service, request('hello', { instruct: 'x'.repeat(4096 * MAX_BYTES_PER_TEXT_TOKEN + 1) })));
    expect(err.code).toBe('input-too-long');
    expect(err.details).toMatchObject({ field: 'instruct' });
  });

  it('builds the prompt of text whose token count is near the budget without a stack overflow', async () => {
    // the fake tokenizer gives one token per character: 200,000 tokens went through a spread push before
    const { service } = makeService({ engine: { maxSequenceTokens: 250_000 } });
    const err = await failure(synthesize(service, request('a'.repeat(200_000), { params: { maxNewTokens: 1 } })));
    // it fails on the KV pool that cannot hold it, not on 'Maximum call stack size exceeded'
    expect(err.message).not.toMatch(/call stack/);
    expect(err.code).toBe('input-too-long');
  });

  it('fails an SSML document with more turns than the queue can ever hold for good, not as busy', async () => {
    const { service, counts } = makeService();
    const turns = Array.from({ length: 4000 }, (_, i) => `t${i}<break time="1ms"/>`).join('');
    const started = performance.now();
    const err = await failure(synthesize(service, request(`<speak>${turns}</speak>`, { inputFormat: 'ssml' })));
    expect(err.code).toBe('input-too-long'); // permanent: HTTP 413/422, never 429 + Retry-After
    expect(err.message).toMatch(/4,00\d turn parts \(one engine sequence each.*\) but at most 256 can be queued/);
    expect(err.details).toMatchObject({ maxQueueDepth: 256 });
    expect(performance.now() - started).toBeLessThan(5_000); // parsing 4,000 turns, and not one tokenized
    expect(counts.numEncodes).toBe(0);
  });

  it('still answers busy when a document fits the queue but the queue is full now', async () => {
    const { service, engine } = makeService({ scheduler: { maxQueueDepth: 3, maxRunningSequences: 1 } });
    // the first document's 3 turns: 1 admitted at once, 2 waiting; 2 + 2 more > 3
    const first = synthesize(service, request('<speak>a<break time="1ms"/>b<break time="1ms"/>c</speak>', { inputFormat: 'ssml' }));
    while (engine.status().numInFlight < 3) await new Promise((r) => setTimeout(r, 1));
    const err = await failure(synthesize(service, request('<speak>d<break time="1ms"/>e</speak>', { inputFormat: 'ssml' })));
    expect(err.code).toBe('busy');
    await first;
  });
});

describe('<audio src> through the service', () => {
  it('inserts a WAV from an allowed folder and refuses /dev/zero and paths outside with one generic warning', async () => {
    const { service } = makeService();
    const policy = { maxBytes: AUDIO_INSERT_MAX_BYTES };
    const srcs = ['ding.wav', '/dev/zero', 'file:///dev/zero', '/etc/hostname', path.join(dataDir, 'nothing-here.wav')];
    const ssml = `<speak>Hello <audio src="${srcs[0]}"/><audio src="${srcs[1]}"/><audio src="${srcs[2]}"/><audio src="${srcs[3]}"/><audio src="${srcs[4]}"/> there</speak>`;
    const result = await synthesize(service, request(ssml, { inputFormat: 'ssml' }));
    // The ding's peak may also hold the recording under the loudness target, which is a warning of its own.
    expect(result.warnings.filter((w) => !w.startsWith('loudness target missed'))).toEqual(srcs.slice(1).map((src) => refusalWarning(src, policy)));
    // one voice: one turn of two parts, the 2,400-sample ding between them inside the turn's span (crossfades may shave a few samples)
    expect(result.turnSpans).toHaveLength(1);
    const [span] = result.turnSpans;
    const partsMs = result.trace!.turns.reduce((ms, t) => ms + t.durationMs, 0);
    expect(result.trace!.turns.map((t) => t.partIndex)).toEqual([0, 1]);
    expect(span.endSample - span.startSample - (partsMs * 24000) / 1000).toBeGreaterThan(2000);
  });

  it('fails a request whose <audio> float WAV has a NaN sample with invalid-argument (HTTP 400), and its neighbour finishes', async () => {
    const pcm = new Float32Array(2400).fill(0.25);
    pcm[1200] = NaN;
    fs.writeFileSync(path.join(clips, 'broken.wav'), encodeWav(pcm, 24000, 'float32'));
    const { service } = makeService();
    const neighbour = synthesize(service, request('next door'));
    const err = await failure(synthesize(service, request('<speak>Hi <audio src="broken.wav"/> there</speak>', { inputFormat: 'ssml' })));
    expect(err.code).toBe('invalid-argument');
    expect(err.message).toMatch(/^<audio src="broken\.wav"> has a NaN sample at 50 ms \(frame 1,200\); inserted audio must hold finite samples/);
    expect((await neighbour).timings.numFrames).toBeGreaterThan(0);
  });

  it('fails a request whose <audio> WAV decodes to more samples than the bound, by its header', async () => {
    // 8-bit 8 kHz: 4,900,000 one-byte frames are 14,700,000 samples at 24 kHz, over the 14,400,000 of AUDIO_INSERT_MAX_DECODED_SAMPLES
    const header = encodeWav(new Float32Array(0), 8000, 'pcm16');
    const view = new DataView(header.buffer);
    view.setUint16(32, 1, true); // block align
    view.setUint16(34, 8, true); // bits per sample
    view.setUint32(28, 8000, true); // byte rate
    view.setUint32(4, 36 + 4_900_000, true);
    view.setUint32(40, 4_900_000, true);
    fs.writeFileSync(path.join(clips, 'long.wav'), Buffer.concat([header, Buffer.alloc(4_900_000, 128)]));
    const { service } = makeService();
    const err = await failure(synthesize(service, request('<speak>Hi <audio src="long.wav"/></speak>', { inputFormat: 'ssml' })));
    expect(err.code).toBe('input-too-long');
    expect(err.details).toMatchObject({ numDecodedSamples: 14_700_000 });
  });

  it.skipIf(!POSIX)('refuses a FIFO inside an allowed folder without blocking the host', async () => {
    const fifo = path.join(clips, 'stuck.wav');
    execFileSync('mkfifo', [fifo]);
    const { service } = makeService();
    const result = await synthesize(service, request(`<speak>Hi <audio src="stuck.wav"/> there</speak>`, { inputFormat: 'ssml' }));
    expect(result.warnings).toEqual([refusalWarning('stuck.wav', { maxBytes: AUDIO_INSERT_MAX_BYTES })]);
  });
});

describe("the host's scheduler limits", () => {
  /** The prompts prefilled in each step that admitted any, for `numRequests` requests sent at once to an engine built as the host builds it. */
  async function admissions(engineOverrides: Record<string, unknown>, numRequests: number): Promise<number[]> {
    const config = resolveEngineConfig({ provider: 'cpu', ...engineOverrides });
    const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages: fakeStages(), config, provider: { name: 'cpu', reason: 'test' }, scheduler: schedulerConfigFor(batchLimitsOf(config), {}) });
    const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, () => {}, { audioInserts: defaultAudioInsertPolicy([clips], 24000), log: () => {} });
    services.push(service);
    const numPrefilled: number[] = [];
    const step = engine.step.bind(engine);
    engine.step = async () => {
      const report = await step();
      if (report.kind === 'ran' && report.numPrefilled > 0) numPrefilled.push(report.numPrefilled);
      return report;
    };
    const results = await Promise.all(Array.from({ length: numRequests }, (_, i) => synthesize(service, request(`request number ${i}`))));
    expect(results).toHaveLength(numRequests);
    return numPrefilled;
  }

  it('admits at most engine.maxPrefillSequences per step in a hosted engine', async () => {
    const capped = await admissions({ maxRunningSequences: 8, maxPrefillSequences: 2 }, 7);
    expect(Math.max(...capped)).toBe(2);
    expect(capped.reduce((a, b) => a + b, 0)).toBe(7);
    // the same arrivals with the cap at maxRunningSequences: some step admits more than 2
    const uncapped = await admissions({ maxRunningSequences: 8, maxPrefillSequences: 8 }, 7);
    expect(Math.max(...uncapped)).toBeGreaterThan(2);
    expect(uncapped.length).toBeLessThan(capped.length);
  });

  it('sizes the host scheduler from the engine limits: maxRunningSequences and maxPrefillSequences, beside the scheduler settings', () => {
    const limits = schedulerConfigFor({ maxRunningSequences: 6, maxPrefillSequences: 3 }, { maxQueueDepth: 9 });
    expect(limits).toMatchObject({ maxRunningSequences: 6, maxPrefillSequences: 3, maxQueueDepth: 9 });
    expect(Object.isFrozen(limits)).toBe(true);
  });
});

describe('deadlines and refused sequences', () => {
  it('fails a request that runs past requestTimeoutMs with a timeout naming the limit, and frees its KV', async () => {
    const { service, engine } = makeService({ scheduler: { requestTimeoutMs: 40 }, stepDelayMs: 5, engine: { minFramesCap: 400, framesPerTextToken: 0 } });
    const err = await failure(synthesize(service, request('a long one')));
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/deadline of 40 ms/);
    expect(err.message).toMatch(/requestTimeoutMs/);
    const pool = engine.scheduler.kvPool;
    expect(pool.numOwners).toBe(0);
    expect(engine.status()).toMatchObject({ numRunning: 0, numWaiting: 0 });
    expect(engine.hasWork()).toBe(false);
  });

  it('fails only the request the KV pool can never hold; the others finish', async () => {
    const { service } = makeService({ kv: { numBlocks: 32, blockTokens: 8 } });
    const small = synthesize(service, request('hi', { params: { maxNewTokens: 30 } }));
    const huge = failure(synthesize(service, request('this text is far too long for a tiny pool')));
    expect((await huge).code).toBe('input-too-long');
    expect((await small).timings.numFrames).toBeGreaterThan(0);
  });

  it('refuses a document at once when the KV pool can never hold one of its parts, and lets the parts queued before it go', async () => {
    const { service, engine } = makeService({ kv: { numBlocks: 32, blockTokens: 8 } });
    const err = await failure(synthesize(service, request('<speak>hi<break time="1ms"/>this text is far too long for a tiny pool</speak>', { inputFormat: 'ssml' })));
    expect(err.code).toBe('input-too-long');
    expect(err.message).toMatch(/KV positions but the pool holds 256/);
    while (engine.hasWork()) await new Promise((r) => setTimeout(r, 1));
    expect(engine.scheduler.counters()).toMatchObject({ numWaiting: 0, numRunning: 0 });
    expect(engine.scheduler.kvPool.numOwners).toBe(0);
  });
});

describe('long documents do not hold the event loop', () => {
  const manyTurns = (n: number) => `<speak>${Array.from({ length: n }, (_, i) => `turn ${i}<break time="1ms"/>`).join('')}</speak>`;

  it('yields between turns while tokenizing a long document, so timers and calls get through', async () => {
    const { service, counts } = makeService({ encodeMs: 3 });
    // 40 turns × 2 encodes × 3 ms = 240 ms of tokenizing; a timer set now must fire long before it ends
    const pending = synthesize(service, request(manyTurns(40), { inputFormat: 'ssml', params: { maxNewTokens: 2 } }));
    const seenAt = await new Promise<number>((resolve) => setTimeout(() => resolve(counts.numEncodes), 0));
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt).toBeLessThan(80);
    expect((service.heartbeat()).numJobs).toBe(1);
    const result = await pending;
    // one voice: one turn of 40 parts (one sequence each), the breaks inside it
    expect(result.turnSpans).toHaveLength(1);
    expect(result.trace?.turns).toHaveLength(40);
  });

  it('cancels a document while its turns are being tokenized, before anything is queued', async () => {
    const { service, engine, counts } = makeService({ encodeMs: 3 });
    const req = request(manyTurns(40), { inputFormat: 'ssml' });
    const pending = failure(synthesize(service, req));
    await new Promise((r) => setTimeout(r, 0));
    expect(await service.call('cancel', { requestId: req.requestId })).toEqual({ cancelled: true });
    expect((await pending).code).toBe('cancelled');
    expect(counts.numEncodes).toBeLessThan(80);
    expect(engine.status()).toMatchObject({ numWaiting: 0, numRunning: 0 });
  });

  it('drains a document that was still being tokenized: it is queued and answered before drain returns', async () => {
    const { service } = makeService({ encodeMs: 2 });
    let answered = false;
    const pending = synthesize(service, request(manyTurns(20), { inputFormat: 'ssml', params: { maxNewTokens: 2 } })).then((r) => ((answered = true), r));
    await new Promise((r) => setTimeout(r, 0));
    await service.call('drain', { graceMs: 60_000 });
    expect(answered).toBe(true);
    expect((await pending).trace?.turns).toHaveLength(20);
    const late = await failure(synthesize(service, request('too late')));
    expect(late.code).toBe('unavailable');
  });
});

