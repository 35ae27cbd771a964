/**
 * Tuning a few words does not split a dialogue turn: a 3-speaker dialogue with prosody on some
 * words of turn 2 and a break inside turn 3 is still 3 turns for the editor's check, the result's
 * turnSpans and trace, and the streamed progress and audio events; regenerating turn 2 remakes all
 * of its parts (each tuned stretch stays its own engine sequence). Fake model stages, no ORT.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { AudioChunk, SynthesisProgress, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { Engine } from '../engine/engine';
import { resolveEngineConfig } from '../engine/engine-config';
import { fakeManifest, fakeStages, fakeTokenizer } from '../engine/testing/fake-stages';
import { resolveSchedulerConfig } from '../scheduler/batch-policy';
import { validateWithStudioParser } from '../services/project-service';
import { defaultAudioInsertPolicy } from './audio-inserts';
import { HostedSynthesis } from './synthesis-service';

// Parts: ryan "Good morning." | dylan "I am" · "really" (rate 1.2, +2 st) · "glad." | ryan "See you" · break · "later."
const DIALOGUE = `<speak>
  <voice name="ryan">Good morning.</voice>
  <voice name="dylan">I am <prosody rate="120%" pitch="+2st">really</prosody> glad.</voice>
  <voice name="ryan">See you <break time="200ms"/> later.</voice>
</speak>`;

const services: HostedSynthesis[] = [];
afterAll(async () => {
  for (const s of services) await s.dispose();
});

function makeService() {
  const events: { event: string; payload: unknown }[] = [];
  const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages: fakeStages(), config: resolveEngineConfig({ provider: 'cpu' }), provider: { name: 'cpu', reason: 'test' }, scheduler: resolveSchedulerConfig({ maxRunningSequences: 8 }) });
  const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, (event, payload) => events.push({ event, payload }), {
    audioInserts: defaultAudioInsertPolicy([], 24000),
    log: () => {},
  });
  services.push(service);
  return { service, engine, events };
}

// Greedy decoding: a part gives the same samples whether it is made in the document or in a take.
const request = (requestId: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  requestId, input: DIALOGUE, inputFormat: 'ssml', voice: 'ryan', language: 'english', seed: 3, stream: true, params: { doSample: false, subtalkerDoSample: false }, ...extra,
});
const synthesize = (service: HostedSynthesis, req: SynthesisRequest) => service.call('synthesize', req) as Promise<SynthesisResult>;

describe('a dialogue with tuned words', () => {
  it('counts its 3 dialogue turns in the editor’s check, not its 6 parts', () => {
    expect(validateWithStudioParser(DIALOGUE, { knownVoices: ['ryan', 'dylan'] })).toMatchObject({ ok: true, numTurns: 3 });
  });

  it('routes each part by its request and index (an id with #turn in it is just an id), and holds no part once answered', async () => {
    const { service, events } = makeService();
    const result = await synthesize(service, request('take#turn9'));
    expect(result.requestId).toBe('take#turn9');
    expect(result.turnSpans.map((s) => s.turnIndex)).toEqual([0, 1, 2]);
    const chunks = events.filter((e) => e.event === EVENTS.onDidProduceAudio).map((e) => e.payload as AudioChunk);
    expect(chunks.length).toBeGreaterThan(0);
    expect(new Set(chunks.map((c) => c.requestId))).toEqual(new Set(['take#turn9']));
    // 6 parts were routed (id → request, part index) and each entry left with its part's outcome
    expect((service as unknown as { parts: Map<string, unknown> }).parts.size).toBe(0);
  });

  it('reports 3 turn spans, a trace that lists each turn’s parts, and events keyed by dialogue turn', async () => {
    const { service, engine, events } = makeService();
    const result = await synthesize(service, request('full'));
    expect(engine.status().numCompleted).toBe(6); // one engine sequence per part
    expect(result.turnSpans.map((s) => s.turnIndex)).toEqual([0, 1, 2]);
    for (const [a, b] of [[0, 1], [1, 2]]) expect(result.turnSpans[b].startSample).toBeGreaterThanOrEqual(result.turnSpans[a].endSample - 1000);
    expect(result.turnSpans[2].endSample).toBe(result.numSamples);
    expect(result.trace?.turns.map((t) => [t.turnIndex, t.partIndex, t.voice, t.rate])).toEqual([
      [0, 0, 'ryan', 1],
      [1, 0, 'dylan', 1],
      [1, 1, 'dylan', 1.2],
      [1, 2, 'dylan', 1],
      [2, 0, 'ryan', 1],
      [2, 1, 'ryan', 1],
    ]);
    expect(result.trace?.turns[5].breakBeforeMs).toBe(200); // the break inside turn 3, inside its span
    const progress = events.filter((e) => e.event === EVENTS.onDidProgress).map((e) => e.payload as SynthesisProgress);
    expect(new Set(progress.map((p) => p.turnIndex))).toEqual(new Set([0, 1, 2]));
    // The streamed audio of each dialogue turn is contiguous from sample 0: its parts one after another.
    const chunks = events.filter((e) => e.event === EVENTS.onDidProduceAudio).map((e) => e.payload as AudioChunk);
    expect(new Set(chunks.map((c) => c.turnIndex))).toEqual(new Set([0, 1, 2]));
    for (const turnIndex of [0, 1, 2]) {
      let next = 0;
      for (const c of chunks.filter((k) => k.turnIndex === turnIndex)) {
        expect(c.startSample).toBe(next);
        next += c.pcm.length;
      }
    }
  });

  it('remakes every part of turn 2 for a new take of it, as one turn the length of its span', async () => {
    const { service, engine } = makeService();
    const full = await synthesize(service, request('doc'));
    const before = engine.status().numCompleted;
    const take = await synthesize(service, request('take', { turnIndex: 1 }));
    expect(engine.status().numCompleted - before).toBe(3); // "I am", "really", "glad."
    expect(take.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: take.numSamples }]);
    expect(take.trace?.turns.map((t) => [t.turnIndex, t.partIndex, t.rate, t.pitchSemitones])).toEqual([
      [0, 0, 1, 0],
      [0, 1, 1.2, 2],
      [0, 2, 1, 0],
    ]);
    expect(take.effectiveParams.voice).toBe('dylan');
    const inDoc = full.turnSpans[1];
    expect(take.numSamples).toBe(inDoc.endSample - inDoc.startSample);
  });

  it('refuses a turn index past the dialogue turns, counting those', async () => {
    const { service } = makeService();
    await expect(synthesize(service, request('late', { turnIndex: 3 }))).rejects.toThrow(/not a turn of this document \(it has 3\)/);
  });
});
