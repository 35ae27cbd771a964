/**
 * The studio contract in memory: a fake renderer calls a fake main (dispatcher + services over a
 * fake engine host). Covers call success, the typed error round trip, unknown channels, malformed
 * payloads, cancellation and the order of streamed events.
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS, EVENTS, type StudioBridge } from '../../src-shared/ipc-contract';
import { StudioError } from '../../src-shared/errors';
import type { AudioChunk, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { NewClip } from '../../src-shared/contract/library';
import { Dispatcher } from './dispatcher';
import { StudioServices } from '../services/studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { createInMemoryBridge } from './testing/in-memory-bridge';

/** A fake engine host: synthesize emits 3 chunks a tick apart, then resolves unless cancelled. */
function createFakeHost() {
  const listeners = new Set<(e: string, p: unknown) => void>();
  const cancelled = new Set<string>();
  const emit = (e: string, p: unknown) => listeners.forEach((l) => l(e, p));
  const host: EngineHostApi = {
    onEvent: (l) => (listeners.add(l), () => listeners.delete(l)),
    call: (async (method: string, args: unknown) => {
      switch (method) {
        case 'synthesize': {
          const req = args as SynthesisRequest;
          if (req.voice === 'nobody') throw new StudioError('invalid-argument', "unknown voice 'nobody'; valid voices: ryan, serena", { field: 'voice', allowed: ['ryan', 'serena'] });
          for (let i = 0; i < 3; i++) {
            await new Promise((r) => setTimeout(r, 5));
            if (cancelled.has(req.requestId)) throw new StudioError('cancelled', 'cancelled by the user');
            emit(EVENTS.onDidProduceAudio, { requestId: req.requestId, turnIndex: 0, startSample: i * 4, sampleRateHz: 24000, pcm: new Float32Array([i, i, i, i]) } satisfies AudioChunk);
          }
          const pcm = new Float32Array(12);
          emit(EVENTS.onDidFinish, { status: 'done', result: { requestId: req.requestId } });
          return { requestId: req.requestId, sampleRateHz: 24000, numSamples: 12, pcm } as unknown as SynthesisResult;
        }
        case 'cancel':
          cancelled.add((args as { requestId: string }).requestId);
          return { cancelled: true };
        default:
          throw new StudioError('unsupported', `fake host has no ${method}`);
      }
    }) as EngineHostApi['call'],
  };
  return { host, emitStatus: (p: unknown) => emit(EVENTS.onDidChangeEngineStatus, p) };
}

function setup(): { bridge: StudioBridge; warnings: string[]; fake: ReturnType<typeof createFakeHost>; other: StudioBridge; remote: StudioBridge } {
  const fake = createFakeHost();
  const services = new StudioServices({
    host: fake.host,
    appInfo: () => ({ version: 't', hostKind: 'headless', platform: 'linux', userDataDir: '/tmp', syntheticModel: true }),
  });
  const warnings: string[] = [];
  const dispatcher = new Dispatcher(services.handlers, { warn: (m) => warnings.push(m) });
  return {
    bridge: createInMemoryBridge(dispatcher, services),
    warnings,
    fake,
    other: createInMemoryBridge(dispatcher, services, 'other-window'),
    remote: createInMemoryBridge(dispatcher, services, 'remote-socket', 'client'),
  };
}

const request = (over: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  requestId: 'r1',
  input: 'hello',
  inputFormat: 'text',
  voice: 'ryan',
  language: 'english',
  seed: 42,
  ...over,
});

