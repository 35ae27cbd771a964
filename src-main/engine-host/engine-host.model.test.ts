/**
 * The real engine host process (Node child, tiny synthetic model on CPU) under the studio stack:
 * a request runs out of process and comes back byte-identical across processes; killing the host
 * mid-request fails that request with 'engine-crashed', the caller hears about the restart, the
 * host comes back, and the same request then gives the same bytes again. Nothing hangs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { encodeWav } from '../audio/wav';
import { refusalWarning, AUDIO_INSERT_MAX_BYTES } from './audio-inserts';

const MAX_HOST_START_MS = 90_000;
let stack: StudioStack;
let dataDir: string;
const statusEvents: EngineStatus[] = [];
const audioEvents: string[] = [];

const request = (requestId: string, input: string): SynthesisRequest => ({ requestId, input, inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, stream: true });
const sha = (pcm: Float32Array) => createHash('sha256').update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex');

async function synth(req: SynthesisRequest): Promise<SynthesisResult> {
  const ctx = { callerId: 'test', role: 'client' as const, emit: (event: string, payload: unknown) => (event === EVENTS.onDidProduceAudio ? audioEvents.push((payload as { requestId: string }).requestId) : undefined) };
  const reply = await stack.dispatcher.dispatch('studio:tts.synthesize', req, ctx);
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
  return reply.value as SynthesisResult;
}

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-host-'));
  // <data>/imports is one of the default <audio> roots (paths.ts defaultAudioInsertRoots)
  mkdirSync(path.join(dataDir, 'imports'));
  writeFileSync(path.join(dataDir, 'imports', 'ding.wav'), encodeWav(new Float32Array(4800).fill(0.1), 24000, 'pcm16'));
  stack = createStudioStack({ hostKind: 'headless', version: 'test', model: builtDir, userDataDir: dataDir, log: () => {} });
  stack.services.attach({ callerId: 'watcher', role: 'client', emit: (event, payload) => (event === EVENTS.onDidChangeEngineStatus ? statusEvents.push(payload as EngineStatus) : undefined) });
  await stack.host.start();
}, MAX_HOST_START_MS);

afterAll(async () => {
  await stack?.dispose();
});

describe('engine host process', () => {
  it('synthesises out of process, streaming chunks before the result, with timings that add up', async () => {
    const result = await synth(request('alone', 'A short line.'));
    expect(result.sampleRateHz).toBe(24000);
    // one frame is 1920 samples at 24 kHz (80 ms)
    expect(result.numSamples).toBe(result.timings.numFrames * 1920);
    expect(result.timings.latencyFirstAudioMs).toBeLessThanOrEqual(result.timings.latencyTotalMs);
    expect(audioEvents.filter((id) => id === 'alone').length).toBeGreaterThan(0);
  });

  it('runs SSML turns as separate sequences and joins them with breaks, marks, prosody and loudness', async () => {
    const ssml = `<speak><voice name="ryan"><prosody rate="1.1" pitch="+2st">First turn.</prosody></voice><break time="120ms"/><mark name="two"/><voice name="serena"><prosody volume="-3dB">Second turn.</prosody></voice></speak>`;
    const result = await synth({ ...request('ssml', ssml), inputFormat: 'ssml' });
    expect(result.turnSpans).toHaveLength(2);
    const [a, b] = result.turnSpans;
    // 120 ms at 24 kHz = 2880 samples of silence between the turns
    expect(b.startSample - a.endSample).toBe(2880);
    expect(result.marks).toEqual([{ name: 'two', timeMs: expect.closeTo((b.startSample * 1000) / 24000, 0) }]);
    expect(result.trace?.turns.map((t) => [t.voice, t.rate, t.pitchSemitones])).toEqual([
      ['ryan', 1.1, 2],
      ['serena', 1, 0],
    ]);
    expect(result.trace?.loudnessFinalLufs).toBeCloseTo(-16, 0);
  });

  it('inserts <audio> from the imports folder and refuses /dev/zero and paths outside it with one warning', async () => {
    const ssml = `<speak>One.<audio src="ding.wav"/><audio src="/dev/zero"/><audio src="${path.join(dataDir, 'cache')}"/>Two.</speak>`;
    const result = await synth({ ...request('inserts', ssml), inputFormat: 'ssml' });
    // one voice: one turn of two parts, with 4,800 samples of ding (200 ms at 24 kHz) between them inside its span, less the crossfades
    expect(result.turnSpans).toHaveLength(1);
    const [span] = result.turnSpans;
    const partsMs = result.trace!.turns.reduce((ms, t) => ms + t.durationMs, 0);
    expect(span.endSample - span.startSample - (partsMs * 24000) / 1000).toBeGreaterThan(4000);
    const policy = { maxBytes: AUDIO_INSERT_MAX_BYTES };
    expect(result.warnings.filter((w) => w.startsWith('<audio'))).toEqual([refusalWarning('/dev/zero', policy), refusalWarning(path.join(dataDir, 'cache'), policy)]);
  });

  it('reports an SSML error with its position and the valid values, without touching the engine', async () => {
    const err = (await synth({ ...request('bad-ssml', '<speak>\n  <prosody rate="fast-ish">x</prosody></speak>'), inputFormat: 'ssml' }).catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('ssml-invalid');
    expect(err.message).toMatch(/SSML 2:\d+/); // line 2 of the document
    expect(err.message).toMatch(/x-slow/);
  });

  it('fails the in-flight request with engine-crashed when the host is killed, restarts, and reproduces the same bytes', async () => {
    const before = await synth(request('golden-1', 'The same sentence every time.'));
    const pid = stack.host.pid!;
    const inFlight = synth(request('doomed', 'This request is running when its process is killed, so it must fail and not hang.'));
    while (!audioEvents.includes('doomed')) await new Promise((r) => setTimeout(r, 5));
    process.kill(pid, 'SIGKILL');
    const err = (await inFlight.catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('engine-crashed');
    expect(err.message).toMatch(/in flight/);
    expect(statusEvents.map((s) => s.state)).toContain('restarting');
    await stack.host.whenReady();
    expect(stack.host.pid).not.toBe(pid);
    const status = await stack.host.call('status', {});
    expect(status.numRestarts).toBe(1);
    // the supervisor's counters span both processes: the doomed request counts as crashed
    expect(stack.host.requestCounters()).toMatchObject({ numCrashed: 1, numRestarts: 1, numInFlight: 0 });
    expect(stack.host.health()).toMatchObject({ ready: true });
    const after = await synth(request('golden-2', 'The same sentence every time.'));
    expect(sha(after.pcm)).toBe(sha(before.pcm));
  }, 120_000);

  it('switches to another model on request, refuses an unknown one, and keeps serving', async () => {
    const unknown = await stack.dispatcher.dispatch('studio:engine.loadModel', { modelId: 'nobody/no-such-model' }, { callerId: 't', role: 'admin', emit: () => {} });
    expect(unknown.ok).toBe(false);
    const before = await synth(request('pre-switch', 'Still here.'));
    const reply = await stack.dispatcher.dispatch('studio:engine.loadModel', { modelId: 'embedded:tiny' }, { callerId: 't', role: 'admin', emit: () => {} });
    expect(reply).toMatchObject({ ok: true, value: { id: 'embedded:tiny', synthetic: true } });
    // the embedded model is the same synthetic checkpoint (seed 1) as the test fixture: same bytes
    const after = await synth(request('post-switch', 'Still here.'));
    expect(sha(after.pcm)).toBe(sha(before.pcm));
  }, 120_000);
});
