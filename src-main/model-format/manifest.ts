/**
 * ModelManifest: the contract between the model builder and the engine. model-builder/build.ts writes
 * it as manifest.json next to the graphs; the engine reads every dim, id, default, file and I/O name
 * from it and from nothing else. Types only (plus the version constants); no I/O here. It lives in
 * model-format/, below both, so the engine never imports the builder.
 */

import type { SamplingParams } from '../../src-shared/synthesis';
import type { GraphOps } from './onnx/graph-builder';

export const MODEL_MANIFEST_VERSION = 1;
export const MODEL_MANIFEST_FILE = 'manifest.json';

export type BuildDtype = 'fp32' | 'fp16';
export type IoDtype = 'float32' | 'float16' | 'int64' | 'int32';

/** Dims of one decoder stack, read from config.json. */
/**
 * How a codec graph writes its transposed convolutions: 'conv-transpose' (ConvTranspose nodes) or
 * 'matmul' (a MatMul and an overlap-add each; same maths, not always the same bytes).
 */
export const CODEC_UPSAMPLE_FORMS = ['conv-transpose', 'matmul'] as const;
export type CodecUpsampleForm = (typeof CODEC_UPSAMPLE_FORMS)[number];

export interface TransformerDims {
  numLayers: number;
  hiddenSize: number;
  intermediateSize: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  rmsNormEps: number;
  ropeTheta: number;
  maxPositionEmbeddings: number;
  /** Output vocabulary: 3072 codec ids for the talker, 2048 codes per group for the code predictor. */
  vocabSize: number;
}

export interface TalkerDims extends TransformerDims {
  textVocabSize: number;
  textHiddenSize: number;
}

export interface CodePredictorDims extends TransformerDims {
  /** Width of the talker hidden state fed in (before small_to_mtp_projection; equal to hiddenSize for 0.6B). */
  inputSize: number;
  hasInputProjection: boolean;
}

/** Text-vocabulary ids (Qwen2 BPE). */
export interface TextTokenIds {
  imStart: number;
  imEnd: number;
  ttsPad: number;
  ttsBos: number;
  ttsEos: number;
}

/** Codec-vocabulary control ids (talker codec_embedding rows ≥ 2048). */
export interface CodecTokenIds {
  eos: number;
  think: number;
  nothink: number;
  thinkBos: number;
  thinkEos: number;
  pad: number;
  bos: number;
}

/** The checkpoint's generation_config.json: the per-request sampling params plus one model rule. */
export interface GenerationDefaults extends SamplingParams {
  /** EOS is blocked for this many new tokens (official generate's min_new_tokens). */
  minNewTokens: number;
}

export interface IoSpec {
  name: string;
  dtype: IoDtype;
  /** Numbers are fixed; strings are symbolic ('batch', 'seq', 'past', 'total'). */
  dims: (number | string)[];
  doc: string;
}

export interface GraphSpec {
  /** File name inside the built dir. */
  file: string;
  /** External weights file next to it, or null when the weights are inline. */
  externalDataFile: string | null;
  inputs: IoSpec[];
  outputs: IoSpec[];
  /** How to drive the graph, in a few sentences (padding side, positions, KV naming). */
  doc: string;
}

/** A raw row-major table the host gathers rows from: file bytes [byteOffset, byteOffset + byteLength). */
export interface TableSpec {
  file: string;
  dtype: 'float32' | 'float16';
  /** [numRows, rowSize], or [numTables, numRows, rowSize] for stacked tables. */
  shape: number[];
  byteOffset: number;
  byteLength: number;
  doc: string;
}

export interface SpeakerSpec {
  codecId: number;
  /** Language key used instead of chinese/auto for this speaker (spk_is_dialect), or null. */
  dialect: string | null;
}

export interface CodecFacts {
  sampleRateHz: number;
  samplesPerFrame: number;
  numQuantizers: number;
}

