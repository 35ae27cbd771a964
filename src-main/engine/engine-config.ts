/**
 * EngineConfig: how the engine runs (provider, batch limits, codec chunking, length caps), as
 * opposed to per-request params (voice, seed, temperature) which live in SynthesisRequest.
 * defaultEngineConfig() is the one place defaults live; resolveEngineConfig(overrides) rejects
 * unknown keys and wrong types naming the key path, and returns a frozen value.
 */
import { StudioError } from '../../src-shared/errors';
import { MIN_LEFT_CONTEXT_FRAMES } from '../model-format/codec/chunked-decode';
import { CODEC_UPSAMPLE_FORMS } from '../model-format/manifest';
import { PROVIDER_NAMES, type ProviderName } from './runtime/providers';

/** The values of each enumerated setting, by key path: the types below and validation both read them. */
const CHOICES = {
  promptLayout: ['non-streaming', 'streaming-text'],
  codePredictor: ['manifest', 'step', 'loop'],
  codecBatching: ['auto', 'on', 'off'],
  'shapeBuckets.mode': ['auto', 'on', 'off'],
  'kvCache.mode': ['auto', 'host', 'device'],
  'codec.mode': ['auto', 'window', 'stream'],
  'codec.stateStore': ['auto', 'host', 'device'],
  'codec.upsample': ['auto', ...CODEC_UPSAMPLE_FORMS],
  'graphCapture.mode': ['auto', 'off', 'bound', 'on'],
  'graphCapture.codec': ['auto', 'on', 'off'],
  'graphCapture.codecSessions': ['auto', 'shared', 'per-bucket'],
  warmUp: ['auto', 'on', 'off'],
  workload: ['interactive', 'server'],
} as const;
type Choice<K extends keyof typeof CHOICES> = (typeof CHOICES)[K][number];

/** A count the engine plan picks when 'auto': the provider table's wide limits where the device's memory holds them, else defaultConcurrency(). */
export type AutoCount = number | 'auto';

export type ProviderChoice = 'auto' | ProviderName;
export type PromptLayout = Choice<'promptLayout'>;
export type CodePredictorChoice = Choice<'codePredictor'>;
export type CodecBatchingChoice = Choice<'codecBatching'>;
export type ShapeBucketsChoice = Choice<'shapeBuckets.mode'>;
export type KvCacheChoice = Choice<'kvCache.mode'>;
export type GraphCaptureChoice = Choice<'graphCapture.mode'>;
export type GraphCaptureCodecChoice = Choice<'graphCapture.codec'>;
export type CodecSessionsChoice = Choice<'graphCapture.codecSessions'>;
export type CodecModeChoice = Choice<'codec.mode'>;
export type CodecStateChoice = Choice<'codec.stateStore'>;
export type CodecUpsampleChoice = Choice<'codec.upsample'>;
export type WarmUpChoice = Choice<'warmUp'>;
export type WorkloadChoice = Choice<'workload'>;

/**
 * Fixed call shapes for providers whose kernels change a row's result with the batch's row count.
 * Measured on WebGPU (H200, fp16 0.6B): the loop graph's sampled codes differed at every row count,
 * and talker decode rows differed between 1-row and 2–8-row runs at some past lengths (docs/benchmarks.md).
 */
export interface ShapeBucketConfig {
  /** 'auto' turns buckets on for GPU providers and off on CPU (CPU is batch-invariant without them). */
  mode: ShapeBucketsChoice;
  /** With buckets on: every talker decode run has exactly this many rows (split larger groups, pad smaller ones with dropped copies); 'auto': see AutoCount. */
  talkerRows: AutoCount;
  /**
   * With buckets on: every talker prefill run has exactly this many rows. Kept apart from talkerRows
   * because a prefill row is a whole prompt: padding one arrival to 8 (or 64) copies costs 8 (64)
   * prompts. 1 prefills each arrival alone, which is fastest for the first audio of one stream and for
   * arrivals one at a time; a burst of many arrivals takes one run each. Any fixed count keeps a row's
   * bytes independent of its batch-mates. 'auto': 1 on every provider (CUDA too, since 2026-12-07: see
   * resolveBucketRows in engine-plan.ts for the measurement and its caveat).
   */
  talkerPrefillRows: AutoCount;
  /** With buckets on: every code-predictor call has exactly this many rows (padded with dropped copies); 'auto': see AutoCount. */
  codePredictorRows: AutoCount;
  /** With buckets on: a codec call with fewer rows is filled with dropped copies (on WebGPU a lone 1-frame row differed from the same row among others). */
  codecMinRows: number;
  /** With buckets on: codec calls are split so that rows × frames stays within this (0: never split; WebGPU slowed ~3× per row-frame above ~160). */
  codecMaxRowFrames: number;
}

