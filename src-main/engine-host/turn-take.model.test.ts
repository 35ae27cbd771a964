// A new take of one turn through the real engine host (tiny synthetic model on CPU): the engine
// runs exactly one sequence for it (numCompleted rises by 1, not by the document's 3 turns), and
// the take is that turn's audio alone, the same length as the turn in the full document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { ensureTinyModel } from '../model-builder/tiny-model';

let stack: StudioStack;
const DOC = `<speak><voice name="ryan">First turn here.</voice><break time="150ms"/><voice name="vivian"><prosody rate="90%">The second turn.</prosody></voice><break time="150ms"/><voice name="aiden">Third.</voice></speak>`;
const request = (requestId: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ requestId, input: DOC, inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 7, params: { doSample: false, subtalkerDoSample: false }, ...extra });

async function call<T>(channel: string, req: unknown): Promise<T> {
  const reply = await stack.dispatcher.dispatch(channel, req, { callerId: 'test', role: 'client', emit: () => {} });
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
  return reply.value as T;
}

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  stack = createStudioStack({ hostKind: 'headless', version: 'test', model: builtDir, userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-take-')), log: () => {} });
  await stack.host.start();
}, 90_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('regenerating one turn', () => {
  it('runs one engine sequence and returns that turn alone', async () => {
    const full = await call<SynthesisResult>('studio:tts.synthesize', request('full'));
    expect(full.turnSpans).toHaveLength(3);
    const before = await call<EngineStatus>('studio:engine.status', {});
    const take = await call<SynthesisResult>('studio:tts.synthesize', request('take', { turnIndex: 1 }));
    const after = await call<EngineStatus>('studio:engine.status', {});
    expect(after.numCompleted - before.numCompleted).toBe(1);
    expect(take.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: take.numSamples }]);
    expect(take.effectiveParams.voice).toBe('vivian');
    // Greedy decoding: the same turn gives the same number of samples alone as inside the document.
    const inDoc = full.turnSpans[1];
    expect(take.numSamples).toBe(inDoc.endSample - inDoc.startSample);
  }, 120_000);
});
