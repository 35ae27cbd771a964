/**
 * What a synthesis request is, what comes back, and the stream events in between.
 * Shared by the engine host, the main-side services, the HTTP API, the benchmark and the UI.
 * Types only. Per-request params live here; engine config (batch limits, providers) does not.
 */
import type { SerializedStudioError } from './errors';
import type { OutputLoudness } from './audio-format';
import type { SavedVoiceConditioning } from './contract/voices';

/** Sampling parameters, named after generation_config.json's keys in camelCase. */
export interface SamplingParams {
  doSample: boolean;
  temperature: number;
  topK: number;
  topP: number;
  repetitionPenalty: number;
  subtalkerDoSample: boolean;
  subtalkerTemperature: number;
  subtalkerTopK: number;
  subtalkerTopP: number;
  maxNewTokens: number;
}

export type RequestPriority = 'interactive' | 'bulk';

/**
 * Which vendor's reading of SSML applies: the W3C's SSML 1.1, Azure, Google Cloud TTS or Amazon
 * Polly; 'auto' detects it from namespaces and vendor elements and says what it chose.
 */
export type SsmlDialect = 'ssml11' | 'azure' | 'google' | 'polly' | 'auto';
export const SSML_DIALECTS: readonly SsmlDialect[] = ['auto', 'ssml11', 'azure', 'google', 'polly'];

/** How an SSML request is read. Defaults: dialect 'auto', lenient false (strict: problems are errors). */
export interface SsmlRequestOptions {
  dialect?: SsmlDialect;
  /** true: unknown markup and out-of-range values are dropped or clamped with warnings instead of failing. */
  lenient?: boolean;
}

/** One request: plain text or an SSML document. */
export interface SynthesisRequest {
  /** Client-chosen id (unique among in-flight requests); used for cancel and events. */
  requestId: string;
  /** Plain text, or SSML when `inputFormat` is 'ssml'. */
  input: string;
  inputFormat: 'text' | 'ssml';
  /** Speaker name as in the checkpoint's spk_id (lower-case, e.g. 'ryan'). */
  voice: string;
  /** 'auto' or a key of the checkpoint's codec_language_id (e.g. 'english'). */
  language: string;
  seed: number;
  /** Instruct text; only 1.7B CustomVoice / VoiceDesign use it (0.6B ignores it with a warning). */
  instruct?: string;
  /**
   * Base checkpoints (voice clone, x-vector mode): the speaker embedding of a reference clip, talker.hiddenSize
   * values from the model's speaker encoder. Required by Base, refused by the other types.
   */
  speakerEmbedding?: readonly number[];
  /**
   * Base checkpoints, in-context mode (generate_voice_clone's default, with speakerEmbedding): the
   * reference clip's speech-tokenizer codes [numFrames][16] and its transcript; both or neither.
   * A ClonePrompt (voice-clone.ts) carries all three.
   */
  refCodes?: readonly (readonly number[])[];
  refText?: string;
  /**
   * Saved voices (the studio's voice library) that `voice` or an SSML <voice name> may name by name
   * or id, with what makes each speak. Main fills it in from the library; clients never send it.
   */
  savedVoices?: readonly SavedVoiceConditioning[];
  params?: Partial<SamplingParams>;
  priority?: RequestPriority;
  /** Optional deadline after which the request is cancelled with 'timeout'. */
  deadlineMs?: number;
  /** Stream audio chunks as they are decoded. */
  stream?: boolean;
  /** How SSML input is read (ignored for plain text). */
  ssmlOptions?: SsmlRequestOptions;
  /**
   * SSML only: synthesise just this dialogue turn of the document (a speaker's stretch: it ends
   * where the voice or language changes) for a new take of it: all its parts (one engine sequence
   * per stretch with its own prosody), with the breaks, marks and audio between them. The result
   * holds that turn alone, reported as turn 0 (turnSpans, progress and audio events), without the
   * breaks around it.
   */
  turnIndex?: number;
  /**
   * The whole recording's loudness target and true-peak ceiling (one gain, no limiter); absent:
   * the host's default (DEFAULT_OUTPUT_LOUDNESS). Applies to plain text and SSML alike. null: no
   * gain, the model's samples (still measured in the trace) — for a caller that normalises a larger
   * whole itself, as a long render does once over all its parts. Main-side only: the HTTP API and
   * the contract schemas take a target, never null.
   */
  loudness?: OutputLoudness | null;
}

export interface SynthesisTimings {
  numPromptTokens: number;
  numFrames: number;
  queueWaitMs: number;
  latencyFirstAudioMs: number;
  latencyTotalMs: number;
  audioDurationMs: number;
  /** Real-time factor: latencyTotalMs / audioDurationMs (lower is faster). */
  rtf: number;
}

/** Post-processing trace of one part of a turn (SSML prosody and loudness); a turn lists its parts in order. */
export interface TurnTrace {
  /** The dialogue turn (as turnSpans) this part belongs to. */
  turnIndex: number;
  /** 0, 1, 2… within the turn: each stretch with its own prosody, or after a break, is a part. Absent: the audio pipeline's own per-part trace. */
  partIndex?: number;
  voice: string;
  language: string;
  rate: number;
  pitchSemitones: number;
  gainDb: number;
  durationMs: number;
  breakBeforeMs: number;
}

export interface ProcessingTrace {
  turns: TurnTrace[];
  loudnessMeasuredLufs: number | null;
  loudnessFinalLufs: number | null;
  truePeakFinalDbtp: number | null;
}

export interface MarkTimestamp {
  name: string;
  timeMs: number;
}

