/**
 * The bench service of the studio contract: configure and start a sustained-concurrency run
 * (benchmark-protocol.md), stop it, watch live samples, read the protocol's tables at the end,
 * export JSON / Markdown / HTML, and list past runs. Types and channel names only.
 */

export const BENCH_CHANNELS = Object.freeze({
  startRun: 'studio:bench.start',
  stopRun: 'studio:bench.stop',
  listRuns: 'studio:bench.listRuns',
  getRun: 'studio:bench.getRun',
  exportRun: 'studio:bench.export',
} as const);

export const BENCH_EVENTS = Object.freeze({
  onDidSample: 'studio:bench.onDidSample',
  onDidFinishRun: 'studio:bench.onDidFinishRun',
} as const);

export type BenchWorkload = 'plain' | 'processed';

export interface BenchVariantInput {
  name: string;
  /** 'inproc' measures this studio's engine host; 'http' any endpoint at `url`. */
  target: 'inproc' | 'http';
  url?: string;
}

export interface BenchRunInput {
  variants: BenchVariantInput[];
  workloads: BenchWorkload[];
  clientCounts: number[];
  windowMs: number;
  numPasses: number;
  /** The voice every request speaks in: a model speaker or a saved voice's name or id; default the protocol's ('ryan'). */
  voice?: string;
}

/**
 * The valid values of a run's numbers: the request schema checks them and the Benchmark form's fields
 * take their bounds from here. Window in milliseconds; client counts per measurement.
 */
export const BENCH_RUN_LIMITS = Object.freeze({
  numClients: Object.freeze({ min: 1, max: 512, integer: true }),
  maxClientCounts: 16,
  windowMs: Object.freeze({ min: 1_000, max: 3_600_000, integer: true }),
  numPasses: Object.freeze({ min: 1, max: 10, integer: true }),
});

/** One live sample, about 4 per second while a measurement runs. */
export interface BenchSample {
  runId: string;
  elapsedMs: number;
  /** Which measurement is running, e.g. "pass 1 · before · plain · 2 clients". */
  label: string;
  phase: 'warmup' | 'golden' | 'fill' | 'window' | 'drain' | 'done';
  reqPerS: number;
  audioSecondsPerS: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  /** First audio (send → first audio) of the same recent completions; absent from an older main. */
  firstAudioP50Ms?: number | null;
  firstAudioP95Ms?: number | null;
  queueDepth: number;
  numOutstanding: number;
  gpuUtilPct: number | null;
  vramMiB: number | null;
  /** Why the GPU figures are null (no nvidia-smi, no working driver); null or absent while a GPU sampler reports. */
  gpuNote?: string | null;
}

/** One summary row: its req/s and completions come from the valid passes (all passes where none is valid). */
export interface BenchSummaryRow {
  workload: string;
  numClients: number;
  beforeReqPerS: number;
  afterReqPerS: number | null;
  throughputChange: number | null;
  passChangeMin: number | null;
  passChangeMax: number | null;
  numCompletedBefore: number;
  numCompletedAfter: number | null;
}

export interface BenchPassRow {
  pass: number;
  variant: string;
  workload: string;
  numClients: number;
  reqPerS: number;
  /** Seconds of audio produced per second of wall time in the window. */
  audioSecondsPerS: number;
  /** Median real-time factor (synthesis time / audio time; below 1 is faster than real time). */
  rtfMedian: number | null;
  /** Median send-to-first-audio latency (null where the target does not stream). */
  firstAudioMedianS: number | null;
  meanOutstanding: number;
  meanWaiting: number;
  latencyMedianS: number;
  latencyP95S: number;
  latencyP99S: number;
  /** Requests sent in the measurement, and those that failed: error answers, rejections (busy/429), timeouts. */
  numRequests: number;
  numErrors: number;
  numRejected: number;
  numTimeouts: number;
  gpuUtilMeanPct: number | null;
  vramPeakMiB: number | null;
  valid: boolean;
  /** Why the pass is not valid, each naming the fix (e.g. a window too short to finish a request). */
  invalidReasons?: string[];
}

export type BenchRunStatus = 'running' | 'done' | 'stopped' | 'failed';

export interface BenchRunView {
  runId: string;
  status: BenchRunStatus;
  startedAtMs: number;
  finishedAtMs: number | null;
  input: BenchRunInput;
  summary: BenchSummaryRow[];
  passes: BenchPassRow[];
  error: string | null;
}

export interface BenchApi {
  [BENCH_CHANNELS.startRun]: { request: BenchRunInput; response: { runId: string } };
  [BENCH_CHANNELS.stopRun]: { request: { runId: string }; response: { stopped: boolean } };
  [BENCH_CHANNELS.listRuns]: { request: Record<string, never>; response: BenchRunView[] };
  [BENCH_CHANNELS.getRun]: { request: { runId: string }; response: BenchRunView };
  [BENCH_CHANNELS.exportRun]: {
    request: { runId: string; format: 'json' | 'markdown' | 'html' };
    response: { fileName: string; mimeType: string; text: string };
  };
}

export interface BenchEvents {
  [BENCH_EVENTS.onDidSample]: BenchSample;
  [BENCH_EVENTS.onDidFinishRun]: BenchRunView;
}
