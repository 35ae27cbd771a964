/**
 * One voice lookup per HTTP request: a request that names a saved voice, a model speaker, or a
 * speaker with an SSML document naming a saved voice reads the voice library once (the lookup's read
 * goes on to the services, which attach the saved voices from it), and the engine host gets the
 * saved voice's id with its conditioning. The count is of VoiceStore.list, the library's one read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelInfo, SynthesisRequest, SynthesisResult } from '../../../src-shared/synthesis';
import { FakeHostProcess } from '../../engine-client/testing/fake-host-process';
import { VoiceStore } from '../../library/voice-store';
import { startHeadlessServer, type HeadlessServer } from '../headless-server';
import { fakeHostServers } from '../testing/fake-host-servers';
import { postJson } from '../testing/serve-tiny';

const servers = fakeHostServers('studio-voice-lookup-');
let server: HeadlessServer | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = null;
});

const BASE = { id: 'base-model', kind: 'base', size: '0.6B' } as ModelInfo;
const made = async () => ({ prompt: { mode: 'xvector' as const, embedding: [0.5, 0.25] }, durationMs: 5000, warnings: [] });

function result(requestId: string): SynthesisResult {
  const pcm = new Float32Array(2400);
  return {
    requestId, sampleRateHz: 24000, numSamples: pcm.length, pcm, warnings: [], truncated: false, modelHash: 'fake', marks: [], trace: null,
    timings: { numPromptTokens: 3, numFrames: 1, queueWaitMs: 0, latencyFirstAudioMs: 1, latencyTotalMs: 1, audioDurationMs: 100, rtf: 0.01 },
    effectiveParams: {} as SynthesisResult['effectiveParams'],
    turnSpans: [{ turnIndex: 0, startSample: 0, endSample: pcm.length }],
  };
}

/** A server over a fake host whose model speaks ryan; every synthesize call it gets is kept. */
async function start() {
  const calls: SynthesisRequest[] = [];
  const handlers = {
    status: () => ({ state: 'ready', numWaiting: 0 }),
    modelInfo: () => null,
    listVoices: () => [{ name: 'ryan' }],
    synthesize: (args: unknown) => {
      calls.push(args as SynthesisRequest);
      return result((args as SynthesisRequest).requestId);
    },
  };
  const stack = servers.stack({ spawnHost: () => new FakeHostProcess(1, handlers) });
  await stack.host.start();
  server = await startHeadlessServer({ stack, port: 0, hostname: '127.0.0.1', rendererDir: null, log: () => {} });
  return { stack, server, calls };
}

describe('the HTTP voice lookup', () => {
  it('reads the voice library once per request, and the engine host gets what that read found', async () => {
    const { stack, server, calls } = await start();
    const reads = vi.spyOn(VoiceStore.prototype, 'list');
    const saved = await stack.services.voiceLibrary().clone({ name: 'Anna', audio: Uint8Array.of(1, 2, 3), originalName: 'a.wav' }, BASE, made);

    const cases: { path: string; body: Record<string, unknown>; voice: string; savedIds: string[] }[] = [
      { path: '/api/v1/tts', body: { text: 'Hello.', voice: 'anna' }, voice: saved.id, savedIds: [saved.id] },
      { path: '/v1/audio/speech', body: { input: 'Hello.', voice: 'Anna', response_format: 'wav' }, voice: saved.id, savedIds: [saved.id] },
      { path: '/api/v1/tts', body: { text: 'Hello.', voice: 'ryan' }, voice: 'ryan', savedIds: [] },
      { path: '/api/v1/tts', body: { ssml: '<speak>Hi. <voice name="Anna">Hello.</voice></speak>', voice: 'alloy' }, voice: 'ryan', savedIds: [saved.id] },
    ];
    for (const c of cases) {
      reads.mockClear();
      const res = await postJson(`${server.url}${c.path}`, c.body, { authorization: `Bearer ${server.token}` });
      expect(res.status, JSON.stringify(c.body)).toBe(200);
      expect(reads, `library reads for ${JSON.stringify(c.body)}`).toHaveBeenCalledTimes(1);
      const sent = calls.at(-1)!;
      expect(sent.voice).toBe(c.voice);
      expect((sent.savedVoices ?? []).map((v) => v.id)).toEqual(c.savedIds);
    }
    expect(calls).toHaveLength(cases.length);
  });
});
