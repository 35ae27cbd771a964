/**
 * createEngine({ modelDir, config }): loads a built model folder (manifest, tokenizer, embedding
 * tables), chooses the execution provider (provider-select.ts; falls back to the next candidate
 * when a session fails to start), opens the talker, code-predictor and codec sessions and returns
 * a ready Engine, built from the resolved plan of each candidate (engine-plan.ts); the provider
 * choice and the plan, every 'auto' resolved, are logged once, with one summary line (provider-summary.ts).
 */
import path from 'node:path';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { ModelManifest } from '../model-format/manifest';
import { Engine } from './engine';
import { resolveEngineConfig, type EngineConfig } from './engine-config';
import { capturePerGraph, describeEnginePlan, planEngine, stageCaptureOptions, summarisePlan, type CapturePlan, type EnginePlan, type PlanMachine } from './engine-plan';
import { BucketedCodec, BucketedCodePredictor } from './stages/bucketed-stages';
import { OrtCodePredictor } from './stages/code-predictor';
import { OrtCodePredictorLoop } from './stages/code-predictor-loop';
import { BoundCodecStream } from './stages/codec-bound-stream';
import { openCodecDecoder } from './stages/codec-decoder';
import { EmbeddingTables } from './stages/embedding-tables';
import { loadModelManifest } from './stages/model-manifest';
import type { CodecStage, CodePredictorStage, ModelStages } from './stages/stages';
import { OrtTalker } from './stages/talker';
import { talkerOptionsFor } from './kv/create-kv-store';
import { presentNames } from './kv/kv-store';
import { modelDirForProvider } from './model-dir-for-provider';
import { planProviders } from './provider-select';
import { describeProviderSummary } from './provider-summary';
import { probeProviders } from './runtime/provider-probe';
import { BoundTalkerDecode } from './stages/talker-bound-decode';
import { BoundCodePredictorLoop } from './stages/code-predictor-bound-loop';
import type { BoundSetup } from './stages/bound-buckets';
import type { HostKvStore } from './kv/host-kv-store';
import { createSession, type ProviderName, type SessionOptions } from './runtime/ort';
import { loadTextTokenizer } from './tokenizer';
import { describeWarmUp } from './warm-up';
import { planWarmUp } from './warm-up-plan';
import type { SchedulerLimits } from '../scheduler/batch-policy';
import type { KvSize } from '../scheduler/kv-budget';
import { kvCapacityFor } from './kv/kv-capacity';
import { readGpuInfo } from '../telemetry/machine-info';
import { PROVIDERS } from './runtime/providers';

export interface CreateEngineOptions {
  /** A built model folder (the one holding manifest.json). */
  modelDir: string;
  config?: unknown;
  /** Receives the start-up log lines (default: console.info). */
  log?: (line: string) => void;
  /**
   * The limits of the scheduler the engine is built with, from the resolved config (the engine host's,
   * engine-host/scheduler-config.ts); default: the engine's FIFO within its batch limits.
   */
  schedulerFor?: (limits: { maxRunningSequences: number; maxPrefillSequences: number }) => Readonly<SchedulerLimits>;
  /** Memory the talker's KV pool may take (the engine host: half the free memory); default: kvCache.maxBlocks alone bounds it. */
  kvMemoryBytes?: number;
  /** The device's memory the plan sizes 'auto' concurrency by (null: unknown); default: nvidia-smi's reading, asked only where a candidate could run wide. */
  deviceMemoryBytes?: number | null;
}

/**
 * The device memory the plans read: nvidia-smi's total for the GPU the engine runs on (CUDA_VISIBLE_DEVICES's
 * entry for deviceIndex where set), asked only for a server workload where a candidate has wide limits and a count is 'auto'.
 */
export async function readPlanMachine(config: EngineConfig, candidates: readonly ProviderName[], env: NodeJS.ProcessEnv = process.env): Promise<PlanMachine> {
  const auto = [config.maxRunningSequences, config.maxPrefillSequences, config.shapeBuckets.talkerRows, config.shapeBuckets.codePredictorRows].includes('auto');
  if (!auto || config.workload !== 'server' || !candidates.some((p) => PROVIDERS[p].wide)) return { deviceMemoryBytes: null };
  const index = Math.max(0, config.deviceIndex);
  const visible = env.CUDA_VISIBLE_DEVICES?.split(',')[index]?.trim();
  const gpu = await readGpuInfo('nvidia-smi', visible && /^\d+$/.test(visible) ? Number(visible) : index);
  return { deviceMemoryBytes: gpu?.memoryTotalMiB ? gpu.memoryTotalMiB * 1024 * 1024 : null };
}