/** The talker's KV cache (engine/kv/): where it lives and how its block pool is sized. */
export interface KvCacheConfig {
  /** 'auto': device-resident on WebGPU (present outputs fed back on the GPU), host-resident elsewhere. */
  mode: KvCacheChoice;
  /** Positions per pool block, the one block size (the scheduler reserves in the same blocks); a row's KV capacity is its length rounded up to a power-of-two count of blocks (kv-layout.ts). */
  blockPositions: number;
  /** Blocks allocated at start (0: maxRunningSequences × 4). */
  initialBlocks: number;
  /**
   * The one KV capacity: the pool never holds more, and admission reserves from the same blocks
   * (0: maxRunningSequences × blocks of maxSequenceTokens; under an engine host at most half the free
   * memory; kv/kv-capacity.ts).
   */
  maxBlocks: number;
  /** Device strategy: build a regrouped run's past from resident groups on the device (false: through the host pool). */
  regroupOnDevice: boolean;
}

/** The prompt-prefix KV cache (kv/prefix-kv-cache.ts): a repeated voice copies its prompt prefix's KV instead of prefilling it. */
export interface PrefixCacheConfig {
  /** Host bytes the cached prefixes may hold, least recently used evicted first; 0 keeps none (the prefix is still its own prefill run, so outputs never change). */
  maxBytes: number;
}

/**
 * The talker's decode form. 'off': talker.onnx with fresh tensors per run (as before). 'bound': the
 * capture-ready talker-decode.onnx through the C-API adapter's IoBinding, fixed buffers per (rows,
 * capacity) bucket, KV updated in place. 'on': 'bound' plus the provider's capture option
 * (GRAPH_CAPTURE_OPTIONS: CUDA graphs, WebGPU graph capture; the CPU provider runs the same graphs
 * uncaptured). Not 'off' keeps the KV in the host pool (kvCache.mode 'device' is refused). 'auto' (the
 * default): 'on' where the provider table says capture is its fastest form (CUDA), else 'off' (engine-plan.ts).
 */
export interface GraphCaptureConfig {
  mode: GraphCaptureChoice;
  /**
   * With mode 'on': whether the streaming codec is captured too. 'auto' (the default) captures it where the
   * provider table says its replays give the uncaptured bytes (not CUDA: engine-plan.ts); 'off' runs its bound
   * graph uncaptured; 'on' captures it anyway (to investigate).
   */
  codec: GraphCaptureCodecChoice;
  /**
   * The sessions of the bound streaming codec when it runs uncaptured: 'per-bucket' gives each shape bucket a
   * session of its own (its Conv plans are built once for its shape), 'shared' one for all. 'auto' (the default):
   * 'per-bucket' where the provider rebuilds a Conv's plan on each new shape (CUDA's cuDNN), else 'shared'.
   */
  codecSessions: CodecSessionsChoice;
  /** Buckets (rows × capacity) with buffers held at once; the least recently used is released past this. */
  maxBuckets: number;
}

export interface CodecChunkConfig {
  /**
   * 'stream': each chunk's new frames only, with the codec's state carried from the previous chunk
   * (builds from builder v9): no frame is decoded twice, and the result equals one full decode.
   * 'window': each chunk is decoded again with leftContextFrames of earlier frames (stateless graph;
   * chunk seams differ from a full decode when the context is shorter than the receptive field).
   * 'auto' (the default): 'stream' on every provider. On CPU it took 0.215× the window codec's time;
   * on WebGPU, with its state on the device (stateStore), 0.46–0.69× for 48-frame requests.
   */
  mode: CodecModeChoice;
  /**
   * Where the stream mode's carried state lives between calls. 'device': on the GPU, fed back as it is
   * or regathered there when a call's rows change; 'host': copied down and up on every call.
   * 'auto': 'device' where outputs can stay on the device (WebGPU), 'host' elsewhere (engine-plan.ts). With graphCapture on, the streaming codec's state lives
   * in the bound form's buffers (and a host record); 'device' is refused there.
   */
  stateStore: CodecStateChoice;
  /**
   * How the streaming codec's graph writes its transposed convolutions (builder v14 on): 'conv-transpose'
   * (ConvTranspose nodes) or 'matmul' (a MatMul and an overlap-add each; same maths, other bytes). 'auto'
   * (the default): the provider table's form in stream mode ('matmul' on CUDA, where cuDNN's ConvTranspose
   * took 390 of the codec's 455 ms of kernel time), 'conv-transpose' in window mode. 'matmul': stream mode only.
   */
  upsample: CodecUpsampleChoice;
  /** Frames decoded per chunk once streaming is under way (80 ms per frame). */
  chunkFrames: number;
  /** Frames of the first chunk; smaller gives audio sooner. Later chunks double up to chunkFrames (1, 2, 4, 8, 8, …). */
  firstChunkFrames: number;
  /** Frames of already-decoded context re-fed before each chunk (spec §4.4: ≥ 25); chunk timing follows chunked-decode.ts. */
  leftContextFrames: number;
}

