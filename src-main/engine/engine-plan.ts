/**
 * The resolved engine plan: every 'auto' of an EngineConfig replaced by what will run on one provider
 * with one build, made once per provider candidate at engine start from the config, the provider's
 * capabilities (runtime/providers.ts) and the manifest's facts. Pure. createEngine opens the stages
 * from the plan and logs it resolved (describeEnginePlan), never the config's 'auto'.
 */
import type { EnginePlanSummary } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-format/manifest';
import type { CodecUpsampleForm } from '../model-format/manifest';
import { defaultConcurrency, describeEngineConfig, type EngineConfig } from './engine-config';
import { kvBytesPerPosition } from './kv/kv-capacity';
import { PROVIDERS, boundBufferLocation, type BufferLocation, type ProviderName } from './runtime/providers';
import { ADAPTERS, chooseRuntime, defaultRuntimeName, type RuntimeName, type SessionOptions } from './runtime/runtime';

/** The manifest facts a plan reads. */
export interface PlanFacts {
  talker: Pick<ModelManifest['talker'], 'hiddenSize' | 'numLayers' | 'numKvHeads' | 'headDim'>;
  dtype: ModelManifest['dtype'];
  defaultCodePredictor: ModelManifest['defaultCodePredictor'];
}

/** The machine facts a plan reads: the device's memory (nvidia-smi's total for the GPU; null where unknown). */
export interface PlanMachine {
  deviceMemoryBytes: number | null;
}

/** The batch limits and bucket rows the plan picked, and why (the start-up log and the bench report name it). */
export interface ConcurrencyPlan {
  kind: 'wide' | 'narrow' | 'set';
  maxRunningSequences: number;
  maxPrefillSequences: number;
  talkerRows: number;
  codePredictorRows: number;
  reason: string;
}

/** An EngineConfig with nothing left to resolve: the provider named, every 'auto' and 'manifest' replaced. */
export type ResolvedEngineConfig = Omit<EngineConfig, 'provider' | 'codePredictor' | 'codecBatching' | 'codec' | 'shapeBuckets' | 'kvCache' | 'graphCapture' | 'warmUp' | 'maxRunningSequences' | 'maxPrefillSequences'> & {
  maxRunningSequences: number;
  maxPrefillSequences: number;
  /** Warm (capture) every bucket before the engine says ready (warm-up-plan.ts, Engine.warmUp). */
  warmUp: 'on' | 'off';
  provider: ProviderName;
  codePredictor: 'step' | 'loop';
  codecBatching: 'on' | 'off';
  codec: EngineConfig['codec'] & { mode: 'window' | 'stream'; stateStore: 'host' | 'device'; upsample: CodecUpsampleForm };
  graphCapture: EngineConfig['graphCapture'] & { mode: GraphCaptureMode; codec: 'on' | 'off'; codecSessions: 'shared' | 'per-bucket' };
  shapeBuckets: Omit<EngineConfig['shapeBuckets'], 'talkerRows' | 'talkerPrefillRows' | 'codePredictorRows'> & { mode: 'on' | 'off'; talkerRows: number; talkerPrefillRows: number; codePredictorRows: number };
  kvCache: EngineConfig['kvCache'] & { mode: 'host' | 'device' };
};

/** A resolved graphCapture.mode. */
export type GraphCaptureMode = 'off' | 'bound' | 'on';

/** The stages that run their capture-ready graphs over bound buffers (graphCapture 'bound' or 'on'). */
export interface CapturePlan {
  mode: 'bound' | 'on';
  /** Provider options of every bound step session: the provider's capture options with 'on' (none with 'bound', or where it captures nothing). */
  options: Record<string, string>;
  /** Each gpu_graph_id runs in a session of its own (capture on a provider that keeps one captured graph per session). */
  perGraph: boolean;
  /** Each shape bucket of the stage runs in a session of its own: the uncaptured codec where the provider's Conv plans follow the last shape. */
  sessionPerBucket: { codec: boolean };
  /** Where the bound buffers live: the provider's device memory, or host memory where it has none. */
  location: BufferLocation;
  maxBuckets: number;
  /** The stages whose graphs are captured (with 'on'); a stage left out runs its bound graph uncaptured (CUDA's streaming codec). */
  captured: { talker: boolean; codePredictor: boolean; codec: boolean };
  /** The capture-ready graph of each stage; null: the stage runs its plain graph (the step code predictor, the window codec). */
  graphs: {
    talker: 'talkerDecode';
    codePredictor: 'codePredictorLoopStatic' | 'codePredictorLoopPlain' | null;
    codec: 'codecStreamStatic' | 'codecStreamStaticMatMul' | null;
  };
}

