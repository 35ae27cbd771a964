/**
 * Inproc benchmark variants: each starts its own engine host (the studio stack) under one engine
 * configuration and exposes it as a BenchTarget through the same contract the UI uses, so the
 * benchmark measures what users get. 'serial' is one sequence at a time (the baseline), 'batched'
 * the defaults; the others each change one thing (arrival gathering, 64 running sequences and their
 * shape buckets, the codec mode and codec bucket, KV regroup through the host pool), as their descriptions say.
 * The GPU-run variants (webgpu, webgpucapture, cuda, cudagraph) carry their provider; a --provider given
 * to the bench replaces it (a test runs them on cpu so).
 */
import { StudioError } from '../../src-shared/errors';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createInprocTarget } from '../bench/inproc-target';
import type { BenchTarget, BenchVariant } from '../bench/target';
import { encodeWav } from '../audio/wav-encode';
import { createStudioStack, type StudioStack } from './studio-stack';

export interface InprocVariantOptions {
  model?: string;
  userDataDir?: string;
  provider?: string;
  /** Engine config applied to every variant under the variant's own settings. */
  engineConfig?: Record<string, unknown>;
  log?: (m: string) => void;
}

/** Engine / scheduler overrides per named variant. */
export const INPROC_VARIANT_CONFIGS: Record<string, { description: string; engineConfig: Record<string, unknown>; schedulerConfig: Record<string, unknown> }> = {
  serial: { description: 'one sequence at a time (maxRunningSequences 1)', engineConfig: { maxRunningSequences: 1, maxPrefillSequences: 1 }, schedulerConfig: {} },
  batched: { description: "continuous batching with the default limits ('auto': the provider's wide limits where the device's memory holds them, else 8 running)", engineConfig: {}, schedulerConfig: {} },
  cohort: {
    description: 'continuous batching whose bulk arrivals wait up to 600 ms to join together (scheduler joinWaitMs)',
    engineConfig: {},
    schedulerConfig: { joinWaitMs: 600 },
  },
  wide: {
    description: 'continuous batching with up to 64 running sequences (16 admitted per step), rows in 8s as measured before the plan picked them',
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 8, codePredictorRows: 8 } },
    schedulerConfig: {},
  },
  widecp64: {
    description: 'up to 64 running sequences (16 admitted per step), every code-predictor call padded to 64 rows (talker decode and prefill runs of 8, as measured), first codec chunk 4 frames, window codec',
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 8, talkerPrefillRows: 8, codePredictorRows: 64 }, codec: { mode: 'window', firstChunkFrames: 4 } },
    schedulerConfig: {},
  },
  wide64: {
    description: 'up to 64 running sequences (16 admitted per step), talker runs (prefill too) and code-predictor calls padded to 64 rows, first codec chunk 4 frames, window codec',
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, talkerPrefillRows: 64, codePredictorRows: 64 }, codec: { mode: 'window', firstChunkFrames: 4 } },
    schedulerConfig: {},
  },
  widet64: {
    description: 'widecp64 with talker decode runs of 64 rows',
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, talkerPrefillRows: 8, codePredictorRows: 64 }, codec: { mode: 'window', firstChunkFrames: 4 } },
    schedulerConfig: {},
  },
  server: {
    description: "the README's setting for a server with many clients: widet64 with the default codec (streaming, state on the device on WebGPU)",
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, talkerPrefillRows: 8, codePredictorRows: 64 }, codec: { firstChunkFrames: 4 } },
    schedulerConfig: {},
  },
  throughput: {
    description: 'widecp64 with window-codec chunks of 4, 8, 16, then 24 frames (less left context decoded again per new frame)',
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 8, talkerPrefillRows: 8, codePredictorRows: 64 }, codec: { mode: 'window', firstChunkFrames: 4, chunkFrames: 24 } },
    schedulerConfig: {},
  },
  prefill8: {
    description: 'the defaults with talker prefill runs padded to 8 rows (the default until 2026-12-04; now 1)',
    engineConfig: { shapeBuckets: { talkerPrefillRows: 8 } },
    schedulerConfig: {},
  },
  window: {
    description: "the defaults with codec mode 'window' (each chunk decoded again with 25 frames of left context, no carried state)",
    engineConfig: { codec: { mode: 'window' } },
    schedulerConfig: {},
  },
  stream: {
    description: "codec mode 'stream', as 'auto' picks (new frames only, the codec state carried between calls: on the device on WebGPU, on the host elsewhere)",
    engineConfig: { codec: { mode: 'stream' } },
    schedulerConfig: {},
  },
  streamhost: {
    description: "codec mode 'stream' with its state copied through the host on every call (codec.stateStore 'host')",
    engineConfig: { codec: { mode: 'stream', stateStore: 'host' } },
    schedulerConfig: {},
  },
  widestream: {
    description: "widecp64 with codec mode 'stream' (state on the device on WebGPU)",
    engineConfig: { maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 8, talkerPrefillRows: 8, codePredictorRows: 64 }, codec: { mode: 'stream', firstChunkFrames: 4 } },
    schedulerConfig: {},
  },
  codecunsplit: {
    description: 'the defaults with codec calls never split by rows × frames (shapeBuckets.codecMaxRowFrames 0)',
    engineConfig: { shapeBuckets: { codecMaxRowFrames: 0 } },
    schedulerConfig: {},
  },
  webgpu: {
    description: 'GPU run, WebGPU as today: the defaults on provider webgpu (onnxruntime-node adapter, talker.onnx per step)',
    engineConfig: { provider: 'webgpu' },
    schedulerConfig: {},
  },
  webgpucapture: {
    description: "GPU run, WebGPU + graph capture: the capture-ready talker decode, plain-attention loop and streaming codec through the C-API adapter's IoBinding, enableGraphCapture on, a session per bucket (graphCapture 'on')",
    engineConfig: { provider: 'webgpu', graphCapture: { mode: 'on' } },
    schedulerConfig: {},
  },
  cuda: {
    description: "GPU run, CUDA through the C-API adapter with the talker decode on bound buffers, no capture (graphCapture 'bound')",
    engineConfig: { provider: 'cuda', graphCapture: { mode: 'bound' } },
    schedulerConfig: {},
  },
  cudagraph: {
    description: "GPU run, CUDA + CUDA graphs: the bound talker decode with enable_cuda_graph on, one captured graph per rows × capacity bucket (graphCapture 'on')",
    engineConfig: { provider: 'cuda', graphCapture: { mode: 'on' } },
    schedulerConfig: {},
  },
  cudagraphheur: {
    description: "cudagraph with cuDNN's convolution algorithm picked by heuristic (cudnn_conv_algo_search HEURISTIC) instead of ORT's default exhaustive search per new input shape (the codec's convolutions)",
    engineConfig: { provider: 'cuda', graphCapture: { mode: 'on' }, providerOptions: { cudnn_conv_algo_search: 'HEURISTIC' } },
    schedulerConfig: {},
  },
  cudamatmul: {
    description: "cudagraph with the streaming codec's transposed convolutions as MatMuls (codec.upsample 'matmul': cuDNN's ConvTranspose took 390 of the codec's 455 ms of kernel time)",
    engineConfig: { provider: 'cuda', graphCapture: { mode: 'on' }, codec: { upsample: 'matmul' } },
    schedulerConfig: {},
  },
  cudaconv: {
    description: "CUDA graphs as shipped before issue 47: the ConvTranspose codec bound and uncaptured, ORT's own cuDNN search (EXHAUSTIVE, NCHW)",
    engineConfig: { provider: 'cuda', graphCapture: { mode: 'on', codec: 'off' }, codec: { upsample: 'conv-transpose' }, providerOptions: { cudnn_conv_algo_search: 'EXHAUSTIVE', prefer_nhwc: '0' } },
    schedulerConfig: {},
  },
  cudacodecbound: {
    description: "CUDA's defaults (MatMul codec, cuDNN heuristic plans, max workspace, NHWC) with the codec bound but uncaptured, said explicitly (graphCapture.codec 'off'; 'auto' is the same on CUDA)",
    engineConfig: { provider: 'cuda', graphCapture: { codec: 'off' } },
    schedulerConfig: {},
  },
  cudaauto: {
    description: "CUDA as 'auto' resolves it: talker and code predictor captured, the MatMul codec bound and uncaptured, cuDNN heuristic plans, warm-up before ready; 64 running with 64-row buckets where the GPU's memory holds them (issue 42), else 8",
    engineConfig: { provider: 'cuda' },
    schedulerConfig: {},
  },
  cudacodecshared: {
    description: "cudaauto with one session for every codec bucket (graphCapture.codecSessions 'shared'), as before a session per bucket: cuDNN rebuilds each Conv's plan when the chunk length changes",
    engineConfig: { provider: 'cuda', graphCapture: { codecSessions: 'shared' } },
    schedulerConfig: {},
  },
  cudaprefill8: {
    description: "cudaauto with each prefill run on eight rows (shapeBuckets.talkerPrefillRows 8: one arrival padded with seven copies), CUDA's default until 2026-12-07's fifth session, when one-row prefill gave one stream's first audio in 60 ms against 450 ms",
    engineConfig: { provider: 'cuda', shapeBuckets: { talkerPrefillRows: 8 } },
    schedulerConfig: {},
  },
  cudacodeccapture: {
    description: "cudaauto with the streaming codec captured too (graphCapture.codec 'on'): faster, but its replays were not byte-exact on the H100 (2026-12-07); for finding why",
    engineConfig: { provider: 'cuda', graphCapture: { codec: 'on' } },
    schedulerConfig: {},
  },
  cudanarrow: {
    description: 'cudaauto held to the narrow limits (8 running, 4 admitted per step, 8-row buckets), as CUDA ran before the plan went wide on a large GPU',
    engineConfig: { provider: 'cuda', maxRunningSequences: 8, maxPrefillSequences: 4, shapeBuckets: { talkerRows: 8, codePredictorRows: 8 } },
    schedulerConfig: {},
  },
  cudawide: {
    description: "cudaauto with up to 64 running sequences (16 admitted per step) and every bucketed stage at 64 rows, said explicitly (issue 42; 'auto' picks the same where the GPU's memory holds them)",
    engineConfig: { provider: 'cuda', maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: { talkerRows: 64, codePredictorRows: 64 } },
    schedulerConfig: {},
  },
  poolregroup: {
    description: 'continuous batching whose device-resident talker KV regroups through the host pool (kvCache.regroupOnDevice false)',
    engineConfig: { kvCache: { regroupOnDevice: false } },
    schedulerConfig: {},
  },
};