/** The config the engine and its scheduler run by: the plan's batch limits and bucket rows in place of 'auto'. */
function plannedConfig(config: EngineConfig, plan: EnginePlan): EngineConfig {
  const r = plan.resolved;
  return { ...config, maxRunningSequences: r.maxRunningSequences, maxPrefillSequences: r.maxPrefillSequences, shapeBuckets: { ...config.shapeBuckets, talkerRows: r.shapeBuckets.talkerRows, codePredictorRows: r.shapeBuckets.codePredictorRows } };
}

/**
 * The capture-ready form of a stage that the plan runs bound: its session needs the ioBinding capability
 * (the C-API adapter), and its buffers sit where the plan puts them.
 */
function captureSetup(manifest: ModelManifest, modelDir: string, plan: EnginePlan, capture: CapturePlan, graph: keyof ModelManifest['graphs'], stage: keyof CapturePlan['captured']): { model: string; setup: BoundSetup } {
  const spec = manifest.graphs[graph];
  if (!spec) throw new StudioError('model-invalid', `graphCapture.mode '${capture.mode}' needs the capture-ready graph ${graph}, which this build lacks; rebuild the model with 'studio model build'`, { field: 'graphCapture.mode' });
  const options = plan.sessionOptions;
  const captureOptions = stageCaptureOptions(capture, stage);
  return {
    model: path.join(modelDir, spec.file),
    setup: {
      open: (model, extra) => createSession(model, { ...options, ...extra, providerOptions: { ...options.providerOptions, ...extra.providerOptions } }),
      captureOptions,
      location: capture.location,
      maxBuckets: capture.maxBuckets,
      perGraph: capturePerGraph(plan.provider, captureOptions),
      perBucket: stage === 'codec' && capture.sessionPerBucket.codec,
    },
  };
}

async function openBoundDecode(manifest: ModelManifest, modelDir: string, plan: EnginePlan, kv: HostKvStore): Promise<BoundTalkerDecode | undefined> {
  if (!plan.capture) return undefined;
  const c = captureSetup(manifest, modelDir, plan, plan.capture, plan.capture.graphs.talker, 'talker');
  return BoundTalkerDecode.open(c.model, manifest, kv.pool, c.setup);
}

/** The code predictor: the loop graph (its capture-ready form when the plan runs it bound) or the step graph (never captured). */
async function openCodePredictor(manifest: ModelManifest, modelDir: string, plan: EnginePlan, embeddings: EmbeddingTables): Promise<CodePredictorStage> {
  const useLoop = plan.resolved.codePredictor === 'loop';
  // a provider that cannot capture the loop's GroupQueryAttention runs its plain-attention form in both bound modes (like-for-like bytes)
  const bound = plan.capture?.graphs.codePredictor;
  if (plan.capture && bound) {
    const c = captureSetup(manifest, modelDir, plan, plan.capture, bound, 'codePredictor');
    return BoundCodePredictorLoop.open(c.model, manifest, embeddings, c.setup);
  }
  const cpGraph = useLoop ? manifest.graphs.codePredictorLoop : manifest.graphs.codePredictorStep;
  const cpSession = await createSession(path.join(modelDir, cpGraph.file), plan.sessionOptions);
  return useLoop ? new OrtCodePredictorLoop(cpSession, manifest, embeddings) : new OrtCodePredictor(cpSession, manifest, embeddings);
}

/** The codec: the streaming graph's capture-ready form on bound buffers when the plan runs it bound, else the window or streaming graph. */
async function openCodec(manifest: ModelManifest, modelDir: string, plan: EnginePlan): Promise<CodecStage> {
  const bound = plan.capture?.graphs.codec;
  if (plan.capture && bound) {
    const c = captureSetup(manifest, modelDir, plan, plan.capture, bound, 'codec');
    return BoundCodecStream.open(c.model, manifest, c.setup, bound);
  }
  const stream = plan.resolved.codec.mode === 'stream';
  return openCodecDecoder(modelDir, manifest, plan.sessionOptions, plan.codecGraph, stream && plan.resolved.codec.stateStore === 'device');
}

/** The session options every stage starts from: provider, device pin, threads (the plan's; exported for tests). */
export function stageSessionOptions(manifest: ModelManifest, config: EngineConfig, provider: ProviderName): SessionOptions {
  return planEngine(config, provider, manifest).sessionOptions;
}

