/**
 * The warm-up plan: the shape buckets the engine's stages can open at run time, from the resolved engine
 * plan through the functions that pick a call's shape (kvCapacity, the shape-bucket rows, codecChunks,
 * codecChunkSize), never a list of its own. Pure. A bound stage holds at most graphCapture.maxBuckets
 * buckets (LRU), so each list is ordered most used first and cut there; the talker's is also cut where its
 * buckets' KV buffers would pass half the device's memory (a 64-row bucket at 1,024 positions holds 7 GiB of
 * the 0.6B's KV). The cut ones are counted with their bytes, not warmed. Running the plan: warm-up.ts.
 */
import { codecChunkSize } from '../model-format/codec/chunked-decode';
import type { ModelManifest } from '../model-format/manifest';
import type { EnginePlan } from './engine-plan';
import { kvBytesPerPosition } from './kv/kv-capacity';
import { kvCapacity } from './kv/kv-layout';
import { codecChunks } from './stages/bucketed-stages';
import type { CodePredictorWarpers } from './stages/stages';

/** One talker decode bucket: a run of `rows` rows at KV `capacity`, reached by `numRealRows` fake sequences (the rest are the talker's padded copies). */
export interface TalkerWarmUp {
  rows: number;
  numRealRows: number;
  capacity: number;
}

/** One code-predictor call: `numRealRows` rows with these warpers (the loop graph's bucket is rows × the call's top_k). */
export interface CodePredictorWarmUp {
  numRealRows: number;
  warpers: CodePredictorWarpers;
}

/** One streaming-codec bucket: `rows` rows of `frames` new frames, run twice (both state sets of the bucket). */
export interface CodecWarmUp {
  rows: number;
  frames: number;
}

export interface WarmUpPlan {
  talker: TalkerWarmUp[];
  codePredictor: CodePredictorWarmUp[];
  codec: CodecWarmUp[];
  /** Buckets the stages can use past the bucket limit (the talker's: or past the memory share), per stage: not warmed. */
  numLeftOut: { talker: number; codePredictor: number; codec: number };
  /** The KV buffer bytes of the talker buckets warmed, and of those left out (rows × capacity × KV bytes a position). */
  talkerBytes: { warmed: number; leftOut: number };
}

/** The manifest facts the warm-up plan reads: the code predictor's defaults (its warpers) and the talker's KV shape. */
export type WarmUpFacts = Pick<ModelManifest, 'generation' | 'talker' | 'dtype'>;

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
const unique = (xs: readonly number[]): number[] => [...new Set(xs)];

/**
 * New-frame counts of the codec's streaming calls: the chunk schedule's sizes first (firstChunkFrames
 * doubling to chunkFrames, every request's), then the shorter final chunks a request's end can leave.
 */
export function codecFrameCounts(codec: EnginePlan['resolved']['codec']): number[] {
  const sizes: number[] = [];
  for (let decoded = 0; ; ) {
    const size = codecChunkSize(decoded, codec);
    sizes.push(size);
    if (size >= codec.chunkFrames) break;
    decoded += size;
  }
  return unique([...sizes, ...range(1, codec.chunkFrames)]);
}

/** Cuts a most-used-first list at the bucket limit. */
function cut<T>(all: readonly T[], max: number): { kept: T[]; numLeftOut: number } {
  return { kept: all.slice(0, max), numLeftOut: Math.max(0, all.length - max) };
}

/** Talker decode buckets: KV capacities ascending (every request passes the small ones), run rows ascending within each. */
function talkerBuckets(plan: EnginePlan): TalkerWarmUp[] {
  const r = plan.resolved;
  const block = r.kvCache.blockPositions;
  // a decode at position p (≥ 1 prompt row before it) runs at kvCapacity(p + 1); the longest sequence holds maxSequenceTokens
  const capacities = unique(range(2, r.maxSequenceTokens).map((n) => kvCapacity(n, block)));
  // with shape buckets every decode run has talkerRows rows (one real row, the rest padded copies); without, one run per group of 1..maxRunningSequences
  const runs = r.shapeBuckets.mode === 'on' ? [{ rows: r.shapeBuckets.talkerRows, numRealRows: 1 }] : range(1, r.maxRunningSequences).map((n) => ({ rows: n, numRealRows: n }));
  return capacities.flatMap((capacity) => runs.map((run) => ({ ...run, capacity })));
}