describe('studio contract in memory', () => {
  it('answers a call with its typed value', async () => {
    const { bridge } = setup();
    const reply = await bridge.invoke(CHANNELS.ping, { message: 'hi' });
    expect(reply.ok).toBe(true);
    if (reply.ok) expect(reply.value.message).toBe('hi');
  });

  it('carries a typed error back with its code, message and details', async () => {
    const { bridge } = setup();
    const reply = await bridge.invoke(CHANNELS.synthesize, request({ voice: 'nobody' }));
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      const err = StudioError.fromSerialized(reply.error);
      expect(err).toBeInstanceOf(StudioError);
      expect(err.code).toBe('invalid-argument');
      expect(err.details.allowed).toEqual(['ryan', 'serena']);
    }
  });

  it('rejects an unknown channel with a typed error and logs it', async () => {
    const { bridge, warnings } = setup();
    const reply = await bridge.invoke('studio:evil.rmrf' as never, {} as never);
    expect(reply).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(warnings.join('\n')).toContain('studio:evil.rmrf');
  });

  it('rejects a malformed payload naming the bad field, without calling the service', async () => {
    const { bridge, warnings } = setup();
    const reply = await bridge.invoke(CHANNELS.synthesize, { ...request(), seed: 'forty-two' } as never);
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('invalid-argument');
      expect(reply.error.message).toContain('seed');
    }
    const extra = await bridge.invoke(CHANNELS.synthesize, { ...request(), evil: true } as never);
    expect(extra.ok).toBe(false);
    expect(warnings).toHaveLength(2);
  });

  it('refuses PCM with NaN or infinite samples for the library, naming the field', async () => {
    const { bridge } = setup();
    const clip: NewClip = {
      title: 'x', input: 'x', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1, instruct: null, modelHash: 'm', sampleRateHz: 24_000, turnSpans: [],
      params: { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 },
      timings: { numPromptTokens: 1, numFrames: 1, queueWaitMs: 0, latencyFirstAudioMs: 1, latencyTotalMs: 1, audioDurationMs: 1, rtf: 1 },
    };
    for (const bad of [NaN, Infinity]) {
      const reply = await bridge.invoke(CHANNELS.saveClip, { clip, pcm: Float32Array.from([0, bad, 0]) });
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(reply.error.message).toMatch(/pcm: has NaN or infinite samples; send finite PCM/);
    }
  });

  it('delivers audio events in order, all before the call resolves, with PCM intact', async () => {
    const { bridge } = setup();
    const seen: string[] = [];
    bridge.on(EVENTS.onDidProduceAudio, (c) => seen.push(`audio:${c.startSample}:${c.pcm[0]}`));
    bridge.on(EVENTS.onDidFinish, () => seen.push('finish'));
    const reply = await bridge.invoke(CHANNELS.synthesize, request());
    await new Promise((r) => setTimeout(r, 0));
    seen.push('resolved');
    expect(reply.ok).toBe(true);
    if (reply.ok) expect(reply.value.pcm).toBeInstanceOf(Float32Array);
    expect(seen).toEqual(['audio:0:0', 'audio:4:1', 'audio:8:2', 'finish', 'resolved']);
  });

  it('cancels an in-flight request: the call ends with a cancelled error and no further audio', async () => {
    const { bridge } = setup();
    const chunks: number[] = [];
    bridge.on(EVENTS.onDidProduceAudio, (c) => chunks.push(c.startSample));
    const pending = bridge.invoke(CHANNELS.synthesize, request({ requestId: 'c1' }));
    await new Promise((r) => setTimeout(r, 7));
    const cancel = await bridge.invoke(CHANNELS.cancel, { requestId: 'c1' });
    expect(cancel).toEqual({ ok: true, value: { cancelled: true } });
    const reply = await pending;
    expect(reply).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(chunks.length).toBeLessThan(3);
  });

  it('broadcasts engine status events to every attached caller', async () => {
    const { bridge, fake } = setup();
    const states: string[] = [];
    bridge.on(EVENTS.onDidChangeEngineStatus, (s) => states.push(s.state));
    fake.emitStatus({ state: 'ready' });
    fake.emitStatus({ state: 'draining' });
    await new Promise((r) => setTimeout(r, 0));
    expect(states).toEqual(['ready', 'draining']);
  });

  it("ignores a cancel of another caller's request id", async () => {
    const { bridge, other } = setup();
    const pending = bridge.invoke(CHANNELS.synthesize, request({ requestId: 'mine' }));
    await new Promise((r) => setTimeout(r, 2));
    expect(await other.invoke(CHANNELS.cancel, { requestId: 'mine' })).toEqual({ ok: true, value: { cancelled: false } });
    expect((await pending).ok).toBe(true);
  });

  it('refuses admin channels to a client session, before validating or running them', async () => {
    const { remote, warnings } = setup();
    for (const [channel, payload] of [
      [CHANNELS.loadModel, { modelId: 'embedded:tiny' }],
      [CHANNELS.pullModel, { modelId: 'Qwen/x' }],
      [CHANNELS.removeModel, { modelId: 'x' }],
      [CHANNELS.startRun, {}],
      [CHANNELS.stopRun, { runId: 'r' }],
    ] as const) {
      const reply = await remote.invoke(channel, payload as never);
      expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(warnings.filter((w) => w.includes('refused admin call'))).toHaveLength(5);
    // The public contract still works for the same caller.
    expect((await remote.invoke(CHANNELS.ping, { message: 'x' })).ok).toBe(true);
  });
});
