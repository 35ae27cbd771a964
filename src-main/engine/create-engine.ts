/**
 * createEngine({ modelDir, config }): loads a built model folder (manifest, tokenizer, embedding
 * tables), chooses the execution provider (provider-select.ts; falls back to the next candidate
 * when a session fails to start), opens the talker, code-predictor and codec sessions and returns
 * a ready Engine. The effective config and provider choice are logged once.
 */
import path from 'node:path';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { ModelManifest } from '../model-format/manifest';
import { Engine } from './engine';
import { describeEngineConfig, resolveEngineConfig, type EngineConfig } from './engine-config';
import { BucketedCodec, BucketedCodePredictor } from './models/bucketed-stages';
import { OrtCodePredictor } from './models/code-predictor';
import { OrtCodePredictorLoop } from './models/code-predictor-loop';
import { BoundCodecStream } from './models/codec-bound-stream';
import { openCodecDecoder } from './models/codec-decoder';
import { EmbeddingTables } from './models/embedding-tables';
import { loadModelManifest } from './models/model-manifest';
import type { CodecStage, CodePredictorStage, ModelStages } from './models/stages';
import { OrtTalker } from './models/talker';
import { resolveKvStrategy, talkerOptionsFor } from './kv/create-kv-store';
import { presentNames } from './kv/kv-store';
import { modelDirForProvider } from './model-dir-for-provider';
import { planProviders, probeProviders } from './provider-select';
import { BoundTalkerDecode } from './models/talker-bound-decode';
import { GraphSessions } from './models/graph-sessions';
import { BoundCodePredictorLoop } from './models/code-predictor-bound-loop';
import type { HostKvStore } from './kv/host-kv-store';
import { createSession, type ProviderName, type SessionOptions } from './runtime/ort';
import { boundBufferLocation, CAPTURES_UNEVEN_CONCAT, CAPTURES_UNSHARED_GQA, GRAPH_CAPTURE_OPTIONS } from './runtime/runtime';
import { loadTextTokenizer } from './tokenizer';

export interface CreateEngineOptions {
  /** A built model folder (the one holding manifest.json). */
  modelDir: string;
  config?: unknown;
  /** Receives the start-up log lines (default: console.info). */
  log?: (line: string) => void;
}

/** ORT intra-op threads: 0 (auto) is one thread for small graphs, where ORT's default pool only spins
 * (tiny model, 2 shared cores: 2,474 ms → 386 ms for 40 frames, docs/benchmarks.md); ORT's default for real sizes. */
function intraOpThreads(manifest: ModelManifest, config: EngineConfig): number {
  return config.intraOpNumThreads > 0 ? config.intraOpNumThreads : manifest.talker.hiddenSize < 512 ? 1 : 0;
}

/** 'auto' batches the codec except where a row was measured to differ from its solo decode (threaded CPU kernels). */
function resolveCodecBatching(config: EngineConfig, provider: ProviderName, numThreads: number): boolean {
  if (config.codecBatching !== 'auto') return config.codecBatching === 'on';
  return provider !== 'cpu' || numThreads === 1;
}

/** 'auto' uses shape buckets on GPU providers only: CPU kernels were measured batch-invariant without them. */
export function resolveShapeBuckets(config: EngineConfig, provider: ProviderName): boolean {
  if (config.shapeBuckets.mode !== 'auto') return config.shapeBuckets.mode === 'on';
  return provider !== 'cpu';
}

/**
 * 'auto' streams on every provider: faster than windows on CPU (0.215× the codec time) and, with the
 * state kept on the device, on WebGPU (0.46–0.69× for 48-frame requests, docs/benchmarks.md).
 */
export function resolveCodecMode(config: EngineConfig): 'window' | 'stream' {
  return config.codec.mode === 'auto' ? 'stream' : config.codec.mode;
}

/** 'auto' keeps the streaming codec's state on the device on WebGPU (as the talker's KV is), on the host elsewhere. */
export function resolveCodecStateStore(config: EngineConfig, provider: ProviderName): 'host' | 'device' {
  if (config.codec.stateStore !== 'auto') return config.codec.stateStore;
  return provider === 'webgpu' ? 'device' : 'host';
}

/**
 * The capture-ready talker decode when graphCapture asks for it: its session needs the ioBinding
 * capability (the C-API adapter), and its buffers sit in the provider's device memory (host memory on CPU).
 */
