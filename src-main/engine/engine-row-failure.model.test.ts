/**
 * A sequence whose sampling has no finite distribution fails alone, on the tiny model: one injected
 * past the request schema (temperature or code-predictor temperature 1e-300, or NaN logits from the
 * talker mid-run) beside the golden requests of engine.model.test.ts, which still give their golden
 * codes and the PCM and WAV bytes of a run without it. Issue 36: the bad row's token reached the
 * batched codec and every request of the batch failed with a 500.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { encodeWav } from '../audio/wav-encode';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import type { Sequence } from './sequence';
import { collectOutcomes, type RunOutcomes } from './testing/run-and-collect';

type Golden = { requests: SynthesisRequest[]; golden: Record<string, { codes: number[][] }> };
const STEP_GOLDEN: Golden = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'golden/tiny-engine.json'), 'utf8'));
const LOOP_GOLDEN: Golden = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'golden/tiny-engine-loop.json'), 'utf8'));

/** Queues `requests` and the injected sequence (prepared, then tampered with) in one step, and runs them all. */
function runWith(engine: Engine, requests: readonly SynthesisRequest[], injected?: { request: SynthesisRequest; tamper: (s: Sequence) => void }): Promise<RunOutcomes> {
  return collectOutcomes(engine, async () => {
    if (injected) {
      const sequence = engine.prepare(injected.request);
      injected.tamper(sequence);
      engine.enqueue(sequence);
    }
    for (const r of requests) engine.addRequest(r);
    await engine.run();
  });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const pcmSha = (pcm: Float32Array) => sha256(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));

/** The batch-mates finished with the golden codes and the bytes of the run without the bad sequence. */
function expectUntouched(run: RunOutcomes, baseline: RunOutcomes, golden: Golden): void {
  for (const r of golden.requests) {
    const mate = run.done.get(r.requestId);
    expect(mate, `request ${r.requestId} did not finish: ${JSON.stringify(run.failed.get(r.requestId))}`).toBeDefined();
    expect(mate!.codes).toEqual(golden.golden[r.requestId].codes);
    const alone = baseline.done.get(r.requestId)!.result;
    expect(pcmSha(mate!.result.pcm)).toBe(pcmSha(alone.pcm));
    expect(sha256(encodeWav(mate!.result.pcm, 24_000, 'pcm16'))).toBe(sha256(encodeWav(alone.pcm, 24_000, 'pcm16')));
  }
}

const BAD: SynthesisRequest = { requestId: 'bad', input: 'This one overflows its sampler.', inputFormat: 'text', voice: 'aiden', language: 'english', seed: 5, params: { maxNewTokens: 12 } };

let builtDir: string;
const engines: Engine[] = [];

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
});

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

async function engineFor(codePredictor: 'step' | 'loop'): Promise<Engine> {
  const engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor }, log: () => {} });
  engines.push(engine);
  return engine;
}

describe('a sequence whose sampling is not finite fails alone', () => {
  it('fails a row with temperature 1e-300 as invalid-argument naming the field; its batch-mates keep their golden bytes', async () => {
    const engine = await engineFor('step');
    const baseline = await runWith(engine, STEP_GOLDEN.requests);
    const run = await runWith(engine, STEP_GOLDEN.requests, { request: BAD, tamper: (s) => (s.params.temperature = 1e-300) });
    expect(run.failed.get('bad')).toMatchObject({ code: 'invalid-argument', details: { field: 'params.temperature', frame: 0, codebook: 0 } });
    expect(run.failed.get('bad')!.message).toMatch(/params\.temperature is 1e-300 but must be a number from 0\.01 to 10.*the others in its batch go on/);
    expect(run.failed.size).toBe(1);
    expectUntouched(run, baseline, STEP_GOLDEN);
    expect(engine.status()).toMatchObject({ state: 'ready', numRunning: 0, numWaiting: 0 });
  });

  it('fails a row whose code-predictor temperature overflows the same way', async () => {
    const engine = await engineFor('step');
    const baseline = await runWith(engine, STEP_GOLDEN.requests);
    const run = await runWith(engine, STEP_GOLDEN.requests, { request: BAD, tamper: (s) => (s.params.subtalkerTemperature = 1e-300) });
    expect(run.failed.get('bad')).toMatchObject({ code: 'invalid-argument', details: { field: 'params.subtalkerTemperature', frame: 0 } });
    expectUntouched(run, baseline, STEP_GOLDEN);
  });

  it('fails a row whose talker logits turn NaN mid-run as internal, while the others decode on', async () => {
    const engine = await engineFor('step');
    const baseline = await runWith(engine, STEP_GOLDEN.requests);
    let badId = -1;
    const talker = engine.parts.stages.talker;
    const decode = talker.decode.bind(talker);
    let numDecodes = 0;
    talker.decode = async (inputs) => {
      const outputs = await decode(inputs);
      // from the third decode on, the bad sequence's logits are NaN (a broken model or device)
      if (++numDecodes >= 3) inputs.forEach((input, i) => input.sequenceId === badId && outputs[i].logits.fill(NaN));
      return outputs;
    };
    const run = await runWith(engine, STEP_GOLDEN.requests, { request: BAD, tamper: (s) => (badId = s.id) });
    expect(run.failed.get('bad')).toMatchObject({ code: 'internal', details: { stage: 'talker', frame: 3, codebook: 0 } });
    expect(run.failed.get('bad')!.message).toMatch(/no finite distribution \(NaN or infinity\)/);
    expectUntouched(run, baseline, STEP_GOLDEN);
  });

  it('fails the row alone on the loop-graph code predictor too', async () => {
    const engine = await engineFor('loop');
    const baseline = await runWith(engine, LOOP_GOLDEN.requests);
    const run = await runWith(engine, LOOP_GOLDEN.requests, { request: BAD, tamper: (s) => (s.params.temperature = 1e-300) });
    expect(run.failed.get('bad')).toMatchObject({ code: 'invalid-argument', details: { field: 'params.temperature' } });
    expectUntouched(run, baseline, LOOP_GOLDEN);
  });
});
