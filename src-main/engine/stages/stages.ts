/**
 * The contracts of the three model stages the engine drives (talker → code predictor → codec),
 * so the loop can run over ORT sessions (talker.ts, code-predictor.ts, codec-decoder.ts) or over a
 * pure-TypeScript fake in unit tests. Types only. Buffer ownership: every Float32Array returned
 * belongs to the caller; the stages keep none of them.
 */
import type { PrefixKv } from '../kv/prefix-kv-cache';

/** One talker row: its sequence key and the summed input embeddings, [numRows × hiddenSize]. */
export interface TalkerInput {
  sequenceId: number;
  embeds: Float32Array;
  numRows: number;
}

/** Per sequence: codec logits at its last position [vocab] and the final-norm hidden state there [hidden]. */
export interface TalkerOutput {
  logits: Float32Array;
  hidden: Float32Array;
}

export interface TalkerStage {
  readonly hiddenSize: number;
  /**
   * Runs prompt rows of each sequence after what it holds (nothing, or a prefix from an earlier prefill
   * or writePrefixKv); the stage keeps its KV cache until release().
   */
  prefill(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]>;
  /** Copies of a sequence's first numPositions KV positions (the prompt-prefix cache); absent on stages without one. */
  readPrefixKv?(sequenceId: number, numPositions: number): Promise<PrefixKv>;
  /** Gives a sequence that holds no KV a prefix from readPrefixKv, so its prefill continues after it. */
  writePrefixKv?(sequenceId: number, prefix: PrefixKv): Promise<void>;
  /** One new row per sequence (numRows = 1), appended to its cache. */
  decode(inputs: readonly TalkerInput[]): Promise<TalkerOutput[]>;
  release(sequenceId: number): void;
  dispose(): Promise<void>;
}

/** The code predictor's warpers for one row (the request's subtalker params). */
export interface CodePredictorWarpers {
  doSample: boolean;
  temperature: number;
  topK: number;
  topP: number;
}

export interface CodePredictorRow {
  /** Talker final-norm hidden state that produced c0 [talker hidden]. */
  hidden: Float32Array;
  c0: number;
  warpers: CodePredictorWarpers;
  /** uniforms[j - 1] is the random draw for codebook j (counter RNG of seed, frame, j). */
  uniforms: Float64Array;
}

export interface CodePredictorStage {
  /** Returns, per row, codebooks 1..numCodeGroups-1, sampled with that row's warpers and uniforms only. */
  predict(rows: readonly CodePredictorRow[]): Promise<number[][]>;
  dispose(): Promise<void>;
}

/** codes [numFrames][numCodeGroups] of one sequence. */
export type CodecWindow = readonly (readonly number[])[];

export interface CodecStreamRow {
  /** Whose carried state the stage keeps between calls; null: start from zeros and keep nothing. */
  sequenceId: number | null;
  /** The new frames only. */
  window: CodecWindow;
  /** Frames of the sequence decoded before this call (0: the sequence's first call, zero state). */
  numDecodedFrames: number;
}

export interface CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;
  /** One sequence's window → PCM float [numFrames × samplesPerFrame]. */
  decode(codes: CodecWindow): Promise<Float32Array>;
  /** Windows of equal length from different sequences, one PCM array each (same values as decode, one by one). */
  decodeBatch(windows: readonly CodecWindow[]): Promise<Float32Array[]>;
  /** True when the stage carries state between calls (decodeStreamBatch), so windows need no left context. */
  readonly streaming?: boolean;
  /** New frames of several sequences (equal counts), each continuing from the state its previous call left in the stage. */
  decodeStreamBatch?(rows: readonly CodecStreamRow[]): Promise<Float32Array[]>;
  /** Frees the state kept for a sequence (finished, cancelled or failed). */
  releaseStream?(sequenceId: number): void;
  dispose(): Promise<void>;
}

/** Host-side embedding lookups (the tables in the manifest). */
export interface EmbeddingLookup {
  readonly hiddenSize: number;
  /** Adds T(textId) into out[offset .. offset + hidden). */
  addText(textId: number, out: Float32Array, offset: number): void;
  /** Adds talker C(codecId). */
  addCodec(codecId: number, out: Float32Array, offset: number): void;
  /** Adds code-predictor E_j(code), j = 0..numCodeGroups-2 (embeds codebook j+1). */
  addCodePredictorCodec(table: number, code: number, out: Float32Array, offset: number): void;
}

export interface ModelStages {
  talker: TalkerStage;
  codePredictor: CodePredictorStage;
  codec: CodecStage;
  embeddings: EmbeddingLookup;
  numCodeGroups: number;
}
