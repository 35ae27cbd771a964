/**
 * What the benchmark measures: a BenchTarget sends one synthesis request and returns the complete
 * response bytes with timings. Targets: http (http-target.ts) and inproc (inproc-target.ts).
 * The harness never looks inside a target; it compares bytes, counts statuses and samples status().
 */
import type { EnginePlanSummary, EngineSteps, SsmlRequestOptions } from '../../src-shared/synthesis';

export interface BenchSynthesisRequest {
  text?: string;
  ssml?: string;
  /** How the SSML is read (dialect, lenient); sent as ssml_dialect / lenient over HTTP. */
  ssmlOptions?: SsmlRequestOptions;
  voice: string;
  seed: number;
  language?: string;
  /** Ask the target to stream audio; firstByteMs is then the first-audio latency. */
  stream: boolean;
}

export interface BenchResponse {
  /** Complete response body (WAV for a successful request). */
  bytes: Uint8Array;
  /** ms from send to the first audio: the first response byte when streaming over HTTP, the engine host's first
   *  decoded chunk in process (streamed or not); null when the target cannot tell. */
  firstByteMs: number | null;
  /** HTTP status, or its equivalent for in-process targets (200 ok, 429 rejected, …). */
  status: number;
  /** Audio length of a successful response (from the WAV header or the engine); null if unknown. */
  audioDurationMs: number | null;
  /** A short reason for a non-200 status, for the report. */
  errorMessage?: string;
}

export interface BenchTargetStatus {
  queueDepth: number;
  numWaiting: number;
  numRunning: number;
  /** The engine's step totals (steps, their ms, the host's ms of them), where its status gives them. */
  steps?: EngineSteps;
}

export interface BenchTargetDescription {
  engineVersion: string | null;
  provider: string | null;
  modelHash: string | null;
  /** The engine plan its status names (provider, capture, batch limits, buckets); null where it names none. */
  plan?: EnginePlanSummary | null;
}

export interface BenchTarget {
  readonly name: string;
  /** Rejects only for transport failures and aborts; any answer from the target resolves. */
  synthesize(request: BenchSynthesisRequest, signal: AbortSignal): Promise<BenchResponse>;
  /** Queue state for the 0.05 s sampler; null (or absent) when the target cannot tell. */
  status?(): Promise<BenchTargetStatus | null>;
  /** Versions and provider for the run record. */
  describe?(): Promise<BenchTargetDescription>;
  dispose(): Promise<void> | void;
}

/**
 * One configuration under test: two targets, or one target under two engine configs.
 * setup runs after the target is created and before warm-up; teardown before dispose.
 */
export interface BenchVariant {
  name: string;
  description?: string;
  createTarget(): Promise<BenchTarget> | BenchTarget;
  setup?(target: BenchTarget): Promise<void> | void;
  teardown?(target: BenchTarget): Promise<void> | void;
}
