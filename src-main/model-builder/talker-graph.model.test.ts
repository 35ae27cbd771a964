// Model tier: the compiled fp32 talker graph (tiny checkpoint) matches the plain-loop reference run
// one sequence at a time, for ragged left-padded batches of 1, 3 and 8, prefill then decode with the
// fixed-capacity KV buffers fed straight back (present has past's shape).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from '../engine/runtime/ort';
import { openCheckpoint, type Checkpoint } from './checkpoint';
import { argmax, emptyPast, maxAbsDiff, presentsAsPast } from './reference/compare';
import { ReferenceTalker } from './reference/reference-models';
import { ensureTinyModel } from './tiny-model';

const TOLERANCE = 1e-4;
const NUM_DECODE_STEPS = 4;
const CAPACITY = 16;

let checkpoint: Checkpoint;
let session: OrtSession;
let ref: ReferenceTalker;

beforeAll(async () => {
  const { checkpointDir, builtDir } = await ensureTinyModel();
  checkpoint = openCheckpoint(checkpointDir);
  ref = new ReferenceTalker(checkpoint.weights, checkpoint.config);
  session = await createSession(path.join(builtDir, 'talker.onnx'), { provider: 'cpu', intraOpNumThreads: 1 });
});

afterAll(async () => {
  await disposeSession(session);
  checkpoint.close();
});

/** A prompt of `length` rows: text rows plus codec rows, ids derived from the row index. */
function promptRows(row: number, length: number): Float32Array[] {
  return Array.from({ length }, (_, p) => {
    const text = ref.textRow((row * 7919 + p * 104729) % 151936);
    const codec = ref.codecRow(2048 + ((row * 31 + p) % 1024));
    return text.map((v, i) => v + codec[i]);
  });
}

describe('talker graph (fp32, tiny)', () => {
  for (const lengths of [[6], [5, 2, 7], [3, 9, 1, 4, 6, 2, 8, 5]]) {
    it(`matches the reference for a batch of ${lengths.length} with ragged lengths ${lengths.join('/')}, prefill then ${NUM_DECODE_STEPS} decode steps`, async () => {
      const t = checkpoint.config.talker;
      const batch = lengths.length;
      const maxLength = Math.max(...lengths);
      const caches = lengths.map(() => ref.decoder.newCache());
      const embeds = new Float32Array(batch * maxLength * t.hiddenSize);
      const mask: bigint[] = [];
      const positions = new BigInt64Array(batch * maxLength);
      const expected = lengths.map((len, b) => {
        const rows = promptRows(b, len);
        const pad = maxLength - len;
        rows.forEach((r, p) => embeds.set(r, (b * maxLength + pad + p) * t.hiddenSize));
        for (let p = 0; p < maxLength; p++) positions[b * maxLength + p] = BigInt(p < pad ? -1 : p - pad);
        for (let slot = 0; slot < CAPACITY; slot++) mask.push(slot < len ? 1n : 0n);
        return ref.step(rows, rows.map((_, p) => p), caches[b]);
      });
      let out = await runSession(session, {
        inputs_embeds: tensor('float32', embeds, [batch, maxLength, t.hiddenSize]),
        attention_mask: tensor('int64', BigInt64Array.from(mask), [batch, CAPACITY]),
        position_ids: tensor('int64', positions, [batch, maxLength]),
        ...emptyPast(t.numLayers, batch, t.numKvHeads, t.headDim, CAPACITY),
      });
      const padRow = ref.textRow(checkpoint.config.textTokens.ttsPad);
      const maskRows = lengths.map((len) => Array.from({ length: CAPACITY }, (_, slot) => (slot < len ? 1n : 0n)));
      for (let step = 0; step <= NUM_DECODE_STEPS; step++) {
        const logits = out.logits.data as Float32Array;
        const hidden = out.last_hidden.data as Float32Array;
        const nextEmbeds = new Float32Array(batch * t.hiddenSize);
        expected.forEach((e, b) => {
          const gotLogits = logits.subarray(b * t.vocabSize, (b + 1) * t.vocabSize);
          const l = maxAbsDiff(gotLogits, e.logits, TOLERANCE);
          const h = maxAbsDiff(hidden.subarray(b * t.hiddenSize, (b + 1) * t.hiddenSize), e.lastHidden, TOLERANCE);
          expect(l.maxDiff, `row ${b} step ${step} logits: ${l.report}`).toBeLessThanOrEqual(TOLERANCE);
          expect(h.maxDiff, `row ${b} step ${step} last_hidden: ${h.report}`).toBeLessThanOrEqual(TOLERANCE);
          const token = argmax(e.logits);
          expect(argmax(gotLogits), `row ${b} step ${step} greedy token`).toBe(token);
          const row = ref.codecRow(token).map((v, i) => v + padRow[i]);
          nextEmbeds.set(row, b * t.hiddenSize);
          expected[b] = ref.step([row], [lengths[b] + step], caches[b]);
          maskRows[b][lengths[b] + step] = 1n;
        });
        if (step === NUM_DECODE_STEPS) break;
        out = await runSession(session, {
          inputs_embeds: tensor('float32', nextEmbeds, [batch, 1, t.hiddenSize]),
          attention_mask: tensor('int64', BigInt64Array.from(maskRows.flat()), [batch, CAPACITY]),
          position_ids: tensor('int64', BigInt64Array.from(lengths.map((len) => BigInt(len + step))), [batch, 1]),
          ...presentsAsPast(out, t.numLayers),
        });
        expect(out.present_key_0.dims).toEqual([batch, t.numKvHeads, CAPACITY, t.headDim]);
      }
    });
  }
});
