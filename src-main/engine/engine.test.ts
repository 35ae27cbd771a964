// The engine loop over pure-TS fake stages: results, timings, EOS and the runaway cap, streaming
// chunks that add up to the result, cancel, batch invariance of the loop logic, and bad input;
// the scheduler owns the queue: the engine submits to it and runs the batches it picks.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { STUDIO_VERSION } from '../../src-shared/version';
import type { AudioChunk, SynthesisOutcome, SynthesisRequest } from '../../src-shared/synthesis';
import { resolveSchedulerConfig, type SchedulerLimits } from '../scheduler/batch-policy';
import { Engine } from './engine';
import { resolveEngineConfig } from './engine-config';
import { synthesize } from './synthesize';
import { FAKE_SAMPLES_PER_FRAME, fakeManifest, fakeStages, fakeTokenizer } from './testing/fake-stages';

function makeEngine(overrides: Record<string, unknown> = {}, scheduler?: Readonly<SchedulerLimits>) {
  let clockMs = 0;
  const clock = { nowMs: () => clockMs };
  const stages = fakeStages();
  const engine = new Engine({
    manifest: fakeManifest(),
    tokenizer: fakeTokenizer(),
    stages,
    config: resolveEngineConfig({ provider: 'cpu', ...overrides }),
    provider: { name: 'cpu', reason: 'test' },
    nowMs: () => (clockMs += 10), // every clock read advances 10 ms
    ...(scheduler ? { scheduler } : {}),
  });
  return { engine, stages, clock };
}

const request = (requestId: string, input: string, seed: number, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  requestId, input, inputFormat: 'text', voice: 'ryan', language: 'english', seed, ...extra,
});

async function runAll(engine: Engine, requests: SynthesisRequest[]) {
  const outcomes = new Map<string, SynthesisOutcome>();
  const chunks = new Map<string, AudioChunk[]>();
  engine.onDidFinish((o) => outcomes.set(o.status === 'done' ? o.result.requestId : o.requestId, o));
  engine.onDidProduceAudio((c) => chunks.set(c.requestId, [...(chunks.get(c.requestId) ?? []), c]));
  for (const r of requests) engine.addRequest(r);
  await engine.run();
  return { outcomes, chunks };
}

function done(o: SynthesisOutcome | undefined) {
  if (!o || o.status !== 'done') throw new Error(`expected done, got ${JSON.stringify(o)}`);
  return o.result;
}