function captureSetup(manifest: ModelManifest, modelDir: string, config: EngineConfig, options: SessionOptions, graph: keyof ModelManifest['graphs']) {
  const spec = manifest.graphs[graph];
  if (!spec) throw new StudioError('model-invalid', `graphCapture.mode '${config.graphCapture.mode}' needs the capture-ready graph ${graph} (builder v13 on); rebuild the model with 'studio model build'`, { field: 'graphCapture.mode' });
  const capture = stageCaptureOptions(config.graphCapture.mode, options.provider, graph);
  return {
    model: path.join(modelDir, spec.file),
    open: (model: string | Uint8Array, extra: Partial<SessionOptions>) => createSession(model, { ...options, ...extra, providerOptions: { ...options.providerOptions, ...extra.providerOptions } }),
    capture,
    perGraph: GraphSessions.perGraphFor(options.provider, capture),
    location: boundBufferLocation(options.provider),
  };
}

/**
 * The capture options of one capture-ready graph: the provider's with graphCapture 'on', none with 'bound'
 * or for the streaming codec on a provider whose captured uneven Concats are unsafe (CUDA: it then runs bound).
 */
export function stageCaptureOptions(mode: EngineConfig['graphCapture']['mode'], provider: ProviderName, graph: keyof ModelManifest['graphs']): Record<string, string> {
  if (mode !== 'on') return {};
  if (graph === 'codecStreamStatic' && !CAPTURES_UNEVEN_CONCAT[provider]) return {};
  return { ...(GRAPH_CAPTURE_OPTIONS[provider] ?? {}) };
}

async function openBoundDecode(manifest: ModelManifest, modelDir: string, config: EngineConfig, options: SessionOptions, kv: HostKvStore): Promise<BoundTalkerDecode | undefined> {
  if (config.graphCapture.mode === 'off') return undefined;
  const c = captureSetup(manifest, modelDir, config, options, 'talkerDecode');
  return BoundTalkerDecode.open(c.model, manifest, kv.pool, c.open, c.capture, c.location, config.graphCapture.maxBuckets, c.perGraph);
}

/** The code predictor: the loop graph (capture-ready form when graphCapture asks) or the step graph (never captured). */
async function openCodePredictor(manifest: ModelManifest, modelDir: string, config: EngineConfig, options: SessionOptions, embeddings: EmbeddingTables): Promise<CodePredictorStage> {
  const useLoop = (config.codePredictor === 'manifest' ? manifest.defaultCodePredictor : config.codePredictor) === 'loop';
  if (useLoop && config.graphCapture.mode !== 'off') {
    // a provider that cannot capture the loop's GroupQueryAttention runs its plain-attention form in both bound modes (like-for-like bytes)
    const c = captureSetup(manifest, modelDir, config, options, CAPTURES_UNSHARED_GQA[options.provider] ? 'codePredictorLoopStatic' : 'codePredictorLoopPlain');
    return BoundCodePredictorLoop.open(c.model, manifest, embeddings, c.open, c.capture, c.location, config.graphCapture.maxBuckets, c.perGraph);
  }
  const cpGraph = useLoop ? manifest.graphs.codePredictorLoop : manifest.graphs.codePredictorStep;
  const cpSession = await createSession(path.join(modelDir, cpGraph.file), options);
  return useLoop ? new OrtCodePredictorLoop(cpSession, manifest, embeddings) : new OrtCodePredictor(cpSession, manifest, embeddings);
}

/** The codec: the streaming graph's capture-ready form on bound buffers when graphCapture asks, else the window or streaming graph. */
async function openCodec(manifest: ModelManifest, modelDir: string, config: EngineConfig, options: SessionOptions, stream: boolean, provider: ProviderName): Promise<CodecStage> {
  if (stream && config.graphCapture.mode !== 'off') {
    const c = captureSetup(manifest, modelDir, config, options, 'codecStreamStatic');
    return BoundCodecStream.open(c.model, manifest, c.open, c.capture, c.location, config.graphCapture.maxBuckets, c.perGraph);
  }
  return openCodecDecoder(modelDir, manifest, options, stream, stream && resolveCodecStateStore(config, provider) === 'device');
}