export interface SynthesisResult {
  requestId: string;
  sampleRateHz: number;
  numSamples: number;
  /** Mono PCM float in [-1, 1]. Transferred, not copied, across message ports. */
  pcm: Float32Array;
  timings: SynthesisTimings;
  effectiveParams: SamplingParams & { seed: number; voice: string; language: string };
  warnings: string[];
  truncated: boolean;
  modelHash: string;
  marks: MarkTimestamp[];
  trace: ProcessingTrace | null;
  /** Dialogue turn boundaries in samples, in order (a turn's inner breaks lie inside its span); one entry for plain text. */
  turnSpans: { turnIndex: number; startSample: number; endSample: number }[];
}

/** Streamed audio, keyed by dialogue turn: a turn's parts stream one after another (as the model made them, before prosody and breaks). */
export interface AudioChunk {
  requestId: string;
  turnIndex: number;
  /** Offset of this chunk's first sample within its turn's streamed audio. */
  startSample: number;
  sampleRateHz: number;
  pcm: Float32Array;
}

/** Progress of one dialogue turn: its parts' frames added up. */
export interface SynthesisProgress {
  requestId: string;
  turnIndex: number;
  numFramesDone: number;
  numFramesEstimated: number;
}

export type SynthesisOutcome =
  | { status: 'done'; result: SynthesisResult }
  | { status: 'cancelled'; requestId: string }
  | { status: 'failed'; requestId: string; error: SerializedStudioError };

export interface VoiceInfo {
  name: string;
  description: string;
  nativeLanguage: string;
  dialect: string | null;
}

export interface ModelInfo {
  id: string;
  displayName: string;
  path: string;
  kind: 'custom_voice' | 'voice_design' | 'base';
  size: string;
  synthetic: boolean;
  supportsInstruct: boolean;
  voices: VoiceInfo[];
  languages: string[];
  defaultParams: SamplingParams;
  sampleRateHz: number;
  modelHash: string;
}

export interface EngineStatus {
  state: 'starting' | 'ready' | 'failed' | 'restarting' | 'draining';
  /** Studio version plus graph builder version of the loaded model ('' before one is loaded). */
  engineVersion: string;
  provider: string;
  providerReason: string;
  queueDepth: number;
  numWaiting: number;
  numRunning: number;
  numInFlight: number;
  gpuLeased: boolean;
  numCompleted: number;
  numFailed: number;
  numCancelled: number;
  numRejected: number;
  numRestarts: number;
  model: ModelInfo | null;
  /** One entry per engine host when the studio runs several (engine-pool.ts); absent with one. */
  engines?: EngineSummary[];
  /** The warm-up the engine ran before it said ready; absent when it ran none (EngineConfig.warmUp). */
  warmUp?: EngineWarmUp;
  /** The prompt-prefix KV cache of the engine (EngineConfig.prefixCache); absent above the engine where none is reported. */
  prefixCache?: EnginePrefixCache;
  /** The engine's steps so far and the host's part of their time; absent above the engine where none is reported. */
  steps?: EngineSteps;
  /** The resolved plan the engine runs (provider, capture, batch limits, buckets); absent above the engine where none is reported. */
  plan?: EnginePlanSummary;
}

/**
 * The steps an engine ran (idle ones aside), as running totals a reader differences over its own window: their
 * time from the scheduler's pick to the last event, and the host's part of it, everything outside the model stages'
 * runs (scheduling, sampling, embedding lookups, bookkeeping; issue 42's host ms per step).
 */
export interface EngineSteps {
  numSteps: number;
  totalStepMs: number;
  totalHostMs: number;
}

/** What an engine's resolved plan runs (engine-plan.ts), as the start-up log and a benchmark report name it. */
export interface EnginePlanSummary {
  provider: string;
  /** graphCapture resolved: plain graphs, bound buffers, or bound and captured. */
  capture: 'off' | 'bound' | 'on';
  /** How the batch limits were picked: the provider's wide limits, the narrow defaults, or set in the config. */
  concurrency: 'wide' | 'narrow' | 'set';
  maxRunningSequences: number;
  maxPrefillSequences: number;
  shapeBuckets: 'on' | 'off';
  talkerRows: number;
  talkerPrefillRows: number;
  codePredictorRows: number;
}

/** Prompt prefixes (model, voice, language, instruction) whose talker KV a repeated voice copies instead of prefilling. */
export interface EnginePrefixCache {
  numHits: number;
  numMisses: number;
  numEntries: number;
  numBytes: number;
  maxBytes: number;
  numEvictions: number;
}

/** An engine's start-up warm-up: every shape bucket it can use opened and run once, so no request pays a first use. */
export interface EngineWarmUp {
  durationMs: number;
  /** Buckets run: talker decode, talker prefill, code predictor and streaming codec (both state sets each). */
  numBuckets: number;
  /** Buckets the stages can use past graphCapture.maxBuckets, left cold (a request opening one pays its first use). */
  numBucketsLeftOut: number;
}

/** One engine host of several (one per device): what the dashboard and /status show of it. */
export interface EngineSummary {
  index: number;
  /** What it runs on, e.g. 'cuda:1' or 'cpu#0'. */
  label: string;
  pid: number | null;
  hostState: 'starting' | 'ready' | 'restarting' | 'failed' | 'disposed';
  ready: boolean;
  provider: string;
  /** Requests the router has sent it that have not answered yet. */
  numInFlight: number;
  numRunning: number;
  numWaiting: number;
  numCompleted: number;
  numRestarts: number;
}