function stackTarget(stack: StudioStack, name: string): BenchTarget {
  let next = 0;
  return createInprocTarget(
    {
      async synthesize(request: SynthesisRequest, signal: AbortSignal) {
        const id = `${request.requestId}-${next++}`;
        const onAbort = () => void stack.host.call('cancel', { requestId: id }).catch(() => {});
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          const reply = await stack.dispatcher.dispatch('studio:tts.synthesize', { ...request, requestId: id, priority: 'bulk' }, { callerId: `bench-${name}`, role: 'client', emit: () => {} });
          if (!reply.ok) throw StudioError.fromSerialized(reply.error);
          const result = reply.value as SynthesisResult;
          return { ...result, wav: encodeWav(result.pcm, result.sampleRateHz, 'pcm16') };
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
      status: () => stack.host.call('status', {}) as Promise<EngineStatus>,
    },
    name,
  );
}

export function createInprocVariant(name: string, options: InprocVariantOptions = {}): BenchVariant {
  const preset = INPROC_VARIANT_CONFIGS[name];
  if (!preset) {
    throw new StudioError('invalid-argument', `'${name}' is not an inproc variant; valid: ${Object.keys(INPROC_VARIANT_CONFIGS).join(', ')}`, { field: 'variants', value: name });
  }
  let stack: StudioStack | null = null;
  return {
    name,
    description: preset.description,
    async createTarget() {
      stack = createStudioStack({
        hostKind: 'headless',
        version: 'bench',
        model: options.model,
        userDataDir: options.userDataDir,
        engineConfig: { ...options.engineConfig, ...preset.engineConfig, ...(options.provider ? { provider: options.provider } : {}) },
        schedulerConfig: preset.schedulerConfig,
        log: options.log,
      });
      await stack.host.start();
      return stackTarget(stack, name);
    },
    async teardown() {
      await stack?.dispose();
      stack = null;
    },
  };
}

export function inprocVariantFactories(options: InprocVariantOptions = {}): Record<string, () => BenchVariant> {
  return Object.fromEntries(Object.keys(INPROC_VARIANT_CONFIGS).map((name) => [name, () => createInprocVariant(name, options)]));
}