export interface ModelManifest {
  manifestVersion: typeof MODEL_MANIFEST_VERSION;
  builderVersion: string;
  /** sha256 over the checkpoint files that shape the graphs (hex). */
  checkpointHash: string;
  dtype: BuildDtype;
  /** Op set of the talker and code-predictor graphs (absent in builds before builder v4: 'portable'). */
  ops?: GraphOps;
  createdAt: string;
  ttsModelType: string;
  ttsModelSize: string;
  numCodeGroups: number;
  talker: TalkerDims;
  codePredictor: CodePredictorDims;
  textTokens: TextTokenIds;
  codecTokens: CodecTokenIds;
  speakers: Record<string, SpeakerSpec>;
  languages: Record<string, number>;
  generation: GenerationDefaults;
  graphs: {
    /** Prefill and decode (past length 0 for prefill), batched, KV in/out. */
    talker: GraphSpec;
    /** Capture-ready decode (builder v11 on): static shapes, one KV buffer bound as past and present. */
    talkerDecode?: GraphSpec;
    /** One code-predictor call per sub-step with KV (variant a). */
    codePredictorStep: GraphSpec;
    /** All 15 sub-steps in one call, sampling from host uniforms (variant b). */
    codePredictorLoop: GraphSpec;
    /** The loop graph's capture-ready form (builder v11 on): sampler K and rank mask from the host. */
    codePredictorLoopStatic?: GraphSpec;
    /** The static loop with plain-op attention (builder v13 on): what WebGPU captures. */
    codePredictorLoopPlain?: GraphSpec;
    /** Codec decoder: codes [batch, numQuantizers, frames] → PCM [batch, frames · samplesPerFrame]. */
    codec: GraphSpec;
    /** The same decoder fed new frames only, with carried state inputs/outputs (builder v9 on). */
    codecStream: GraphSpec;
    /** Capture-ready streaming codec (builder v12 on). */
    codecStreamStatic?: GraphSpec;
    /** The streaming codec with its transposed convs as MatMuls (builder v14 on): EngineConfig codec.upsample 'matmul'. */
    codecStreamMatMul?: GraphSpec;
    /** The capture-ready streaming codec, the same way (builder v14 on). */
    codecStreamStaticMatMul?: GraphSpec;
  };
  /** Facts of the speech tokenizer's decoder (from speech_tokenizer/config.json). */
  codec: CodecFacts;
  /** Which code-predictor graph the engine should use by default (measured; see docs/benchmarks.md). */
  defaultCodePredictor: 'step' | 'loop';
  embeddings: {
    /** text_projection(text_embedding(id)) for every text id: [textVocabSize, talker.hiddenSize]. */
    textProjected: TableSpec;
    /** Talker codec_embedding: [talker.vocabSize, talker.hiddenSize]. */
    codec: TableSpec;
    /** Code-predictor codec_embedding[0..numCodeGroups-2] stacked: [numCodeGroups-1, codePredictor.vocabSize, talker.hiddenSize]. */
    codePredictorCodec: TableSpec;
  };
  /**
   * Tokenizer files copied into the built dir (names relative to it): vocab + merges and/or tokenizerJson
   * (the runtime reads tokenizer.json first), tokenizerConfig when the checkpoint had one (optional).
   */
  files: {
    vocab?: string;
    merges?: string;
    tokenizerJson?: string;
    tokenizerConfig?: string;
  };
  /** Absolute path of the checkpoint this was built from; speech_tokenizer/ is read from there. */
  checkpointDir: string;
  /**
   * Base checkpoints only: the compiled speaker encoder (fp32, log-mel rows [B, T, melDim] → x-vector
   * [B, encDim], encDim = talker.hiddenSize). Absent for CustomVoice and VoiceDesign.
   */
  speakerEncoder?: { file: string; melDim: number; encDim: number; sampleRateHz: number };
  /**
   * Base checkpoints only: the speech tokenizer's compiled encoder (fp32, PCM [B, numSamples] at
   * sampleRateHz, numSamples a multiple of samplesPerFrame → codes [B, numQuantizers, numSamples /
   * samplesPerFrame]) for in-context cloning. Absent for CustomVoice and VoiceDesign.
   */
  speechEncoder?: { file: string; sampleRateHz: number; samplesPerFrame: number; numQuantizers: number };
}