export interface EnginePlan {
  provider: ProviderName;
  resolved: ResolvedEngineConfig;
  concurrency: ConcurrencyPlan;
  /** The machine facts it was planned on (the warm-up plan keeps its buckets within the device's memory). */
  machine: PlanMachine;
  /** The options every stage session starts from: provider, device pin, provider options, threads, adapter. */
  sessionOptions: SessionOptions;
  /** The adapter those options open on (a stage whose own options need another moves there: runtime.ts chooseRuntime). */
  runtime: RuntimeName;
  /** The talker's presents stay on the device between steps (device-resident KV where outputs can stay there). */
  talkerOutputsOnDevice: boolean;
  /** The codec graph the plain (unbound) stage opens: the window graph, or the streaming graph in the config's upsample form. */
  codecGraph: 'codec' | 'codecStream' | 'codecStreamMatMul';
  capture: CapturePlan | null;
}

/**
 * Buckets on or off, and their row counts: on a provider whose kernels vary with any row count
 * (fullRowBuckets), codec runs also take exactly talkerRows rows (codec calls of at most that many
 * rows, codecMaxRowFrames = talkerRows, so any frame count, each padded to it). Prefill runs one row
 * each unless talkerPrefillRows names a count (every prefill run then has that many; any fixed count keeps
 * a sequence's bytes independent of its neighbours). One row on CUDA too: on an H100 one-row prefill gave one
 * stream's first audio in 60 ms against 450 ms for eight padded rows, side by side (2026-12-07, docs/benchmarks.md;
 * timing only: that run's bytes were wrong for another reason, and the valid re-run is pending).
 */
export function resolveBucketRows(config: Pick<EngineConfig, 'shapeBuckets'>, provider: ProviderName, rows: Pick<ConcurrencyPlan, 'talkerRows' | 'codePredictorRows'>): ResolvedEngineConfig['shapeBuckets'] {
  const on = resolveShapeBuckets(config, provider);
  const asked = config.shapeBuckets.talkerPrefillRows;
  const fullRows = on && PROVIDERS[provider].fullRowBuckets;
  const b = { ...config.shapeBuckets, talkerRows: rows.talkerRows, talkerPrefillRows: asked === 'auto' ? 1 : asked, codePredictorRows: rows.codePredictorRows };
  if (!fullRows) return { ...b, mode: on ? 'on' : 'off' };
  return { ...b, mode: 'on', codecMinRows: b.talkerRows, codecMaxRowFrames: b.talkerRows };
}

const GIB = 1024 ** 3;
const gib = (bytes: number) => `${(bytes / GIB).toFixed(1)} GiB`;

/**
 * The 'auto' counts (maxRunningSequences, maxPrefillSequences, talkerRows, codePredictorRows): for workload
 * 'server', the provider table's wide limits where it has them and half the device's memory holds the wide running set's KV at full
 * length (maxRunningSequences × maxSequenceTokens positions; half, as a host gives its KV pool half the free
 * memory), else defaultConcurrency(). The running limit decides: set to a number, the other 'auto' counts take the
 * narrow defaults; any count set wins on its own; prefill never exceeds running.
 */
export function resolveConcurrency(config: Pick<EngineConfig, 'maxRunningSequences' | 'maxPrefillSequences' | 'shapeBuckets' | 'maxSequenceTokens' | 'workload'>, provider: ProviderName, facts: Parameters<typeof kvBytesPerPosition>[0], machine: PlanMachine): ConcurrencyPlan {
  const asked = { maxRunningSequences: config.maxRunningSequences, maxPrefillSequences: config.maxPrefillSequences, talkerRows: config.shapeBuckets.talkerRows, codePredictorRows: config.shapeBuckets.codePredictorRows };
  const { label, wide } = PROVIDERS[provider];
  const wideKvBytes = wide ? wide.maxRunningSequences * config.maxSequenceTokens * kvBytesPerPosition(facts) : 0;
  let kind: ConcurrencyPlan['kind'] = 'narrow';
  let reason: string;
  if (asked.maxRunningSequences !== 'auto') [kind, reason] = ['set', "maxRunningSequences set in the engine config; other 'auto' counts take the narrow defaults"];
  else if (!wide) reason = `${label} has no wide limits in the provider table`;
  else if (config.workload !== 'server') reason = "interactive use keeps one stream's steps short (a 64-row step costs one stream ~1.7×); `studio serve` (workload 'server') runs wide";
  else if (machine.deviceMemoryBytes === null) reason = `the device's memory is unknown (no nvidia-smi reading); set maxRunningSequences to run wider`;
  else if (wideKvBytes > machine.deviceMemoryBytes / 2) reason = `${wide.maxRunningSequences} sequences of ${config.maxSequenceTokens} tokens need ${gib(wideKvBytes)} of KV, more than half the device's ${gib(machine.deviceMemoryBytes)}`;
  else [kind, reason] = ['wide', `${label} with ${gib(machine.deviceMemoryBytes)} of device memory holds ${wide.maxRunningSequences} sequences' KV (${gib(wideKvBytes)})`];
  const picked = kind === 'wide' && wide ? wide : defaultConcurrency();
  const pick = (key: keyof typeof asked) => (asked[key] === 'auto' ? picked[key] : (asked[key] as number));
  const maxRunningSequences = pick('maxRunningSequences');
  return { kind, maxRunningSequences, maxPrefillSequences: Math.min(pick('maxPrefillSequences'), maxRunningSequences), talkerRows: pick('talkerRows'), codePredictorRows: pick('codePredictorRows'), reason };
}

