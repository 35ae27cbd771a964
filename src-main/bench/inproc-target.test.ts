// Tests for the inproc target adapter over a fake engine client (shared SynthesisRequest/EngineStatus types).
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { EngineStatus, SynthesisRequest } from '../../src-shared/synthesis';
import { createInprocTarget, type InprocEngineClient } from './inproc-target';

function fakeClient(behaviour: (req: SynthesisRequest) => void): InprocEngineClient & { requests: SynthesisRequest[] } {
  const requests: SynthesisRequest[] = [];
  return {
    requests,
    async synthesize(request) {
      requests.push(request);
      behaviour(request);
      const timings = { numPromptTokens: 3, numFrames: 10, queueWaitMs: 5, latencyFirstAudioMs: 42, latencyTotalMs: 100, audioDurationMs: 800, rtf: 0.125 };
      return { wav: new Uint8Array([1, 2, 3]), timings } as never;
    },
    async status() {
      return { engineVersion: '0.1.0+graphs.3', provider: 'cpu', queueDepth: 3, numWaiting: 2, numRunning: 1, model: { modelHash: 'h1' } } as EngineStatus;
    },
  };
}

describe('createInprocTarget', () => {
  it('maps SSML and text requests onto the shared SynthesisRequest', async () => {
    const client = fakeClient(() => {});
    const target = createInprocTarget(client);
    const res = await target.synthesize({ ssml: '<speak/>', voice: 'ryan', seed: 42, stream: true }, new AbortController().signal);
    const plain = await target.synthesize({ text: 'hi', voice: 'ryan', seed: 42, language: 'english', stream: false }, new AbortController().signal);
    expect(client.requests[0]).toMatchObject({ input: '<speak/>', inputFormat: 'ssml', voice: 'ryan', language: 'auto', seed: 42, stream: true });
    expect(client.requests[1]).toMatchObject({ input: 'hi', inputFormat: 'text', language: 'english', stream: false });
    expect(client.requests[0].requestId).not.toBe(client.requests[1].requestId);
    expect(res).toEqual({ bytes: new Uint8Array([1, 2, 3]), firstByteMs: 42, status: 200, audioDurationMs: 800 });
    // first audio comes from the engine host for a request that does not stream too
    expect(plain.firstByteMs).toBe(42);
  });

  it('turns busy into 429 and timeout into 504 so both targets count alike', async () => {
    const busy = createInprocTarget(fakeClient(() => {
      throw new StudioError('busy', 'queue full');
    }));
    expect((await busy.synthesize({ text: 'a', voice: 'v', seed: 1, stream: false }, new AbortController().signal)).status).toBe(429);
    const slow = createInprocTarget(fakeClient(() => {
      throw new StudioError('timeout', 'deadline');
    }));
    expect((await slow.synthesize({ text: 'a', voice: 'v', seed: 1, stream: false }, new AbortController().signal)).status).toBe(504);
  });

  it('reports queue state and provider from the engine status', async () => {
    const target = createInprocTarget(fakeClient(() => {}));
    expect(await target.status?.()).toEqual({ queueDepth: 3, numWaiting: 2, numRunning: 1 });
    // a status without a plan (an engine over fake stages) describes none
    expect(await target.describe?.()).toEqual({ engineVersion: '0.1.0+graphs.3', provider: 'cpu', modelHash: 'h1', plan: null });
  });
});