export interface EngineConfig {
  provider: ProviderChoice;
  /** The GPU/adapter index the sessions run on (DirectML, CUDA; WebGPU only 0); -1: the provider's own choice. The engine pool sets it per host. */
  deviceIndex: number;
  /** ORT intra-op threads; 0 lets onnxruntime decide. */
  intraOpNumThreads: number;
  codec: CodecChunkConfig;
  /** Hard cap on prompt rows + generated frames of one sequence (text over this is rejected). */
  maxSequenceTokens: number;
  /** Sequences decoded together in one talker step; 'auto': see AutoCount (engine-plan.ts resolveConcurrency). */
  maxRunningSequences: AutoCount;
  /** Sequences admitted (prefilled) in one step, with an engine host or without (its scheduler's cap); 'auto': see AutoCount, never above maxRunningSequences. */
  maxPrefillSequences: AutoCount;
  /** Runaway guard: frames allowed = minFramesCap + framesPerTextToken × numTextTokens (also ≤ maxNewTokens); 0 per token gives every request minFramesCap frames (benchmarks). */
  framesPerTextToken: number;
  minFramesCap: number;
  promptLayout: PromptLayout;
  /** Which code-predictor graph to drive; 'manifest' uses the builder's measured default. */
  codePredictor: CodePredictorChoice;
  /**
   * Decode due codec windows of equal length from several sequences in one call. 'auto' batches
   * except on CPU with more than one intra-op thread, where ORT's threaded kernels made a row differ
   * from its solo decode by up to 3.3e-6 (lab/gpu/codec-batch-diff.ts), breaking byte identity.
   */
  codecBatching: CodecBatchingChoice;
  shapeBuckets: ShapeBucketConfig;
  kvCache: KvCacheConfig;
  prefixCache: PrefixCacheConfig;
  graphCapture: GraphCaptureConfig;
  /**
   * Open and run once every shape bucket the engine can use before it says ready (warm-up.ts), so no
   * request pays a first-use graph capture. 'auto': on where the plan captures graphs (graphCapture 'on'
   * on a provider with a capture option), off elsewhere.
   */
  warmUp: WarmUpChoice;
  /**
   * Who waits on the engine: 'interactive' (the studio: one listener at a time, so the 'auto' counts keep the
   * narrow limits and a stream's step stays short) or 'server' (`studio serve`: many clients, so 'auto' takes the
   * provider table's wide limits where the device's memory holds them).
   */
  workload: WorkloadChoice;
  /** Options of the execution provider for every session (any key reaches it through the C-API adapter). */
  providerOptions: Record<string, string>;
}

export function defaultEngineConfig(): EngineConfig {
  return {
    provider: 'auto',
    deviceIndex: -1,
    intraOpNumThreads: 0,
    codec: { mode: 'auto', stateStore: 'auto', upsample: 'auto', chunkFrames: 8, firstChunkFrames: 1, leftContextFrames: 25 },
    maxSequenceTokens: 4096,
    maxRunningSequences: 'auto',
    maxPrefillSequences: 'auto',
    framesPerTextToken: 12,
    minFramesCap: 75,
    promptLayout: 'non-streaming',
    codePredictor: 'manifest',
    codecBatching: 'auto',
    shapeBuckets: { mode: 'auto', talkerRows: 'auto', talkerPrefillRows: 'auto', codePredictorRows: 'auto', codecMinRows: 2, codecMaxRowFrames: 160 },
    kvCache: { mode: 'auto', blockPositions: 64, initialBlocks: 0, maxBlocks: 0, regroupOnDevice: true },
    // 128 MiB: ~100 CustomVoice prefixes of 0.6B fp16 (12 positions × 112 KiB)
    prefixCache: { maxBytes: 128 * 2 ** 20 },
    graphCapture: { mode: 'auto', codec: 'auto', codecSessions: 'auto', maxBuckets: 16 },
    warmUp: 'auto',
    workload: 'interactive',
    providerOptions: {},
  };
}

