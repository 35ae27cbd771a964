/**
 * Issue 43 (N1), the two reproductions scaled down: many requests inserting long WAVs at once, and
 * one client inserting one saved clip 42 times in each of 20 requests. The host's heartbeat keeps
 * answering throughout (decoding, resampling and joins run on insert workers), the insert budget
 * admits, waits or refuses 'busy' with a retry hint, one clip decodes once, and an unrelated request
 * is answered. Over fake model stages (engine/testing/fake-stages.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StudioError } from '../../src-shared/errors';
import type { SynthesisResult } from '../../src-shared/synthesis';
import { encodeWav } from '../audio/wav';
import { Engine } from '../engine/engine';
import { resolveEngineConfig } from '../engine/engine-config';
import { fakeManifest, fakeStages, fakeTokenizer } from '../engine/testing/fake-stages';
import type { HostSynthesisRequest } from '../engine-protocol/protocol';
import { resolveSchedulerConfig } from '../scheduler/batch-policy';
import { defaultAudioInsertPolicy, type AudioInsertPolicy } from './audio-inserts';
import { JOIN_ON_LOOP_MAX_SAMPLES } from './insert-service';
import { HostedSynthesis } from './synthesis-service';

/**
 * Longest a heartbeat may wait for the host's event loop here. Before issue 43 the 12 concurrent
 * 8-s inserts below held the loop for 1.3 to 3.7 s at a time (decoding, resampling and joins on it).
 */
const MAX_HEARTBEAT_MS = 500;
/** Heartbeats are asked this often during a reproduction (the supervisor asks every few seconds). */
const HEARTBEAT_EVERY_MS = 20;
const RATE_HZ = 24_000;

let dir: string;
const services: HostedSynthesis[] = [];

function makeService(policy: Partial<AudioInsertPolicy> = {}, stepDelayMs = 0): HostedSynthesis {
  const stages = fakeStages();
  if (stepDelayMs > 0) {
    const decode = stages.talker.decode.bind(stages.talker);
    stages.talker.decode = async (inputs) => {
      await new Promise((r) => setTimeout(r, stepDelayMs));
      return decode(inputs);
    };
  }
  const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages, config: resolveEngineConfig({ provider: 'cpu' }), provider: { name: 'cpu', reason: 'test' }, scheduler: resolveSchedulerConfig({ maxRunningSequences: 16, maxQueueDepth: 64 }) });
  const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, () => {}, {
    audioInserts: { ...defaultAudioInsertPolicy([dir], RATE_HZ), ...policy },
    log: () => {},
  });
  services.push(service);
  return service;
}

let nextId = 0;
const ssml = (body: string, clientId?: string): HostSynthesisRequest => ({
  requestId: `load-${nextId++}`, input: `<speak>${body}</speak>`, inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 1, ...(clientId ? { clientId } : {}),
});
const synthesize = (service: HostedSynthesis, req: HostSynthesisRequest) => service.call('synthesize', req) as Promise<SynthesisResult>;

/** Asks the host for a heartbeat every HEARTBEAT_EVERY_MS; stop() gives the longest wait for an answer. */
function watchHeartbeats(service: HostedSynthesis): { stop(): { maxLatencyMs: number; numAnswered: number } } {
  let maxLatencyMs = 0;
  let numAnswered = 0;
  let timer: ReturnType<typeof setTimeout>;
  const ask = (askedMs: number): void => {
    timer = setTimeout(() => {
      void service.call('ping', {}).then(() => {
        numAnswered++;
        maxLatencyMs = Math.max(maxLatencyMs, performance.now() - askedMs - HEARTBEAT_EVERY_MS);
        ask(performance.now());
      });
    }, HEARTBEAT_EVERY_MS);
  };
  ask(performance.now());
  return { stop: () => (clearTimeout(timer), { maxLatencyMs, numAnswered }) };
}

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'insert-load-')));
});

