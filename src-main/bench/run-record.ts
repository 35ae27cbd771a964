/**
 * The versioned JSON run record: everything a benchmark run measured, plus every sample
 * (requests, status, GPU), so reports can be re-rendered and runs compared later.
 * Types only, plus the schema version and harness version. Times are ms since the run started.
 */
import type { EnginePlanSummary, EngineSteps } from '../../src-shared/synthesis';
import type { MachineInfo } from '../telemetry/machine-info';
import type { GpuSample } from '../telemetry/nvidia-smi-parser';
import type { LatencySummary } from '../telemetry/percentile';
import type { BenchMode } from './bench-config';

export const BENCH_RUN_SCHEMA_VERSION = 1;
export const HARNESS_VERSION = 'studio-bench/1.0.0';

export type RequestPhase = 'warmup' | 'golden' | 'fill' | 'window' | 'drain' | 'burst' | 'open';
export type RequestOutcome = 'ok' | 'mismatch' | 'error' | 'rejected' | 'timeout' | 'cancelled' | 'dropped';

export interface ByteMismatch {
  /** First differing byte offset (the shorter length when one is a prefix of the other). */
  byteOffset: number;
  expectedByte: number | null;
  actualByte: number | null;
  numGoldenBytes: number;
  numBytes: number;
}

export interface RequestSample {
  measurementId: string;
  /** Order of sending within the measurement, from 0. */
  requestIndex: number;
  clientIndex: number;
  phase: RequestPhase;
  /** Open loop: the arrival-clock time this request was due; equals sendMs otherwise. */
  scheduledMs: number;
  sendMs: number;
  /** Absolute time of the first audio byte (streaming targets only). */
  firstByteMs: number | null;
  endMs: number;
  status: number;
  outcome: RequestOutcome;
  numBytes: number;
  audioDurationMs: number | null;
  mismatch: ByteMismatch | null;
  errorMessage: string | null;
}

export interface StatusSample {
  measurementId: string;
  tMs: number;
  queueDepth: number;
  numWaiting: number;
  numRunning: number;
  /** The engine's step totals at that time, where its status gives them. */
  steps?: EngineSteps;
}

export interface GoldenRecord {
  pass: number;
  variant: string;
  workload: string;
  sha256: string;
  numBytes: number;
  audioDurationMs: number | null;
  latencyMs: number;
  /** Equal to the same variant's golden from pass 1 (null on pass 1). */
  matchesFirstPass: boolean | null;
  /** Set when the golden request itself failed. */
  errorMessage: string | null;
}

export interface OutcomeCounts {
  numRequests: number;
  numOk: number;
  numMismatches: number;
  numErrors: number;
  numRejected: number;
  numTimeouts: number;
  numCancelled: number;
  numDropped: number;
}

/** One variant × workload × client count closed-loop measurement (also each ramp step). */
export interface ClosedMeasurement {
  id: string;
  kind: 'closed' | 'ramp-step';
  pass: number;
  variant: string;
  workload: string;
  numClients: number;
  fillStartMs: number;
  windowStartMs: number | null;
  windowEndMs: number | null;
  drainEndMs: number;
  windowMs: number;
  numFill: number;
  numWindow: number;
  numDrain: number;
  numCompletedInWindow: number;
  reqPerS: number;
  audioSecondsPerS: number;
  latency: LatencySummary | null;
  firstAudio: LatencySummary | null;
  rtfMedian: number | null;
  rtfP95: number | null;
  meanOutstanding: number;
  meanQueueDepth: number | null;
  meanWaiting: number | null;
  meanRunning: number | null;
  numStatusSamples: number;
  /** Host ms per engine step over the steady window, from the status's step totals (null: none reported, or no step); absent in older records. */
  hostMsPerStep?: number | null;
  /** Over fill + window + drain, as the reference does. */
  meanGpuUtilPct: number | null;
  peakVramMiB: number | null;
  numGpuSamples: number;
  counts: OutcomeCounts;
  valid: boolean;
  invalidReasons: string[];
  firstMismatch: (ByteMismatch & { requestIndex: number; clientIndex: number; phase: RequestPhase; sendMs: number }) | null;
  goldenSha256: string | null;
}

export interface BurstMeasurement {
  id: string;
  pass: number;
  variant: string;
  workload: string;
  numRequests: number;
  startMs: number;
  drainMs: number;
  latency: LatencySummary | null;
  counts: OutcomeCounts;
  valid: boolean;
  invalidReasons: string[];
}

export interface RampResult {
  pass: number;
  variant: string;
  workload: string;
  stepIds: string[];
  steps: { numClients: number; reqPerS: number; latencyMedianMs: number | null; errorRate: number }[];
  knee: { numClients: number; reqPerS: number } | null;
  kneeNote: string;
}

export interface OpenLoopMeasurement {
  id: string;
  pass: number;
  variant: string;
  workload: string;
  ratePerS: number;
  latencyObjectiveMs: number;
  durationMs: number;
  numArrivals: number;
  startMs: number;
  endMs: number;
  achievedReqPerS: number;
  goodputReqPerS: number;
  /** Largest lateness of an actual send behind its scheduled time (timer lag on the client). */
  maxSendLagMs: number;
  latency: LatencySummary | null;
  counts: OutcomeCounts;
  valid: boolean;
  invalidReasons: string[];
}

export interface VariantInfo {
  name: string;
  description: string | null;
  targetName: string;
  engineVersion: string | null;
  provider: string | null;
  modelHash: string | null;
  statusAvailable: boolean;
  /** The engine plan the target's status named at the start (absent in records written before it was kept). */
  plan?: EnginePlanSummary | null;
}

export interface BenchRunRecord {
  schemaVersion: typeof BENCH_RUN_SCHEMA_VERSION;
  runId: string;
  startedAt: string;
  finishedAt: string;
  harnessVersion: string;
  harnessRevision: string | null;
  mode: BenchMode;
  machine: MachineInfo;
  /** The serialisable part of the resolved BenchConfig (variants by name). */
  config: Record<string, unknown>;
  variants: VariantInfo[];
  telemetry: { gpuAvailable: boolean; gpuNote: string | null; gpuIntervalMs: number; statusIntervalMs: number };
  goldens: GoldenRecord[];
  /** Per workload: are the variants' pass-1 goldens identical (null with one variant)? */
  goldensIdenticalAcrossVariants: Record<string, boolean | null>;
  /** sha256 over the variant's goldens (workloads in name order), per pass. */
  inferenceHashes: { pass: number; variant: string; sha256: string }[];
  measurements: ClosedMeasurement[];
  bursts: BurstMeasurement[];
  ramps: RampResult[];
  openLoops: OpenLoopMeasurement[];
  samples: { requests: RequestSample[]; status: StatusSample[]; gpu: GpuSample[] };
  caveats: string[];
  cancelled: boolean;
  errors: string[];
}