/**
 * ORT intra-op threads: 0 (auto) is one thread for small graphs, where ORT's default pool only spins
 * (tiny model, 2 shared cores: 2,474 ms → 386 ms for 40 frames, docs/benchmarks.md); ORT's default (0) for real sizes.
 */
export function resolveIntraOpThreads(config: Pick<EngineConfig, 'intraOpNumThreads'>, facts: Pick<PlanFacts, 'talker'>): number {
  return config.intraOpNumThreads > 0 ? config.intraOpNumThreads : facts.talker.hiddenSize < 512 ? 1 : 0;
}

/** 'auto' batches the codec except where a row was measured to differ from its solo decode (threaded kernels of providers that have them). */
export function resolveCodecBatching(config: Pick<EngineConfig, 'codecBatching'>, provider: ProviderName, numThreads: number): boolean {
  if (config.codecBatching !== 'auto') return config.codecBatching === 'on';
  return !PROVIDERS[provider].threadedRowsDiffer || numThreads === 1;
}

/** 'auto' uses shape buckets where the provider is not batch-invariant without them (GPUs; CPU kernels were measured batch-invariant). */
export function resolveShapeBuckets(config: Pick<EngineConfig, 'shapeBuckets'>, provider: ProviderName): boolean {
  if (config.shapeBuckets.mode !== 'auto') return config.shapeBuckets.mode === 'on';
  return !PROVIDERS[provider].batchInvariant;
}

/**
 * 'auto' streams on every provider: faster than windows on CPU (0.215× the codec time) and, with the
 * state kept on the device, on WebGPU (0.46–0.69× for 48-frame requests, docs/benchmarks.md).
 */
export function resolveCodecMode(config: Pick<EngineConfig, 'codec'>): 'window' | 'stream' {
  return config.codec.mode === 'auto' ? 'stream' : config.codec.mode;
}

/**
 * 'auto' keeps the streaming codec's state on the device where outputs can stay there (WebGPU, as the
 * talker's KV is), on the host elsewhere and whenever graphCapture is on (the bound form stages its state
 * from a host record).
 */
export function resolveCodecStateStore(config: Pick<EngineConfig, 'codec'>, provider: ProviderName, capture: GraphCaptureMode): 'host' | 'device' {
  if (config.codec.stateStore !== 'auto') return config.codec.stateStore;
  if (capture !== 'off') return 'host';
  return PROVIDERS[provider].gpuBufferOutputs ? 'device' : 'host';
}

/**
 * 'auto' keeps the talker's KV on the device where outputs can stay there (WebGPU: presents fed back on
 * the GPU), on the host elsewhere and whenever graphCapture is on (its buffers are staged from the pool).
 */
export function resolveKvCacheMode(config: Pick<EngineConfig, 'kvCache'>, provider: ProviderName, capture: GraphCaptureMode): 'host' | 'device' {
  if (config.kvCache.mode !== 'auto') return config.kvCache.mode;
  if (capture !== 'off') return 'host';
  return PROVIDERS[provider].gpuBufferOutputs ? 'device' : 'host';
}

/**
 * 'auto' captures where the provider table says capture is its fastest form (CUDA) and nothing asks for
 * device-resident KV or codec state (which only the plain graphs keep); 'off' elsewhere.
 */