afterAll(async () => {
  for (const s of services) await s.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('many requests with long <audio> inserts at once', () => {
  it('keeps answering heartbeats and an unrelated request while 12 requests each insert a different 8-s 44.1 kHz WAV', async () => {
    // 12 files of 352,800 frames: 192,000 samples each at 24 kHz, 2.3 M together (1.4 % of the 12 × 9.5 min)
    const numRequests = 12;
    for (let f = 0; f < numRequests; f++) {
      const pcm = Float32Array.from({ length: 44_100 * 8 }, (_, i) => 0.3 * Math.sin(i * (0.05 + f * 0.001)));
      fs.writeFileSync(path.join(dir, `long-${f}.wav`), encodeWav(pcm, 44_100, 'pcm16'));
    }
    const service = makeService();
    await synthesize(service, ssml('warm <audio src="long-0.wav"/>')); // starts the workers outside the measurement
    const heartbeats = watchHeartbeats(service);
    const inserts = Array.from({ length: numRequests }, (_, f) => synthesize(service, ssml(`Chapter ${f} <audio src="long-${f}.wav"/> ends`, `client-${f}`)));
    const unrelated = synthesize(service, { ...ssml('hi'), input: 'hi', inputFormat: 'text', clientId: 'other' });
    const results = await Promise.all(inserts);
    expect((await unrelated).timings.numFrames).toBeGreaterThan(0);
    const { maxLatencyMs, numAnswered } = heartbeats.stop();
    for (const r of results) expect(r.numSamples).toBeGreaterThan(192_000); // the insert, plus the two parts' speech
    expect(numAnswered).toBeGreaterThan(0);
    expect(maxLatencyMs).toBeLessThan(MAX_HEARTBEAT_MS);
    expect(service.inserts.usage()).toMatchObject({ numSamplesHeld: 0, numWaiting: 0, numDecodes: numRequests });
  });
});

describe('where a recording is joined', () => {
  it('joins a recording longer than JOIN_ON_LOOP_MAX_SAMPLES on a worker and a short one on the host\'s loop', async () => {
    const service = makeService();
    fs.writeFileSync(path.join(dir, 'ding.wav'), encodeWav(new Float32Array(2400).fill(0.25), RATE_HZ, 'pcm16'));
    await synthesize(service, { ...ssml(''), input: 'hi', inputFormat: 'text' });
    await synthesize(service, ssml('hi <audio src="ding.wav"/>'));
    expect(service.inserts.usage().numJoins).toBe(0);
    // 21 copies of the ding are 50,400 samples: loudness and true peak cost seconds per minute of audio, so not on the loop
    expect(21 * 2400).toBeGreaterThan(JOIN_ON_LOOP_MAX_SAMPLES);
    const long = await synthesize(service, ssml(`hi ${'<audio src="ding.wav"/>'.repeat(21)}`));
    expect(long.numSamples).toBeGreaterThan(0.9 * 50_400); // 20 crossfades shave 10 ms each
    expect(service.inserts.usage()).toMatchObject({ numJoins: 1, numDecodes: 1 });
    expect(long.trace?.loudnessFinalLufs).not.toBeNull();
  });
});

describe('one client inserting one saved clip 42 times in each of 20 requests', () => {
  const NUM_USES = 42;
  const CLIP_SAMPLES = 2400; // 0.1 s; 42 copies are 100,800 samples of the request's recording

  beforeAll(() => {
    // as library.saveClip {pcm} writes it: float32 at the model's rate
    const clip = encodeWav(Float32Array.from({ length: CLIP_SAMPLES }, (_, i) => 0.2 * Math.sin(i / 9)), RATE_HZ, 'float32');
    fs.writeFileSync(path.join(dir, 'clip-1.wav'), clip);
    fs.writeFileSync(path.join(dir, 'same-bytes.wav'), clip);
  });

  it('decodes the clip once, admits what fits, refuses the rest busy with a retry hint, and still serves another client', async () => {
    const perRequest = NUM_USES * CLIP_SAMPLES;
    // room for 4 such requests at once; 4 more of one client may wait
    const service = makeService({ maxSamplesInFlight: 4 * perRequest, maxWaitingPerClient: 4, maxWaitMs: 10_000 }, 5);
    const heartbeats = watchHeartbeats(service);
    const body = `Hi ${'<audio src="clip-1.wav"/>'.repeat(NUM_USES)}`; // one spoken part, then the 42 copies
    const attempts = Array.from({ length: 20 }, () =>
      synthesize(service, ssml(body, 'remote-1')).then(
        (r) => ({ ok: true as const, numSamples: r.numSamples }),
        (e: StudioError) => ({ ok: false as const, code: e.code, retryAfterS: e.details.retryAfterS }),
      ),
    );
    // another client: the same bytes under another name (one decode), and plain text
    const other = synthesize(service, ssml('Intro <audio src="same-bytes.wav"/>', 'local-ui'));
    const unrelated = synthesize(service, { ...ssml('hi'), input: 'hi', inputFormat: 'text', clientId: 'local-ui' });
    const outcomes = await Promise.all(attempts);
    expect((await other).numSamples).toBeGreaterThan(CLIP_SAMPLES - 100); // crossfades may shave a few samples
    expect((await unrelated).timings.numFrames).toBeGreaterThan(0);
    const { maxLatencyMs } = heartbeats.stop();
    const done = outcomes.filter((o) => o.ok);
    const refused = outcomes.filter((o) => !o.ok);
    expect(done.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThan(0); // 20 at once: 4 admitted, 4 waiting, the rest over the client's waiting line
    for (const r of refused) expect(r).toEqual({ ok: false, code: 'busy', retryAfterS: 2 });
    for (const d of done) expect(d.numSamples!).toBeGreaterThan(0.9 * perRequest); // 41 crossfades shave 10 ms each
    expect(service.inserts.usage()).toMatchObject({ numDecodes: 1, numCacheEntries: 1, numSamplesHeld: 0, numWaiting: 0 });
    expect(maxLatencyMs).toBeLessThan(MAX_HEARTBEAT_MS);
  });

  it('ends a request\'s wait for the insert budget when it is cancelled, and leaves the budget as it was', async () => {
    const service = makeService({ maxSamplesInFlight: NUM_USES * CLIP_SAMPLES }, 20); // room for one such request
    const body = `Hi ${'<audio src="clip-1.wav"/>'.repeat(NUM_USES)}`;
    const holder = synthesize(service, ssml(body, 'a'));
    const waiter = ssml(body, 'b');
    const waiting = synthesize(service, waiter).then(() => null, (e: StudioError) => e);
    for (let i = 0; i < 1000 && service.inserts.usage().numWaiting === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(service.inserts.usage().numWaiting).toBe(1); // b waits while a holds the whole budget
    expect(await service.call('cancel', { requestId: waiter.requestId })).toEqual({ cancelled: true });
    expect((await waiting)?.code).toBe('cancelled');
    expect(service.inserts.usage().numWaiting).toBe(0);
    await holder;
    expect(service.inserts.usage().numSamplesHeld).toBe(0);
  });

  it('refuses a document with nothing to speak at once instead of never answering it', async () => {
    const service = makeService();
    const err = await synthesize(service, ssml('<audio src="clip-1.wav"/>')).then(() => null, (e: StudioError) => e);
    expect(err?.code).toBe('invalid-argument');
    expect(err?.message).toMatch(/^the SSML document has no text to speak/);
  });

  it('counts each of the 42 copies against the request\'s decoded-size bound', async () => {
    const service = makeService({ maxDecodedSamples: 100_000 }); // 41 copies fit, 42 do not
    const err = await synthesize(service, ssml(`Hi ${'<audio src="clip-1.wav"/>'.repeat(NUM_USES)}`)).then(() => null, (e: StudioError) => e);
    expect(err?.code).toBe('input-too-long');
    expect(err?.details).toMatchObject({ numDecodedSamples: NUM_USES * CLIP_SAMPLES, numUses: NUM_USES });
    expect(err?.message).toMatch(/\(0\.0 min; 2,400 frames at 24,000 Hz in the file, inserted 42 times\), but the <audio> files of one request may decode to at most 100,000 samples/);
    expect(service.inserts.usage().numDecodes).toBe(0); // refused by the header, before a decode
  });
});
