/**
 * The phases of one engine step, each a named function over a batch of sequences (the admitted
 * ones' prefill is prefix-prefill.ts): sample codebook 0 per row, run the code predictor batched,
 * run one batched talker decode, and turn pending frames into audio. Every per-row choice uses only
 * that row's data and the counter RNG, so a sequence's output does not depend on its batch-mates; a
 * row that samples no valid code is reported as a RowFailure for the engine to fail alone.
 */
import { StudioError } from '../../src-shared/errors';
import type { CodecWindow, CodePredictorRow, ModelStages } from './stages/stages';
import { decodeTextId } from './prompt';
import { counterUniform } from './sampling/counter-rng';
import { sampleTalkerToken, type TalkerRules } from './sampling/sampler';
import { pastCodebook0, type Sequence } from './sequence';
import { samplingFailure } from './sampling-failure';
import { nextCodecChunk } from '../model-format/codec/chunked-decode';
import type { CodecChunkConfig } from './engine-config';
import type { PrefixKvCache } from './kv/prefix-kv-cache';

export interface FrameContext {
  stages: ModelStages;
  rules: TalkerRules;
  codec: CodecChunkConfig;
  /** Decode equal-length windows of several sequences in one codec call (else one call per window). */
  batchCodec: boolean;
  /** The prompt-prefix KV cache and the model id its keys start with (prefix-prefill.ts); absent: prefixes are still prefilled apart, nothing kept. */
  prefixCache?: { cache: PrefixKvCache; modelId: string };
}

/** Sums the prompt rows' embeddings, [numRows × hidden]. */
export function promptEmbeds(ctx: FrameContext, sequence: Sequence): Float32Array {
  const e = ctx.stages.embeddings;
  const rows = sequence.prompt.rows;
  const out = new Float32Array(rows.length * e.hiddenSize);
  rows.forEach((row, i) => {
    if (row.textId !== null) e.addText(row.textId, out, i * e.hiddenSize);
    if (row.codecId !== null) e.addCodec(row.codecId, out, i * e.hiddenSize);
    if (row.codecVector) for (let j = 0; j < e.hiddenSize; j++) out[i * e.hiddenSize + j] += row.codecVector[j];
    if (row.codecFrame) {
      e.addCodec(row.codecFrame[0], out, i * e.hiddenSize);
      for (let j = 1; j < row.codecFrame.length; j++) e.addCodePredictorCodec(j - 1, row.codecFrame[j], out, i * e.hiddenSize);
    }
  });
  return out;
}

/** The next talker input of a sequence whose last frame is complete (spec §2.5). */
export function frameEmbed(ctx: FrameContext, sequence: Sequence): Float32Array {
  const e = ctx.stages.embeddings;
  const frameIndex = sequence.codes.length - 1;
  const frame = sequence.codes[frameIndex];
  const out = new Float32Array(e.hiddenSize);
  e.addCodec(frame[0], out, 0);
  for (let j = 1; j < frame.length; j++) e.addCodePredictorCodec(j - 1, frame[j], out, 0);
  e.addText(decodeTextId(sequence.prompt, frameIndex), out, 0);
  return out;
}

/** A sequence whose sampling gave no usable token this step: the engine fails it alone. */
export interface RowFailure {
  sequence: Sequence;
  error: StudioError;
}

/** Whether `id` is a code of the codec's codebook (ids from controlStartId on are control rows). */
const isCode = (ctx: FrameContext, id: number) => Number.isInteger(id) && id >= 0 && id < ctx.rules.controlStartId;

/**
 * Samples codebook 0 for every sequence with pending logits. Sequences that drew EOS are marked
 * finished; the rest are returned with their c0 (frame index = codes.length), and a row that drew
 * no code (sampler NO_TOKEN: non-finite logits or overflowing params) as a failure, before its
 * token reaches a batched model call.
 */
export function sampleCodebook0(ctx: FrameContext, sequences: readonly Sequence[]): { rows: { sequence: Sequence; c0: number }[]; failures: RowFailure[] } {
  const rows: { sequence: Sequence; c0: number }[] = [];
  const failures: RowFailure[] = [];
  for (const sequence of sequences) {
    const pending = sequence.pending;
    if (!pending) continue;
    const frame = sequence.codes.length;
    const c0 = sampleTalkerToken(
      pending.logits.slice(),
      { pastTokens: pastCodebook0(sequence), numGenerated: frame },
      sequence.params,
      ctx.rules,
      counterUniform(sequence.seed, frame, 0),
    );
    if (c0 === ctx.rules.eosId) sequence.status = 'finished';
    else if (isCode(ctx, c0)) rows.push({ sequence, c0 });
    else failures.push({ sequence, error: samplingFailure('talker', sequence.params, { frame, codebook: 0 }, c0, ctx.rules.controlStartId) });
  }
  return { rows, failures };
}

/** The code-predictor input of one row: its hidden state, c0, warpers and the counter-RNG uniforms of this frame. */
export function codePredictorRow(ctx: FrameContext, sequence: Sequence, hidden: Float32Array, c0: number): CodePredictorRow {
  const p = sequence.params;
  const frame = sequence.codes.length;
  const uniforms = new Float64Array(ctx.stages.numCodeGroups - 1);
  for (let j = 1; j < ctx.stages.numCodeGroups; j++) uniforms[j - 1] = counterUniform(sequence.seed, frame, j);
  return { hidden, c0, warpers: { doSample: p.subtalkerDoSample, temperature: p.subtalkerTemperature, topK: p.subtalkerTopK, topP: p.subtalkerTopP }, uniforms };
}