/** The session options every stage starts from: provider, device pin, threads. */
export function stageSessionOptions(manifest: ModelManifest, config: EngineConfig, provider: ProviderName): SessionOptions {
  const options: SessionOptions = { provider };
  // a CPU candidate (provider 'auto' falling back) has no device to pin
  if (config.deviceIndex >= 0 && provider !== 'cpu') options.deviceIndex = config.deviceIndex;
  if (Object.keys(config.providerOptions).length > 0) options.providerOptions = { ...config.providerOptions };
  // the captured forms run on the C-API adapter; every stage then uses it, so one ONNX Runtime environment holds the provider
  if (config.graphCapture.mode !== 'off') options.runtime = 'c-api';
  const numThreads = intraOpThreads(manifest, config);
  if (numThreads > 0) options.intraOpNumThreads = numThreads;
  return options;
}

async function openStages(manifest: ModelManifest, modelDir: string, config: EngineConfig, provider: ProviderName): Promise<ModelStages> {
  const options = stageSessionOptions(manifest, config, provider);
  const embeddings = new EmbeddingTables(modelDir, manifest);
  try {
    const buckets = resolveShapeBuckets(config, provider);
    const talkerRows = buckets ? { decode: config.shapeBuckets.talkerRows, prefill: config.shapeBuckets.talkerPrefillRows } : null;
    const strategy = resolveKvStrategy(config, provider);
    const talkerSessionOptions: SessionOptions = strategy === 'device' && provider === 'webgpu' ? { ...options, gpuOutputs: presentNames(manifest.talker.numLayers) } : options;
    const talkerSession = await createSession(path.join(modelDir, manifest.graphs.talker.file), talkerSessionOptions);
    const talkerOptions = await talkerOptionsFor(manifest, config, provider, talkerRows);
    const boundDecode = await openBoundDecode(manifest, modelDir, config, options, talkerOptions.kv as HostKvStore);
    const talker = new OrtTalker(talkerSession, manifest, { ...talkerOptions, boundDecode });
    const innerPredictor = await openCodePredictor(manifest, modelDir, config, options, embeddings);
    const codePredictor = buckets ? new BucketedCodePredictor(innerPredictor, config.shapeBuckets.codePredictorRows) : innerPredictor;
    const stream = resolveCodecMode(config) === 'stream';
    const innerCodec = await openCodec(manifest, modelDir, config, options, stream, provider);
    const codec = buckets ? new BucketedCodec(innerCodec, config.shapeBuckets.codecMinRows, config.shapeBuckets.codecMaxRowFrames) : innerCodec;
    return { talker, codePredictor, codec, embeddings, numCodeGroups: manifest.numCodeGroups };
  } catch (err) {
    embeddings.dispose();
    throw err;
  }
}

/** Whether 'auto' tries its next provider after this failure: graphs a provider cannot run, or a provider that does not load. */
export function triesNextProvider(code: string): boolean {
  return code === 'model-invalid' || code === 'unsupported';
}

export async function createEngine(options: CreateEngineOptions): Promise<Engine> {
  const log = options.log ?? ((line: string) => console.info(line));
  const config = resolveEngineConfig(options.config ?? {});
  const manifest = loadModelManifest(options.modelDir);
  const tokenizer = loadTextTokenizer(options.modelDir);
  const plan = planProviders(config.provider, probeProviders(), manifest.dtype);
  const failures: string[] = [];
  for (const candidate of plan.candidates) {
    try {
      const build = modelDirForProvider(options.modelDir, manifest, candidate.preferredDtype);
      const buildManifest = build.modelDir === options.modelDir ? manifest : loadModelManifest(build.modelDir);
      const stages = await openStages(buildManifest, build.modelDir, config, candidate.provider);
      const tried = failures.length > 0 ? `; earlier candidates failed: ${failures.join('; ')}` : '';
      const reason = `${candidate.reason}; graphs: ${build.reason}${tried}`;
      log(`engine: provider ${candidate.provider} (${reason})\n${describeEngineConfig(config)}`);
      const codecBatching = resolveCodecBatching(config, candidate.provider, intraOpThreads(buildManifest, config));
      return new Engine({ manifest: buildManifest, tokenizer, stages, config, provider: { name: candidate.provider, reason }, codecBatching });
    } catch (err) {
      const error = toStudioError(err);
      if (!triesNextProvider(error.code) || plan.candidates.length === 1) throw error;
      failures.push(`${candidate.provider}: ${error.message}`);
    }
  }
  throw new StudioError('unsupported', `no execution provider could open the model: ${failures.join('; ')}`, { field: 'provider' });
}
