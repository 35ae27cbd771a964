// Model tier: both compiled code-predictor graphs (tiny, fp32) match the reference: the step graph's
// logits over all 15 sub-steps with KV at batch 3, and the loop graph's sampled and greedy codes.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from '../engine/runtime/ort';
import { openCheckpoint, type Checkpoint } from './checkpoint';
import { argmax, emptyPast, maxAbsDiff, presentsAsPast } from './reference/compare';
import { ReferenceCodePredictor, ReferenceTalker, type ReferenceSampling } from './reference/reference-models';
import { ensureTinyModel } from './tiny-model';

const TOLERANCE = 1e-4;
const BATCH = 3;

let checkpoint: Checkpoint;
let builtDir: string;
let talker: ReferenceTalker;
let ref: ReferenceCodePredictor;
const sessions: OrtSession[] = [];

beforeAll(async () => {
  const model = await ensureTinyModel();
  builtDir = model.builtDir;
  checkpoint = openCheckpoint(model.checkpointDir);
  talker = new ReferenceTalker(checkpoint.weights, checkpoint.config);
  ref = new ReferenceCodePredictor(checkpoint.weights, checkpoint.config);
});

afterAll(async () => {
  for (const s of sessions) await disposeSession(s);
  checkpoint.close();
});

async function open(file: string): Promise<OrtSession> {
  const s = await createSession(path.join(builtDir, file), { provider: 'cpu', intraOpNumThreads: 1 });
  sessions.push(s);
  return s;
}

/** Per row: a stand-in last_hidden (a projected text row) and C(c0). */
function frameInputs(b: number): { lastHidden: Float32Array; firstCode: Float32Array } {
  return { lastHidden: talker.textRow(1000 + 17 * b), firstCode: talker.codecRow((b * 409) % 2048) };
}

describe('code predictor graphs (fp32, tiny)', () => {
  it('step graph matches the reference logits for all sub-steps with KV at batch 3, and greedy codes agree', async () => {
    const session = await open('code_predictor_step.onnx');
    const cp = checkpoint.config.codePredictor;
    const h = checkpoint.config.talker.hiddenSize;
    const inputs = Array.from({ length: BATCH }, (_, b) => frameInputs(b));
    const caches = inputs.map(() => ref.decoder.newCache());
    let rows = inputs.map((x) => [x.lastHidden, x.firstCode]);
    let past = emptyPast(cp.numLayers, BATCH, cp.numKvHeads, cp.headDim);
    for (let j = 0; j < checkpoint.config.numCodeGroups - 1; j++) {
      const numRows = rows[0].length;
      const embeds = new Float32Array(BATCH * numRows * h);
      rows.forEach((r, b) => r.forEach((row, s) => embeds.set(row, (b * numRows + s) * h)));
      const out = await runSession(session, { inputs_embeds: tensor('float32', embeds, [BATCH, numRows, h]), generation_step: tensor('int64', BigInt64Array.of(BigInt(j)), []), ...past });
      const logits = out.logits.data as Float32Array;
      rows = rows.map((r, b) => {
        const want = ref.step(r, j, caches[b]);
        const got = logits.subarray(b * cp.vocabSize, (b + 1) * cp.vocabSize);
        const d = maxAbsDiff(got, want, TOLERANCE);
        expect(d.maxDiff, `row ${b} sub-step ${j}: ${d.report}`).toBeLessThanOrEqual(TOLERANCE);
        expect(argmax(got)).toBe(argmax(want));
        return [ref.tableRow(j, argmax(want))];
      });
      past = presentsAsPast(out, cp.numLayers);
    }
  });

  it('loop graph gives the reference codes and embedding sum per row, with greedy and sampled rows mixed', async () => {
    const session = await open('code_predictor_loop.onnx');
    const h = checkpoint.config.talker.hiddenSize;
    const numSteps = checkpoint.config.numCodeGroups - 1;
    const params: ReferenceSampling[] = [
      { temperature: 0.9, topK: 1, topP: 1 }, // greedy
      { temperature: 0.9, topK: 50, topP: 1 }, // official subtalker defaults
      { temperature: 0.7, topK: 200, topP: 0.8 },
    ];
    const uniforms = Float32Array.from({ length: BATCH * numSteps }, (_, i) => (Math.sin(i * 78.233) * 43758.5453) % 1).map(Math.abs);
    const inputs = Array.from({ length: BATCH }, (_, b) => frameInputs(b));
    const out = await runSession(session, {
      last_hidden: tensor('float32', Float32Array.from(inputs.flatMap((x) => [...x.lastHidden])), [BATCH, 1, h]),
      first_code_embed: tensor('float32', Float32Array.from(inputs.flatMap((x) => [...x.firstCode])), [BATCH, 1, h]),
      uniforms: tensor('float32', uniforms, [BATCH, numSteps]),
      temperature: tensor('float32', Float32Array.from(params.map((p) => p.temperature)), [BATCH]),
      top_k: tensor('int64', BigInt64Array.from(params.map((p) => BigInt(p.topK))), [BATCH]),
      top_p: tensor('float32', Float32Array.from(params.map((p) => p.topP)), [BATCH]),
    });
    const codes = Array.from(out.codes.data as Int32Array);
    const sums = out.codes_embed_sum.data as Float32Array;
    inputs.forEach((x, b) => {
      const want = ref.frame(x.lastHidden, x.firstCode, params[b], Array.from(uniforms.subarray(b * numSteps, (b + 1) * numSteps)));
      expect(codes.slice(b * numSteps, (b + 1) * numSteps), `row ${b} codes`).toEqual(want.codes);
      const d = maxAbsDiff(sums.subarray(b * h, (b + 1) * h), want.embedSum, TOLERANCE);
      expect(d.maxDiff, `row ${b} codes_embed_sum: ${d.report}`).toBeLessThanOrEqual(TOLERANCE);
    });
  });
});