/**
 * Codebooks 1..15 for each row, batched; appends the complete frame to each sequence. A row with a
 * code outside the codebook (the sampler's NO_TOKEN, or a bad draw in the graph) is returned as a
 * failure and gets no frame, so the codec never sees it.
 */
export async function predictCodebooks(ctx: FrameContext, rows: readonly { sequence: Sequence; c0: number }[]): Promise<RowFailure[]> {
  if (rows.length === 0) return [];
  const rest = await ctx.stages.codePredictor.predict(rows.map((r) => codePredictorRow(ctx, r.sequence, r.sequence.pending!.hidden, r.c0)));
  const failures: RowFailure[] = [];
  rows.forEach((r, i) => {
    r.sequence.pending = null;
    const bad = rest[i].findIndex((code) => !isCode(ctx, code));
    if (bad >= 0) {
      const at = { frame: r.sequence.codes.length, codebook: bad + 1 };
      failures.push({ sequence: r.sequence, error: samplingFailure('code predictor', r.sequence.params, at, rest[i][bad], ctx.rules.controlStartId) });
      return;
    }
    r.sequence.codes.push([r.c0, ...rest[i]]);
    if (r.sequence.codes.length >= r.sequence.maxFrames) {
      r.sequence.status = 'finished';
      r.sequence.truncated = true;
    }
  });
  return failures;
}

/** One batched talker step for every sequence that is still running. */
export async function decodeStep(ctx: FrameContext, sequences: readonly Sequence[]): Promise<void> {
  if (sequences.length === 0) return;
  const inputs = sequences.map((s) => ({ sequenceId: s.id, embeds: frameEmbed(ctx, s), numRows: 1 }));
  const outputs = await ctx.stages.talker.decode(inputs);
  sequences.forEach((s, i) => (s.pending = outputs[i]));
}

export interface AudioPiece {
  startSample: number;
  pcm: Float32Array;
}

/**
 * Decodes every codec window that is due, for all `sequences` at once: each round takes the next due
 * chunk of every sequence, runs the windows of equal length as one batched codec call, and repeats
 * until nothing is due. Returns the new PCM pieces per sequence, in chunk order.
 */
export async function decodeAudio(ctx: FrameContext, sequences: readonly Sequence[]): Promise<Map<Sequence, AudioPiece[]>> {
  const spf = ctx.stages.codec.samplesPerFrame;
  const pieces = new Map<Sequence, AudioPiece[]>(sequences.map((s) => [s, []]));
  const stream = ctx.stages.codec.streaming === true;
  for (;;) {
    const due = sequences.flatMap((s) => {
      const planned = nextCodecChunk(s.numFramesDecoded, s.codes.length, s.status !== 'running', ctx.codec);
      if (!planned) return [];
      const chunk = { ...planned, contextFrames: chunkContextFrames(ctx, s, planned.startFrame, stream) };
      return [{ s, chunk, window: codecFrames(s, chunk.startFrame - chunk.contextFrames, chunk.endFrame) }];
    });
    if (due.length === 0) return pieces;
    const byLength = new Map<number, typeof due>();
    due.forEach((d, i) => {
      const key = ctx.batchCodec ? d.window.length : -1 - i; // a key per window when not batching
      byLength.set(key, [...(byLength.get(key) ?? []), d]);
    });
    for (const group of byLength.values()) {
      const pcms = stream ? await decodeStreamed(ctx, group) : await ctx.stages.codec.decodeBatch(group.map((d) => d.window));
      group.forEach(({ s, chunk }, i) => {
        const kept = pcms[i].slice(chunk.contextFrames * spf);
        pieces.get(s)!.push({ startSample: chunk.startFrame * spf, pcm: kept });
        s.pcmChunks.push(kept);
        s.numFramesDecoded = chunk.endFrame;
      });
    }
  }
}

/**
 * Frames decoded again in front of a chunk: up to leftContextFrames earlier frames, reaching into the
 * reference codes of an in-context request. Streaming keeps that context in its carried state instead,
 * so it takes only the whole reference, once, in front of the first chunk.
 */
function chunkContextFrames(ctx: FrameContext, s: Sequence, startFrame: number, stream: boolean): number {
  const numPrefix = s.codecPrefix.length;
  if (stream) return startFrame === 0 ? numPrefix : 0;
  return Math.min(ctx.codec.leftContextFrames, numPrefix + startFrame);
}

/** Frames [from, to) of the sequence's codec timeline; negative indices are the reference codes' last frames. */
export function codecFrames(s: Pick<Sequence, 'codecPrefix' | 'codes'>, from: number, to: number): number[][] {
  const prefix = from < 0 ? s.codecPrefix.slice(s.codecPrefix.length + from).map((f) => [...f]) : [];
  return [...prefix, ...s.codes.slice(Math.max(0, from), to)];
}

/** One streaming codec call for a group of due chunks: each sequence continues from the state its previous chunk left in the codec. */
async function decodeStreamed(ctx: FrameContext, group: readonly { s: Sequence; window: CodecWindow }[]): Promise<Float32Array[]> {
  const codec = ctx.stages.codec;
  if (!codec.decodeStreamBatch) throw new StudioError('internal', 'the codec stage says it streams but has no decodeStreamBatch; fix the stage', {});
  // after the first chunk the state holds the reference frames too
  return codec.decodeStreamBatch(group.map(({ s, window }) => ({ sequenceId: s.id, window, numDecodedFrames: s.numFramesDecoded === 0 ? 0 : s.codecPrefix.length + s.numFramesDecoded })));
}