/** Code-predictor calls: each row count the stage can be called with, with the request defaults' warpers and greedy ones (top_k 1). */
function codePredictorCalls(plan: EnginePlan, manifest: Pick<ModelManifest, 'generation'>): CodePredictorWarmUp[] {
  const r = plan.resolved;
  const g = manifest.generation;
  const sampled: CodePredictorWarpers = { doSample: g.subtalkerDoSample, temperature: g.subtalkerTemperature, topK: g.subtalkerTopK, topP: g.subtalkerTopP };
  const greedy: CodePredictorWarpers = { doSample: false, temperature: 1, topK: 1, topP: 1 };
  const warpers = g.subtalkerDoSample && g.subtalkerTopK !== 1 ? [sampled, greedy] : [greedy];
  const rows = r.shapeBuckets.mode === 'on' ? [1] : range(1, r.maxRunningSequences);
  return rows.flatMap((numRealRows) => warpers.map((w) => ({ numRealRows, warpers: w })));
}

/**
 * Streaming-codec buckets: the row counts the engine's codec calls reach (a group of 1..maxRunningSequences
 * due chunks of one length when batching, split by codecChunks and padded to codecMinRows with shape
 * buckets), fewest rows first, each over the chunk schedule's frame counts.
 */
function codecBuckets(plan: EnginePlan): CodecWarmUp[] {
  const r = plan.resolved;
  if (r.codec.mode !== 'stream') return [];
  const groups = r.codecBatching === 'on' ? range(1, r.maxRunningSequences) : [1];
  const b = r.shapeBuckets;
  const frames = codecFrameCounts(r.codec);
  const rowsFor = (f: number): number[] => (b.mode === 'on' ? unique(groups.flatMap((n) => codecChunks(n, f, b.codecMinRows, b.codecMaxRowFrames).map((s) => Math.max(s, b.codecMinRows)))) : groups);
  const all = frames.flatMap((f) => rowsFor(f).map((rows) => ({ rows, frames: f })));
  return all.sort((x, y) => x.rows - y.rows || frames.indexOf(x.frames) - frames.indexOf(y.frames));
}

/**
 * Talker buckets, smallest capacity first, while the count stays within the bucket limit and their KV buffers within
 * half the device's memory (no byte limit where the memory is unknown or the buffers live on the host).
 */
function cutTalker(all: readonly TalkerWarmUp[], max: number, bytesPerPosition: number, budgetBytes: number): { kept: TalkerWarmUp[]; numLeftOut: number; bytes: WarmUpPlan['talkerBytes'] } {
  const bytesOf = (t: TalkerWarmUp) => t.rows * t.capacity * bytesPerPosition;
  const kept: TalkerWarmUp[] = [];
  let warmed = 0;
  for (const t of all) {
    if (kept.length >= max || warmed + bytesOf(t) > budgetBytes) break;
    kept.push(t);
    warmed += bytesOf(t);
  }
  const leftOut = all.slice(kept.length).reduce((sum, t) => sum + bytesOf(t), 0);
  return { kept, numLeftOut: all.length - kept.length, bytes: { warmed, leftOut } };
}

/** The plan's buckets per stage, each cut at graphCapture.maxBuckets (the talker's also at half the device's memory). */
export function planWarmUp(plan: EnginePlan, manifest: WarmUpFacts): WarmUpPlan {
  const max = plan.capture?.maxBuckets ?? plan.resolved.graphCapture.maxBuckets;
  const memory = plan.capture?.location === 'device' ? plan.machine.deviceMemoryBytes : null;
  const talker = cutTalker(talkerBuckets(plan), max, kvBytesPerPosition(manifest), memory === null ? Infinity : memory / 2);
  const codePredictor = cut(codePredictorCalls(plan, manifest), max);
  const codec = cut(codecBuckets(plan), max);
  return {
    talker: talker.kept,
    codePredictor: codePredictor.kept,
    codec: codec.kept,
    numLeftOut: { talker: talker.numLeftOut, codePredictor: codePredictor.numLeftOut, codec: codec.numLeftOut },
    talkerBytes: talker.bytes,
  };
}