describe('engine loop (fake stages)', () => {
  it('produces a result whose counters add up', async () => {
    const { engine } = makeEngine();
    const result = await synthesize(engine, request('a', 'hello there', 7));
    expect(result.numSamples).toBe(result.timings.numFrames * FAKE_SAMPLES_PER_FRAME);
    // prompt = 3 role-ish rows from the char tokenizer: "assistant\n" is 10 chars → 1 + 10 rows,
    // + 5 think/speaker + tts_bos + N text + tts_eos + codec_bos; N = 11 chars
    expect(result.timings.numPromptTokens).toBe(1 + 10 + 5 + 1 + 11 + 2);
    expect(result.timings.numFrames).toBeGreaterThanOrEqual(2); // EOS blocked for 2 frames
    expect(result.timings.latencyTotalMs).toBeGreaterThan(result.timings.latencyFirstAudioMs);
    expect(result.timings.rtf).toBeCloseTo(result.timings.latencyTotalMs / result.timings.audioDurationMs, 9);
    expect(result.effectiveParams).toMatchObject({ temperature: 0.9, topK: 50, seed: 7, voice: 'ryan' });
    expect(result.truncated).toBe(false);
  });

  it('streams chunks that concatenate to the result and start at the right samples', async () => {
    const { engine } = makeEngine();
    const { outcomes, chunks } = await runAll(engine, [request('a', 'stream me please', 3)]);
    const result = done(outcomes.get('a'));
    const pieces = chunks.get('a')!;
    let offset = 0;
    for (const c of pieces) {
      expect(c.startSample).toBe(offset);
      expect(Array.from(c.pcm)).toEqual(Array.from(result.pcm.subarray(offset, offset + c.pcm.length)));
      offset += c.pcm.length;
    }
    expect(offset).toBe(result.numSamples);
    // chunks of 1, 2, 4, 8, … frames (firstChunkFrames 1, doubling up to chunkFrames 8); the last may be shorter
    expect(pieces.length).toBeGreaterThan(1);
    pieces.slice(0, -1).forEach((c, i) => expect(c.pcm.length).toBe(Math.min(2 ** i, 8) * FAKE_SAMPLES_PER_FRAME));
  });

  it('stops at the runaway cap and reports truncated', async () => {
    const { engine } = makeEngine({ minFramesCap: 3, framesPerTextToken: 1 });
    const result = await synthesize(engine, request('a', 'ab', 1, { params: { maxNewTokens: 4 } }));
    // cap = min(maxNewTokens 4, 3 + 1·2 = 5) = 4 frames
    expect(result.timings.numFrames).toBe(4);
    expect(result.truncated).toBe(true);
  });

  it('gives each request the same codes and PCM alone and batched with others', async () => {
    const inputs = [request('a', 'first one', 11), request('b', 'the second request', 22), request('c', 'third', 33)];
    const together = await runAll(makeEngine().engine, inputs);
    for (const r of inputs) {
      const alone = await runAll(makeEngine().engine, [r]);
      expect(Array.from(done(together.outcomes.get(r.requestId)).pcm)).toEqual(Array.from(done(alone.outcomes.get(r.requestId)).pcm));
    }
  });

  it('runs the running sequences in one talker decode batch', async () => {
    const { engine, stages } = makeEngine();
    await runAll(engine, [request('a', 'aaaa', 1), request('b', 'bbbb', 2), request('c', 'cccc', 3)]);
    expect(stages.talker.batchSizes[0]).toBe(3); // one prefill of all three
    expect(Math.max(...stages.talker.batchSizes)).toBe(3);
  });

  it('admits at most maxRunningSequences at a time', async () => {
    const { engine, stages } = makeEngine({ maxRunningSequences: 2, maxPrefillSequences: 2 });
    const { outcomes } = await runAll(engine, [request('a', 'aa', 1), request('b', 'bb', 2), request('c', 'cc', 3)]);
    expect(Math.max(...stages.talker.batchSizes)).toBe(2);
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
  });

  it('cancels a running request at the next step boundary and frees its state', async () => {
    const { engine, stages } = makeEngine();
    const outcomes: SynthesisOutcome[] = [];
    engine.onDidFinish((o) => outcomes.push(o));
    engine.addRequest(request('a', 'long text to cancel', 5));
    await engine.step();
    expect(engine.cancel('a')).toBe(true);
    await engine.step();
    expect(outcomes).toEqual([{ status: 'cancelled', requestId: 'a' }]);
    expect(stages.talker.states.size).toBe(0);
    expect(engine.hasWork()).toBe(false);
    expect(engine.status().numCancelled).toBe(1);
    expect(engine.status().engineVersion).toBe(`${STUDIO_VERSION}+graphs.${fakeManifest().builderVersion}`);
  });

  it('rejects bad requests with the field named', () => {
    const { engine } = makeEngine({ maxSequenceTokens: 40 });
    const codeOf = (r: SynthesisRequest) => {
      try {
        engine.addRequest(r);
        return 'accepted';
      } catch (err) {
        return `${(err as StudioError).code}:${(err as StudioError).details.field}`;
      }
    };
    expect(codeOf(request('e', '   ', 1))).toBe('invalid-argument:input');
    expect(codeOf(request('v', 'hi', 1, { voice: 'nobody' }))).toBe('invalid-argument:voice');
    expect(codeOf(request('l', 'hi', 1, { language: 'elvish' }))).toBe('invalid-argument:language');
    expect(codeOf(request('s', 'hi', -3))).toBe('invalid-argument:seed');
    expect(codeOf(request('p', 'hi', 1, { params: { temperature: -1 } }))).toBe('invalid-argument:params.temperature');
    expect(codeOf(request('x', 'hi', 1, { inputFormat: 'ssml' }))).toBe('invalid-argument:inputFormat');
    expect(codeOf(request('t', 'x'.repeat(30), 1))).toBe('input-too-long:input');
    expect(codeOf(request('ok', 'hi', 1))).toBe('accepted');
    expect(codeOf(request('ok', 'hi', 1))).toBe('invalid-argument:requestId');
  });

  it('says how to fix text that is too long', () => {
    const { engine } = makeEngine({ maxSequenceTokens: 40 });
    expect(() => engine.addRequest(request('t', 'x'.repeat(30), 1))).toThrow(/split the text.*or raise maxSequenceTokens/);
  });

  it('fails only the sequences of a batch whose model run threw, and keeps going', async () => {
    const { engine, stages } = makeEngine();
    const original = stages.talker.prefill.bind(stages.talker);
    let calls = 0;
    stages.talker.prefill = async (inputs) => {
      if (calls++ === 0) throw new StudioError('out-of-memory', 'fake OOM');
      return original(inputs);
    };
    const first = await runAll(engine, [request('a', 'one', 1)]);
    expect(first.outcomes.get('a')).toMatchObject({ status: 'failed', error: { code: 'out-of-memory' } });
    const result = await synthesize(engine, request('b', 'two', 2));
    expect(result.numSamples).toBeGreaterThan(0);
  });

  it('keeps its queue in the scheduler: a cancelled sequence leaves it at the step boundary, a finished one at once', async () => {
    const { engine, stages } = makeEngine({ maxRunningSequences: 2, maxPrefillSequences: 2 });
    const outcomes: SynthesisOutcome[] = [];
    engine.onDidFinish((o) => outcomes.push(o));
    engine.addRequest(request('a', 'first long text here', 1));
    engine.addRequest(request('b', 'second long text here', 2, { params: { maxNewTokens: 2 } }));
    engine.addRequest(request('c', 'third long text here', 3));
    expect(engine.scheduler.counters()).toMatchObject({ numWaiting: 3, numRunning: 0 });
    await engine.step(); // a and b admitted (maxRunningSequences 2)
    expect(engine.scheduler.counters()).toMatchObject({ numWaiting: 1, numRunning: 2 });
    await engine.step(); // b reaches its cap of 2 frames: it leaves the scheduler in this step
    expect(outcomes.map((o) => o.status === 'done' && o.result.requestId)).toEqual(['b']);
    expect(engine.scheduler.counters()).toMatchObject({ numWaiting: 1, numRunning: 1 });
    expect(engine.cancel('a')).toBe(true);
    await engine.step(); // a leaves before the step runs; c takes its place
    expect(outcomes[1]).toEqual({ status: 'cancelled', requestId: 'a' });
    expect(engine.scheduler.counters()).toMatchObject({ numWaiting: 0, numRunning: 1 });
    expect(engine.status()).toMatchObject({ numWaiting: 0, numRunning: 1, numInFlight: 1, numCancelled: 1, numCompleted: 1 });
    expect(engine.cancel('a')).toBe(false);
    expect(engine.cancel('c')).toBe(true);
    await engine.step();
    expect(engine.hasWork()).toBe(false);
    expect(stages.talker.states.size).toBe(0);
    expect(engine.scheduler.kvPool.numOwners).toBe(0);
  });

  it('runs by the scheduler limits it is built with: their queue bound refuses with busy, counted in the status', () => {
    const { engine } = makeEngine({}, resolveSchedulerConfig({ maxQueueDepth: 1 }));
    engine.addRequest(request('a', 'hello', 1));
    expect(() => engine.addRequest(request('b', 'hello', 2))).toThrowError(/the queue is full \(1 waiting, limit 1\)/);
    expect(engine.status()).toMatchObject({ numWaiting: 1, numRejected: 1 });
  });

  it("fails a sequence past the request's deadline with a timeout, at the next step and without running it", async () => {
    const { engine, stages } = makeEngine();
    const outcomes: SynthesisOutcome[] = [];
    engine.onDidFinish((o) => outcomes.push(o));
    engine.addRequest(request('late', 'some text to speak', 1, { deadlineMs: 5 })); // the fake clock moves 10 ms a read
    const numPrefills = stages.talker.batchSizes.length;
    expect(await engine.step()).toEqual({ kind: 'idle' });
    expect(stages.talker.batchSizes.length).toBe(numPrefills);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ status: 'failed', requestId: 'late', error: { code: 'timeout', details: { requestId: 'late', wasRunning: false } } });
    expect(engine.hasWork()).toBe(false);
  });

  it("reports each step's host ms (the step less the time awaiting the model stages) in the step report and the status totals", async () => {
    let clockMs = 0;
    const base = fakeStages();
    let stageMs = 0;
    // every awaited stage call takes 100 (talker), 50 (code predictor) or 30 (codec) ms of the clock; the host's part is the scheduler's 7 ms
    const slow = <T extends object>(stage: T, ms: number, names: string[]): T => {
      for (const name of names) {
        const fn = Reflect.get(stage, name) as (...a: unknown[]) => Promise<unknown>;
        Reflect.set(stage, name, async (...a: unknown[]) => {
          clockMs += ms;
          stageMs += ms;
          return fn.apply(stage, a);
        });
      }
      return stage;
    };
    const stages = { ...base, talker: slow(base.talker, 100, ['prefill', 'decode']), codePredictor: slow({ ...base.codePredictor }, 50, ['predict']), codec: slow({ ...base.codec }, 30, ['decode', 'decodeBatch']) };
    const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages, config: resolveEngineConfig({ provider: 'cpu' }), provider: { name: 'cpu', reason: 'test' }, nowMs: () => clockMs });
    const schedule = engine.scheduler.schedule.bind(engine.scheduler);
    engine.scheduler.schedule = () => {
      clockMs += 7;
      return schedule();
    };
    for (const r of [request('a', 'Hello there.', 1), request('b', 'Another one here.', 2)]) engine.addRequest(r);
    const reports = [];
    while (engine.hasWork()) reports.push(await engine.step());
    const ran = reports.filter((r) => r.kind === 'ran');
    expect(ran.length).toBeGreaterThan(2);
    for (const r of ran) expect(r.hostMs).toBe(7);
    // totals: every ran step's 7 host ms; the rest of the steps' time is the stages' (the final schedule that found no work ran no step)
    const steps = engine.status().steps!;
    expect(steps.numSteps).toBe(ran.length);
    expect(steps.totalHostMs).toBe(7 * ran.length);
    expect(steps.totalStepMs - steps.totalHostMs).toBe(stageMs);
  });
});