export function resolveGraphCapture(config: Pick<EngineConfig, 'graphCapture' | 'kvCache' | 'codec'>, provider: ProviderName): GraphCaptureMode {
  if (config.graphCapture.mode !== 'auto') return config.graphCapture.mode;
  const wantsDevice = config.kvCache.mode === 'device' || (config.codec.stateStore === 'device' && config.codec.mode !== 'window');
  return PROVIDERS[provider].graphCapture.byDefault && !wantsDevice ? 'on' : 'off';
}

/** Whether the streaming codec is captured where capture is on: 'auto' where the provider's captured codec replays exactly. */
export function resolveCodecCapture(config: Pick<EngineConfig, 'graphCapture'>, provider: ProviderName): boolean {
  const c = config.graphCapture.codec;
  return c === 'auto' ? PROVIDERS[provider].graphCapture.codecReplays : c === 'on';
}

/** 'auto' gives the uncaptured bound codec a session per shape bucket where the provider's Conv plans follow the last shape. */
export function resolveCodecSessions(config: Pick<EngineConfig, 'graphCapture'>, provider: ProviderName): 'shared' | 'per-bucket' {
  const c = config.graphCapture.codecSessions;
  if (c !== 'auto') return c;
  return PROVIDERS[provider].graphCapture.planPerShape ? 'per-bucket' : 'shared';
}

/** 'auto' writes the streaming codec's transposed convolutions in the provider table's form; the window codec has only ConvTranspose. */
export function resolveCodecUpsample(config: Pick<EngineConfig, 'codec'>, provider: ProviderName, codecMode: 'window' | 'stream'): CodecUpsampleForm {
  if (config.codec.upsample !== 'auto') return config.codec.upsample;
  return codecMode === 'stream' ? PROVIDERS[provider].codecUpsample : 'conv-transpose';
}

/** 'auto' warms up before ready where the plan captures graphs (a provider capture option on a captured stage). */
export function resolveWarmUp(choice: EngineConfig['warmUp'], capture: CapturePlan | null): 'on' | 'off' {
  if (choice !== 'auto') return choice;
  return capture !== null && capture.mode === 'on' && Object.keys(capture.options).length > 0 && Object.values(capture.captured).some(Boolean) ? 'on' : 'off';
}

/** The capture options of one stage's bound sessions: the plan's where the stage is captured, else none. */
export function stageCaptureOptions(capture: CapturePlan, stage: keyof CapturePlan['captured']): Record<string, string> {
  return capture.captured[stage] ? { ...capture.options } : {};
}

/** Whether these capture options on this provider need a session per gpu_graph_id (it keeps one captured graph per session). */
export function capturePerGraph(provider: ProviderName, captureOptions: Record<string, string>): boolean {
  return Object.keys(captureOptions).length > 0 && PROVIDERS[provider].graphCapture.graphsPerSession === 'one';
}

/** The session options every stage starts from: the provider table's default options under the config's own. */
function stageOptions(config: EngineConfig, provider: ProviderName, numThreads: number, capture: GraphCaptureMode): SessionOptions {
  const options: SessionOptions = { provider };
  // a provider without devices (the CPU, also as 'auto' falling back) has nothing to pin
  if (config.deviceIndex >= 0 && PROVIDERS[provider].pinning !== 'none') options.deviceIndex = config.deviceIndex;
  const providerOptions = { ...PROVIDERS[provider].ort.defaultOptions, ...config.providerOptions };
  if (Object.keys(providerOptions).length > 0) options.providerOptions = providerOptions;
  // the captured forms run on the C-API adapter; every stage then uses it, so one ONNX Runtime environment holds the provider
  if (capture !== 'off') options.runtime = 'c-api';
  if (numThreads > 0) options.intraOpNumThreads = numThreads;
  return options;
}

function planCapture(config: EngineConfig, provider: ProviderName, mode: GraphCaptureMode, codePredictor: 'step' | 'loop', codecMode: 'window' | 'stream', upsample: CodecUpsampleForm): CapturePlan | null {
  if (mode === 'off') return null;
  const capture = PROVIDERS[provider].graphCapture;
  const options: Record<string, string> = mode === 'on' ? { ...capture.options } : {};
  const codecCaptured = mode === 'on' && resolveCodecCapture(config, provider);
  return {
    mode,
    options,
    perGraph: capturePerGraph(provider, options),
    sessionPerBucket: { codec: codecMode === 'stream' && !codecCaptured && resolveCodecSessions(config, provider) === 'per-bucket' },
    location: boundBufferLocation(provider),
    maxBuckets: config.graphCapture.maxBuckets,
    captured: { talker: mode === 'on', codePredictor: mode === 'on', codec: codecCaptured },
    graphs: {
      talker: 'talkerDecode',
      codePredictor: codePredictor === 'step' ? null : capture.unsharedGqa ? 'codePredictorLoopStatic' : 'codePredictorLoopPlain',
      codec: codecMode === 'stream' ? (upsample === 'matmul' ? 'codecStreamStaticMatMul' : 'codecStreamStatic') : null,
    },
  };
}

