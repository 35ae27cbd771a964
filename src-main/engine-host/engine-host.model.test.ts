/**
 * The real engine host process (Node child, tiny synthetic model on CPU) under the studio runtime:
 * a request runs out of process and comes back byte-identical across processes; killing the host
 * mid-request fails that request with 'engine-crashed', the caller hears about the restart, the
 * host comes back, and the same request then gives the same bytes again. Nothing hangs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createStudioRuntime, type StudioRuntime } from '../runtime/studio-runtime';
import { ensureTinyModel } from '../model-builder/tiny-model';

const MAX_HOST_START_MS = 90_000;
let runtime: StudioRuntime;
const statusEvents: EngineStatus[] = [];
const audioEvents: string[] = [];

const request = (requestId: string, input: string): SynthesisRequest => ({ requestId, input, inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, stream: true });
const sha = (pcm: Float32Array) => createHash('sha256').update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex');

async function synth(req: SynthesisRequest): Promise<SynthesisResult> {
  const ctx = { callerId: 'test', emit: (event: string, payload: unknown) => (event === EVENTS.onDidProduceAudio ? audioEvents.push((payload as { requestId: string }).requestId) : undefined) };
  const reply = await runtime.dispatcher.dispatch('studio:tts.synthesize', req, ctx);
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
  return reply.value as SynthesisResult;
}

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  runtime = createStudioRuntime({ hostKind: 'headless', version: 'test', model: builtDir, userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-host-')), log: () => {} });
  runtime.services.attach({ callerId: 'watcher', emit: (event, payload) => (event === EVENTS.onDidChangeEngineStatus ? statusEvents.push(payload as EngineStatus) : undefined) });
  await runtime.host.start();
}, MAX_HOST_START_MS);

afterAll(async () => {
  await runtime?.dispose();
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

  it('fails the in-flight request with engine-crashed when the host is killed, restarts, and reproduces the same bytes', async () => {
    const before = await synth(request('golden-1', 'The same sentence every time.'));
    const pid = runtime.host.pid!;
    const inFlight = synth(request('doomed', 'This request is running when its process is killed, so it must fail and not hang.'));
    while (!audioEvents.includes('doomed')) await new Promise((r) => setTimeout(r, 5));
    process.kill(pid, 'SIGKILL');
    const err = (await inFlight.catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('engine-crashed');
    expect(err.message).toMatch(/in flight/);
    expect(statusEvents.map((s) => s.state)).toContain('restarting');
    await runtime.host.whenReady();
    expect(runtime.host.pid).not.toBe(pid);
    const status = await runtime.host.call('status', {});
    expect(status.numRestarts).toBe(1);
    const after = await synth(request('golden-2', 'The same sentence every time.'));
    expect(sha(after.pcm)).toBe(sha(before.pcm));
  }, 120_000);
});