/** What the 'auto' counts are where the plan does not pick the provider's wide limits (the CPU, a device too small or of unknown memory). */
export function defaultConcurrency(): { maxRunningSequences: number; maxPrefillSequences: number; talkerRows: number; codePredictorRows: number } {
  return { maxRunningSequences: 8, maxPrefillSequences: 4, talkerRows: 8, codePredictorRows: 8 };
}

/**
 * The batch limits of a config with 'auto' read as defaultConcurrency(): what an engine built without a plan
 * runs (over fake stages), and the KV size of one; createEngine hands the engine its plan's numbers instead.
 */
export function batchLimitsOf(config: Pick<EngineConfig, 'maxRunningSequences' | 'maxPrefillSequences'>): { maxRunningSequences: number; maxPrefillSequences: number } {
  const narrow = defaultConcurrency();
  const maxRunningSequences = config.maxRunningSequences === 'auto' ? narrow.maxRunningSequences : config.maxRunningSequences;
  const prefill = config.maxPrefillSequences === 'auto' ? narrow.maxPrefillSequences : config.maxPrefillSequences;
  return { maxRunningSequences, maxPrefillSequences: Math.min(prefill, maxRunningSequences) };
}

const ENUMS: Record<string, readonly string[]> = { provider: ['auto', ...PROVIDER_NAMES], ...CHOICES };

/** Lower bounds for integer keys (by key path). */
const MINIMUMS: Record<string, number> = {
  deviceIndex: -1,
  intraOpNumThreads: 0,
  'codec.chunkFrames': 1,
  'codec.firstChunkFrames': 1,
  'codec.leftContextFrames': MIN_LEFT_CONTEXT_FRAMES,
  maxSequenceTokens: 16,
  maxRunningSequences: 1,
  maxPrefillSequences: 1,
  framesPerTextToken: 0,
  minFramesCap: 1,
  'shapeBuckets.talkerRows': 1,
  'shapeBuckets.talkerPrefillRows': 1,
  'shapeBuckets.codePredictorRows': 1,
  'shapeBuckets.codecMinRows': 1,
  'shapeBuckets.codecMaxRowFrames': 0,
  'kvCache.blockPositions': 1,
  'kvCache.initialBlocks': 0,
  'kvCache.maxBlocks': 0,
  'prefixCache.maxBytes': 0,
  'graphCapture.maxBuckets': 1,
};

/** Integer keys (by key path) that also take 'auto'. */
const AUTO_COUNTS = new Set(['maxRunningSequences', 'maxPrefillSequences', 'shapeBuckets.talkerRows', 'shapeBuckets.talkerPrefillRows', 'shapeBuckets.codePredictorRows']);

/** Keys whose value is a free-form string map. */
const STRING_MAPS = new Set(['providerOptions']);

function fail(keyPath: string, message: string): never {
  throw new StudioError('invalid-argument', `engine config '${keyPath}' ${message}`, { field: keyPath });
}