async function openStages(manifest: ModelManifest, modelDir: string, plan: EnginePlan, kv: Readonly<KvSize>): Promise<ModelStages> {
  const r = plan.resolved;
  const embeddings = new EmbeddingTables(modelDir, manifest);
  try {
    const buckets = r.shapeBuckets.mode === 'on';
    const talkerRows = buckets ? { decode: r.shapeBuckets.talkerRows, prefill: r.shapeBuckets.talkerPrefillRows } : null;
    const talkerSessionOptions: SessionOptions = plan.talkerOutputsOnDevice ? { ...plan.sessionOptions, gpuOutputs: presentNames(manifest.talker.numLayers) } : plan.sessionOptions;
    const talkerSession = await createSession(path.join(modelDir, manifest.graphs.talker.file), talkerSessionOptions);
    const talkerOptions = await talkerOptionsFor(manifest, r, plan.provider, talkerRows, kv);
    const boundDecode = await openBoundDecode(manifest, modelDir, plan, talkerOptions.kv as HostKvStore);
    const talker = new OrtTalker(talkerSession, manifest, { ...talkerOptions, boundDecode });
    const innerPredictor = await openCodePredictor(manifest, modelDir, plan, embeddings);
    const codePredictor = buckets ? new BucketedCodePredictor(innerPredictor, r.shapeBuckets.codePredictorRows) : innerPredictor;
    const innerCodec = await openCodec(manifest, modelDir, plan);
    const codec = buckets ? new BucketedCodec(innerCodec, r.shapeBuckets.codecMinRows, r.shapeBuckets.codecMaxRowFrames) : innerCodec;
    return { talker, codePredictor, codec, embeddings, numCodeGroups: manifest.numCodeGroups };
  } catch (err) {
    embeddings.dispose();
    throw err;
  }
}

/** The warm-up before the engine is handed out (so a host says ready only after it); a failed one disposes the engine. */
async function warmUpOrDispose(engine: Engine, plan: ReturnType<typeof planWarmUp>, log: (line: string) => void): Promise<void> {
  try {
    log(describeWarmUp(await engine.warmUp(plan)));
  } catch (err) {
    await engine.dispose();
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
  const probe = probeProviders();
  const providers = planProviders(config.provider, probe, manifest.dtype);
  const failures: string[] = [];
  const failedProviders: ProviderName[] = [];
  const machine = options.deviceMemoryBytes !== undefined ? { deviceMemoryBytes: options.deviceMemoryBytes } : await readPlanMachine(config, providers.candidates.map((c) => c.provider));
  for (const candidate of providers.candidates) {
    try {
      const build = modelDirForProvider(options.modelDir, manifest, candidate.preferredDtype);
      const buildManifest = build.modelDir === options.modelDir ? manifest : loadModelManifest(build.modelDir);
      const plan = planEngine(config, candidate.provider, buildManifest, process.env, machine);
      const planned = plannedConfig(config, plan);
      const scheduler = options.schedulerFor?.(plan.resolved);
      // the one KV size, for this build's bytes per position: the pool holds it and admission reserves from it
      const kv = kvCapacityFor(buildManifest, planned, options.kvMemoryBytes);
      const stages = await openStages(buildManifest, build.modelDir, plan, kv);
      const tried = failures.length > 0 ? `; earlier candidates failed: ${failures.join('; ')}` : '';
      const reason = `${candidate.reason}; graphs: ${build.reason}${tried}`;
      log(`engine: provider ${candidate.provider} (${reason})\n${describeEnginePlan(plan)}`);
      log(`engine: KV pool of ${kv.numBlocks} blocks × ${kv.blockTokens} positions, for the pool and for admission`);
      log(describeProviderSummary({ choice: config.provider, provider: candidate.provider, probe, failed: failedProviders, concurrency: plan.concurrency, shapeBuckets: plan.resolved.shapeBuckets.mode }));
      const engine = new Engine({ manifest: buildManifest, tokenizer, stages, config: planned, plan: summarisePlan(plan), provider: { name: candidate.provider, reason }, codecBatching: plan.resolved.codecBatching === 'on', kv, ...(scheduler ? { scheduler } : {}) });
      if (plan.resolved.warmUp === 'on') await warmUpOrDispose(engine, planWarmUp(plan, buildManifest), log);
      return engine;
    } catch (err) {
      const error = toStudioError(err);
      if (!triesNextProvider(error.code) || providers.candidates.length === 1) throw error;
      failures.push(`${candidate.provider}: ${error.message}`);
      failedProviders.push(candidate.provider);
    }
  }
  throw new StudioError('unsupported', `no execution provider could open the model: ${failures.join('; ')}`, { field: 'provider' });
}
