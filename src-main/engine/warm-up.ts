/**
 * Runs a warm-up plan (warm-up-plan.ts) through the stages' public calls before the engine says ready:
 * each bucket opened and run once (a bound stage with capture on captures it then), so no request pays
 * a first use. Fake sequences have negative ids (the engine's are ≥ 1), so no bound bucket's record of
 * what it holds can match a request's; every KV row and codec state they leave is released and every
 * output dropped. Talker prefill is not bucketed: its runs here are the ones the decode buckets need.
 */
import type { EngineWarmUp } from '../../src-shared/synthesis';
import type { CodecWarmUp, CodePredictorWarmUp, TalkerWarmUp, WarmUpPlan } from './warm-up-plan';
import type { ModelStages } from './stages/stages';

/** What a warm-up did, per stage: buckets run (prefill: talker prefill calls of distinct rows × capacity). */
export interface WarmUpReport extends EngineWarmUp {
  byStage: { talker: number; prefill: number; codePredictor: number; codec: number };
  /** The plan's talker KV buffer bytes, warmed and left cold (warm-up-plan.ts). */
  talkerBytes: WarmUpPlan['talkerBytes'];
}

/** Ids -1, -2, …: never an engine sequence id. */
const fakeIds = (n: number): number[] => Array.from({ length: n }, (_, i) => -1 - i);

/** One decode bucket: fake sequences prefilled to capacity − 1 positions, one decode step (at kvCapacity(capacity) = capacity), then released. */
async function warmTalker(stages: ModelStages, w: TalkerWarmUp): Promise<void> {
  const h = stages.talker.hiddenSize;
  const ids = fakeIds(w.numRealRows);
  const numRows = w.capacity - 1;
  try {
    await stages.talker.prefill(ids.map((sequenceId) => ({ sequenceId, embeds: new Float32Array(numRows * h), numRows })));
    await stages.talker.decode(ids.map((sequenceId) => ({ sequenceId, embeds: new Float32Array(h), numRows: 1 })));
  } finally {
    for (const id of ids) stages.talker.release(id);
  }
}

async function warmCodePredictor(stages: ModelStages, w: CodePredictorWarmUp): Promise<void> {
  const row = { hidden: new Float32Array(stages.talker.hiddenSize), c0: 0, warpers: w.warpers, uniforms: new Float64Array(stages.numCodeGroups - 1) };
  await stages.codePredictor.predict(Array.from({ length: w.numRealRows }, () => row));
}

/** One codec bucket, both state sets: a first call from zero state (set 0), the same fake sequences continuing (set 1), then reordered. */
async function warmCodec(stages: ModelStages, w: CodecWarmUp): Promise<void> {
  const codec = stages.codec;
  if (!codec.decodeStreamBatch) return;
  const ids = fakeIds(w.rows);
  const window = Array.from({ length: w.frames }, () => new Array<number>(stages.numCodeGroups).fill(0));
  try {
    await codec.decodeStreamBatch(ids.map((sequenceId) => ({ sequenceId, window, numDecodedFrames: 0 })));
    await codec.decodeStreamBatch(ids.map((sequenceId) => ({ sequenceId, window, numDecodedFrames: w.frames })));
    // the rows in another order: the bound codec gathers its read set on the device, so the gather opens here, not in a request
    if (w.rows > 1) await codec.decodeStreamBatch([...ids].reverse().map((sequenceId) => ({ sequenceId, window, numDecodedFrames: 2 * w.frames })));
  } finally {
    for (const id of ids) codec.releaseStream?.(id);
  }
}

/** Runs every bucket of the plan once; `nowMs` times it. Throws what a stage throws (the engine is then not ready). */
export async function runWarmUp(stages: ModelStages, plan: WarmUpPlan, nowMs: () => number): Promise<WarmUpReport> {
  const startedMs = nowMs();
  for (const w of plan.talker) await warmTalker(stages, w);
  for (const w of plan.codePredictor) await warmCodePredictor(stages, w);
  const codec = stages.codec.streaming === true && stages.codec.decodeStreamBatch ? plan.codec : [];
  for (const w of codec) await warmCodec(stages, w);
  const prefill = new Set(plan.talker.map((w) => `${w.numRealRows}:${w.capacity}`)).size;
  const byStage = { talker: plan.talker.length, prefill, codePredictor: plan.codePredictor.length, codec: codec.length };
  const numLeftOut = plan.numLeftOut.talker + plan.numLeftOut.codePredictor + (codec.length > 0 ? plan.numLeftOut.codec : 0);
  return { durationMs: nowMs() - startedMs, numBuckets: byStage.talker + byStage.prefill + byStage.codePredictor + byStage.codec, numBucketsLeftOut: numLeftOut, byStage, talkerBytes: plan.talkerBytes };
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/** The start-up log line of a warm-up. */
export function describeWarmUp(r: WarmUpReport): string {
  const s = r.byStage;
  // what the cold ones would add to start-up at this warm-up's own mean cost a bucket (a first use pays about that once)
  const perBucketMs = r.numBuckets > 0 ? r.durationMs / r.numBuckets : 0;
  const cold = r.numBucketsLeftOut > 0 ? `; their first use costs ~${Math.round(perBucketMs)} ms each, ~${(perBucketMs * r.numBucketsLeftOut / 1000).toFixed(1)} s in all, and their talker KV buffers ${gib(r.talkerBytes.leftOut)}` : '';
  return `engine: warm-up ${r.numBuckets} buckets in ${Math.round(r.durationMs)} ms (talker decode ${s.talker} holding ${gib(r.talkerBytes.warmed)} of KV buffers, prefill ${s.prefill}, code predictor ${s.codePredictor}, codec ${s.codec} × 2 state sets; ${r.numBucketsLeftOut} past graphCapture.maxBuckets or half the device's memory left cold${cold})`;
}