function merge(base: Record<string, unknown>, overrides: unknown, prefix: string): Record<string, unknown> {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    fail(prefix || '<root>', `must be an object, got ${JSON.stringify(overrides)}`);
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides as Record<string, unknown>)) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (!(key in base)) fail(keyPath, `is not a setting; valid keys here: ${Object.keys(base).join(', ')}`);
    const current = base[key];
    if (STRING_MAPS.has(keyPath)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
        fail(keyPath, `must be an object of strings, got ${JSON.stringify(value)}`);
      }
      out[key] = { ...(value as Record<string, string>) };
      continue;
    }
    if (AUTO_COUNTS.has(keyPath)) {
      if (value !== 'auto' && (!Number.isInteger(value) || (value as number) < MINIMUMS[keyPath])) fail(keyPath, `must be 'auto' or an integer ≥ ${MINIMUMS[keyPath]}, got ${JSON.stringify(value)}`);
      out[key] = value;
      continue;
    }
    if (typeof current === 'object' && current !== null) {
      out[key] = merge(current as Record<string, unknown>, value, keyPath);
      continue;
    }
    if (typeof value !== typeof current) fail(keyPath, `must be a ${typeof current}, got ${JSON.stringify(value)}`);
    const allowed = ENUMS[keyPath];
    if (allowed && !allowed.includes(value as string)) fail(keyPath, `is '${String(value)}'; valid values: ${allowed.join(', ')}`);
    const minimum = MINIMUMS[keyPath];
    if (minimum !== undefined && (!Number.isInteger(value) || (value as number) < minimum)) {
      fail(keyPath, `must be an integer ≥ ${minimum}, got ${String(value)}`);
    }
    out[key] = value;
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export function resolveEngineConfig(overrides: unknown = {}): Readonly<EngineConfig> {
  const merged = merge(defaultEngineConfig() as unknown as Record<string, unknown>, overrides, '') as unknown as EngineConfig;
  if (merged.codec.firstChunkFrames > merged.codec.chunkFrames) {
    fail('codec.firstChunkFrames', `(${merged.codec.firstChunkFrames}) must not exceed codec.chunkFrames (${merged.codec.chunkFrames})`);
  }
  const capturing = merged.graphCapture.mode === 'bound' || merged.graphCapture.mode === 'on';
  if (capturing && merged.kvCache.mode === 'device') {
    fail('kvCache.mode', `'device' cannot be combined with graphCapture.mode '${merged.graphCapture.mode}' (the captured form keeps its KV in bound buffers staged from the host pool); use 'auto' or 'host'`);
  }
  if (capturing && merged.codec.stateStore === 'device' && merged.codec.mode !== 'window') {
    fail('codec.stateStore', `'device' cannot be combined with graphCapture.mode '${merged.graphCapture.mode}' (the captured streaming codec keeps its state in bound buffers staged from a host record); use 'auto' or 'host'`);
  }
  if (merged.codec.upsample === 'matmul' && merged.codec.mode === 'window') {
    fail('codec.upsample', `'matmul' has only streaming codec graphs; use codec.mode 'stream' or 'auto', or upsample 'conv-transpose'`);
  }
  if (typeof merged.maxPrefillSequences === 'number' && typeof merged.maxRunningSequences === 'number' && merged.maxPrefillSequences > merged.maxRunningSequences) {
    fail('maxPrefillSequences', `(${merged.maxPrefillSequences}) must not exceed maxRunningSequences (${merged.maxRunningSequences})`);
  }
  return deepFreeze(merged);
}

/** One line per setting, logged once at start-up. */
export function describeEngineConfig(config: EngineConfig): string {
  const c = config.codec;
  return [
    `provider=${config.provider}${config.deviceIndex >= 0 ? ` deviceIndex=${config.deviceIndex}` : ''} intraOpNumThreads=${config.intraOpNumThreads}`,
    `codec mode=${c.mode} stateStore=${c.stateStore} upsample=${c.upsample} chunkFrames=${c.chunkFrames} firstChunkFrames=${c.firstChunkFrames} leftContextFrames=${c.leftContextFrames}`,
    `maxSequenceTokens=${config.maxSequenceTokens} maxRunningSequences=${config.maxRunningSequences} maxPrefillSequences=${config.maxPrefillSequences}`,
    `framesPerTextToken=${config.framesPerTextToken} minFramesCap=${config.minFramesCap} promptLayout=${config.promptLayout} codePredictor=${config.codePredictor} codecBatching=${config.codecBatching}`,
    `shapeBuckets mode=${config.shapeBuckets.mode} talkerRows=${config.shapeBuckets.talkerRows} talkerPrefillRows=${config.shapeBuckets.talkerPrefillRows} codePredictorRows=${config.shapeBuckets.codePredictorRows} codecMinRows=${config.shapeBuckets.codecMinRows} codecMaxRowFrames=${config.shapeBuckets.codecMaxRowFrames}`,
    `kvCache mode=${config.kvCache.mode} blockPositions=${config.kvCache.blockPositions} initialBlocks=${config.kvCache.initialBlocks} maxBlocks=${config.kvCache.maxBlocks} regroupOnDevice=${config.kvCache.regroupOnDevice} prefixCache maxBytes=${config.prefixCache.maxBytes}`,
    `graphCapture mode=${config.graphCapture.mode} codec=${config.graphCapture.codec} codecSessions=${config.graphCapture.codecSessions} maxBuckets=${config.graphCapture.maxBuckets} warmUp=${config.warmUp} providerOptions=${JSON.stringify(config.providerOptions)}`,
  ].join('\n');
}