/** The plan for `provider`: pure over the config, the provider's capabilities, the manifest's facts, the device's memory and STUDIO_ORT_RUNTIME. */
export function planEngine(config: EngineConfig, provider: ProviderName, facts: PlanFacts, env: NodeJS.ProcessEnv = process.env, machine: PlanMachine = { deviceMemoryBytes: null }): EnginePlan {
  const concurrency = resolveConcurrency(config, provider, facts, machine);
  const numThreads = resolveIntraOpThreads(config, facts);
  const codePredictor = config.codePredictor === 'manifest' ? facts.defaultCodePredictor : config.codePredictor;
  const codecMode = resolveCodecMode(config);
  const captureMode = resolveGraphCapture(config, provider);
  const upsample = resolveCodecUpsample(config, provider, codecMode);
  const kvMode = resolveKvCacheMode(config, provider, captureMode);
  const capture = planCapture(config, provider, captureMode, codePredictor, codecMode, upsample);
  const resolved: ResolvedEngineConfig = {
    ...config,
    warmUp: resolveWarmUp(config.warmUp, capture),
    provider,
    maxRunningSequences: concurrency.maxRunningSequences,
    maxPrefillSequences: concurrency.maxPrefillSequences,
    intraOpNumThreads: numThreads,
    codePredictor,
    codecBatching: resolveCodecBatching(config, provider, numThreads) ? 'on' : 'off',
    codec: { ...config.codec, mode: codecMode, stateStore: resolveCodecStateStore(config, provider, captureMode), upsample },
    shapeBuckets: resolveBucketRows(config, provider, concurrency),
    kvCache: { ...config.kvCache, mode: kvMode },
    graphCapture: { ...config.graphCapture, mode: captureMode, codec: captureMode === 'on' && resolveCodecCapture(config, provider) ? 'on' : 'off', codecSessions: capture?.sessionPerBucket.codec ? 'per-bucket' : 'shared' },
  };
  const sessionOptions = stageOptions(config, provider, numThreads, captureMode);
  const preferred = sessionOptions.runtime ?? defaultRuntimeName(env);
  return {
    provider,
    resolved,
    concurrency,
    machine,
    sessionOptions,
    runtime: chooseRuntime(sessionOptions, preferred, ADAPTERS).name ?? preferred,
    talkerOutputsOnDevice: kvMode === 'device' && PROVIDERS[provider].gpuBufferOutputs,
    codecGraph: codecMode === 'window' ? 'codec' : upsample === 'matmul' ? 'codecStreamMatMul' : 'codecStream',
    capture,
  };
}

/** What status and a benchmark report name of a plan: provider, capture, batch limits and bucket rows. */
export function summarisePlan(plan: EnginePlan): EnginePlanSummary {
  const r = plan.resolved;
  const b = r.shapeBuckets;
  return {
    provider: plan.provider,
    capture: r.graphCapture.mode,
    concurrency: plan.concurrency.kind,
    maxRunningSequences: r.maxRunningSequences,
    maxPrefillSequences: r.maxPrefillSequences,
    shapeBuckets: b.mode,
    talkerRows: b.talkerRows,
    talkerPrefillRows: b.talkerPrefillRows,
    codePredictorRows: b.codePredictorRows,
  };
}

/** The plan for the start-up log: the config's lines with everything resolved, then the adapter and what each stage runs. */
export function describeEnginePlan(plan: EnginePlan): string {
  const c = plan.capture;
  const stages = c
    ? `capture options=${JSON.stringify(c.options)} perGraph=${c.perGraph} buffers=${c.location} talker=${c.graphs.talker} codePredictor=${c.graphs.codePredictor ?? 'step graph (uncaptured)'} codec=${c.graphs.codec ?? 'window graph (uncaptured)'}${c.mode === 'on' && c.graphs.codec && !c.captured.codec ? ' (bound, uncaptured)' : ''}${c.sessionPerBucket.codec ? ' (a session per shape bucket)' : ''}`
    : `capture none (plain graphs, codec=${plan.codecGraph})`;
  const k = plan.concurrency;
  return [describeEngineConfig(plan.resolved), `concurrency ${k.kind} (${k.reason})`, `runtime=${plan.runtime} talkerOutputsOnDevice=${plan.talkerOutputsOnDevice} ${stages}`].join('\n');
}
