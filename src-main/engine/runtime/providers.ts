/**
 * The execution providers as one table of capabilities (as transformers.js keeps one backend table):
 * where each keeps its memory, what its kernels and graph capture can do, how ONNX Runtime names it
 * and its options, what a machine needs to run it, and where 'auto' ranks it. Code elsewhere reads
 * these capabilities and never compares provider names; names stay as the table's keys, in config
 * validation and in messages. Pure data: no ONNX Runtime import. Facts from ORT 1.29's sources.
 */

import type { ProviderName } from '../../../src-shared/provider-names';

/** The providers' names (and labels, for the UI) live in src-shared/provider-names.ts; this table keys every capability by them. */
export type { ProviderName };

/** Where a buffer bound for IoBinding lives: host memory, or the provider's device memory. */
export type BufferLocation = 'cpu' | 'device';

export interface ProviderCapabilities {
  /** Its name in messages. */
  readonly label: string;
  /** It has memory of its own; bound buffers live there (host memory where it has none). */
  readonly deviceMemory: boolean;
  /** The name ORT's OrtMemoryInfo gives the memory it runs in (on the CPU: the host, bound like a device). */
  readonly memoryName: string;
  /** Outputs can stay on the device as gpu-buffer tensors between runs (SessionOptions.gpuOutputs, the binding's preferredOutputLocation). */
  readonly gpuBufferOutputs: boolean;
  /** A row's result does not change with the batch's row count (CPU measured so; WebGPU and CUDA not: shape buckets, docs/benchmarks.md). */
  readonly batchInvariant: boolean;
  /**
   * Its kernels give a row other bytes at another row count even inside shape buckets, so where buckets are on
   * every stage runs exactly talkerRows rows (prefill and codec too). CUDA, H100: with the default buckets the
   * codec at 2 rows vs 8 gave one request 1 LSB apart (same codes); with every run at 8 rows, the same bytes
   * alone and beside 7 others (lab/gpu/step-profile.ts, docs/benchmarks.md).
   */
  readonly fullRowBuckets: boolean;
  /** With more than one intra-op thread a batched row can differ from its solo run (CPU: up to 3.3e-6, lab/gpu/codec-batch-diff.ts). */
  readonly threadedRowsDiffer: boolean;
  /** The build dtype it runs best: fp16 on GPUs (half the weight bytes per frame), fp32 on the CPU (MLAS is fp32; fp16 runs but converts). */
  readonly preferredDtype: 'fp16' | 'fp32';
  /**
   * 'auto' tries providers from the lowest rank up. H100, one lease (docs/benchmarks.md, "CUDA on builder v16 with the
   * prefix KV cache…"): CUDA one stream at RTF 0.772 (0.508 with a codec session per bucket, another lease), WebGPU at
   * 1.008, but WebGPU's first audio is sooner (190 vs 362 ms), it leads at 8 clients (4.1 vs 3.3 audio-s/s) and it
   * holds 2–3 GB of GPU memory against CUDA's 26–40 GB, so WebGPU keeps rank 1; the CPU
   * ran at 3.59 (16 cores, fp32, issue 9). DirectML keeps its place before WebGPU on Windows (not measured against each other).
   */
  readonly autoRank: number;
  readonly graphCapture: {
    /** The provider options that turn capture on; null: none (the CPU runs the same static graphs uncaptured; DirectML untested). */
    readonly options: Readonly<Record<string, string>> | null;
    /** Captured graphs one session keeps: many (one per gpu_graph_id, CUDA graphs) or one (WebGPU: one command list per session). */
    readonly graphsPerSession: 'one' | 'many';
    /**
     * It captures GroupQueryAttention whose past and present are separate buffers, as every sub-step's inside
     * the unrolled code-predictor loop: WebGPU refuses, so it runs the loop's plain-attention form; CUDA's is
     * not yet known (GPU run); CPU and DirectML run the graphs uncaptured.
     */
    readonly unsharedGqa: boolean;
    /**
     * graphCapture 'auto' turns capture on (the captured engine is this provider's fastest measured form).
     * CUDA, H100: the captured talker and code predictor with the MatMul codec gave one stream RTF 0.86 against
     * 1.70 for the shipped bound form (issue 47, docs/benchmarks.md). WebGPU's capture ran at half its plain speed.
     */
    readonly byDefault: boolean;
    /**
     * Its captured streaming codec replays give the bytes of the same graph uncaptured, so graphCapture.codec
     * 'auto' captures it. CUDA, H100 (2026-12-07, builder v15, the carry joined without Concat): every request
     * after the first differed from the bound run in capture-check, and the bench found responses off their
     * golden; the cause is not yet found (docs/benchmarks.md), so CUDA runs its codec bound and uncaptured.
     * WebGPU's captured codec gave the bound bytes on the H100 (builder v13).
     */
    readonly codecReplays: boolean;
    /**
     * Its convolutions keep one kernel plan per node for the last input shape and rebuild it when the shape
     * changes (ORT's cuDNN Conv), so an uncaptured bound codec gives each shape bucket a session of its own
     * (EnginePlan capture.sessionPerBucket.codec) rather than rebuilding every Conv's plan on each chunk length.
     */
    readonly planPerShape: boolean;
  };
  /**
   * How codec.upsample 'auto' writes the streaming codec's transposed convolutions: 'matmul' where the
   * provider's ConvTranspose kernels are slow (cuDNN: 390 of the codec's 455 ms of kernel time, H100), else
   * 'conv-transpose' (WebGPU and the CPU run both forms at the same speed).
   */
  readonly codecUpsample: 'conv-transpose' | 'matmul';
  /**
   * The batch limits the 'auto' concurrency settings take on this provider when its device's memory holds the
   * widest running set (engine-plan.ts resolveConcurrency; null: the narrow defaults everywhere, as on the CPU,
   * whose kernels gain nothing from wider runs, and DirectML, not measured). Issue 42: 64 closed-loop clients queued
   * behind 8 running sequences on the H100; the 64-row settings are the `cudawide` bench variant's (CUDA) and the
   * README's server setting (WebGPU, 2.3× the defaults' throughput at 64 clients on the H200, docs/benchmarks.md).
   * Taken only for workload 'server' (`studio serve`). CUDA has none yet: at 64 rows every talker bucket owns its
   * KV buffers, and on an H200 (143 GB) the `cudawide` variant ran out of memory instantiating a graph at 16 and
   * 64 clients and its warm-up passed 120 s at 1 client (2026-12-07, docs/benchmarks.md).
   */
  readonly wide: { readonly maxRunningSequences: number; readonly maxPrefillSequences: number; readonly talkerRows: number; readonly codePredictorRows: number } | null;
  /** CUDA runtime calls work on its memory: cudaMalloc for a capturing session's bound buffers, cudaMemcpy when ORT's CopyTensors cannot copy. */
  readonly cudaRuntime: boolean;
  /**
   * How a session is put on device N: 'none' (no device), 'option' (a provider option: `deviceId` on the
   * node binding, `device_id` on the C API), or 'own-adapter' (only the adapter the provider picks, index 0).
   */
  readonly pinning: 'none' | 'option' | 'own-adapter';
  /**
   * How `--devices` starts one engine host per device (engine-client/engine-devices.ts): the lister that counts
   * the devices, and how an engine is put on one: 'visible-env' (CUDA_VISIBLE_DEVICES per engine host),
   * 'device-index' (the engine config's deviceIndex), 'one-adapter' (one engine: the adapter cannot be chosen),
   * 'cpu-threads' (one process per entry with the cores split).
   */
  readonly devices: { readonly lister: 'nvidia-smi' | 'display-adapters' | null; readonly perEngine: 'visible-env' | 'device-index' | 'one-adapter' | 'cpu-threads' };
  readonly ort: {
    /** Its name in the node binding's executionProviders. */
    readonly bindingName: string;
    /** Provider option keys the node binding passes on (js/node/src/session_options_helper.cc); it drops others. */
    readonly bindingOptionKeys: readonly string[];
    /** How the C API adds it: built in (nothing to add), CUDA's V2 options, or SessionOptionsAppendExecutionProvider by name. */
    readonly capiAppend: { readonly kind: 'builtin' } | { readonly kind: 'cuda-v2' } | { readonly kind: 'generic'; readonly name: string };
    /**
     * Provider options every session starts from; EngineConfig.providerOptions overrides them key by key.
     * CUDA: cuDNN picks convolution plans by heuristic with its largest workspace, in NHWC where it prefers
     * it: the codec's step fell from 101–211 to 26–52 ms on the H100 (issue 47). Keys the node binding does
     * not pass move the sessions to the C-API adapter (runtime.ts chooseRuntime).
     */
    readonly defaultOptions: Readonly<Record<string, string>>;
    /** The shared library ORT loads from its bin folder for it when it is not bundled in the core. */
    readonly library: string | null;
  };
  /** What a machine needs to run it (provider-select.ts checks these, in this order). */
  readonly requires: {
    /** Listed by the onnxruntime-node build (every provider but the CPU, which is in the core). */
    readonly backend: boolean;
    /** The platforms it exists on, with their names for messages (null: every platform). */
    readonly platforms: { readonly names: readonly NodeJS.Platform[]; readonly label: string } | null;
    /** Its library installed beside the core, by this command (null: nothing to install). */
    readonly setup: string | null;
    /** A device: 'nvidia' (/dev/nvidiactl), 'gpu' (on Linux a DRM render node or an NVIDIA device; a software Vulkan driver only when asked for explicitly), or none. */
    readonly device: 'nvidia' | 'gpu' | null;
    /** Runtime libraries that must load before it is planned (the probe loads them where it is installed and its device is here), or null. */
    readonly libraries: 'cuda-13' | null;
  };
  /** The fix named when adding it to a session fails for want of its libraries (null: the generic fix). */
  readonly installFix: string | null;
}

export const PROVIDERS: Readonly<Record<ProviderName, ProviderCapabilities>> = {
  cpu: {
    label: 'CPU',
    deviceMemory: false,
    memoryName: 'Cpu',
    gpuBufferOutputs: false,
    batchInvariant: true,
    threadedRowsDiffer: true,
    fullRowBuckets: false,
    preferredDtype: 'fp32',
    autoRank: 3,
    graphCapture: { options: null, graphsPerSession: 'many', unsharedGqa: true, byDefault: false, codecReplays: true, planPerShape: false },
    codecUpsample: 'conv-transpose',
    wide: null,
    cudaRuntime: false,
    pinning: 'none',
    devices: { lister: null, perEngine: 'cpu-threads' },
    ort: { bindingName: 'cpu', bindingOptionKeys: [], capiAppend: { kind: 'builtin' }, defaultOptions: {}, library: null },
    requires: { backend: false, platforms: null, setup: null, device: null, libraries: null },
    installFix: null,
  },
  webgpu: {
    label: 'WebGPU',
    deviceMemory: true,
    memoryName: 'WebGPU_Buf',
    gpuBufferOutputs: true,
    batchInvariant: false,
    threadedRowsDiffer: false,
    fullRowBuckets: false,
    preferredDtype: 'fp16',
    autoRank: 1,
    graphCapture: { options: { enableGraphCapture: '1' }, graphsPerSession: 'one', unsharedGqa: false, byDefault: false, codecReplays: true, planPerShape: false },
    codecUpsample: 'conv-transpose',
    wide: { maxRunningSequences: 64, maxPrefillSequences: 16, talkerRows: 64, codePredictorRows: 64 },
    cudaRuntime: false,
    pinning: 'own-adapter',
    devices: { lister: null, perEngine: 'one-adapter' },
    ort: { bindingName: 'webgpu', bindingOptionKeys: ['preferredLayout', 'validationMode', 'storageBufferCacheMode', 'forceCpuNodeNames'], capiAppend: { kind: 'generic', name: 'WebGPU' }, defaultOptions: {}, library: null },
    requires: { backend: true, platforms: null, setup: null, device: 'gpu', libraries: null },
    installFix: null,
  },
  cuda: {
    label: 'CUDA',
    deviceMemory: true,
    memoryName: 'Cuda',
    gpuBufferOutputs: false,
    batchInvariant: false,
    threadedRowsDiffer: false,
    fullRowBuckets: true,
    preferredDtype: 'fp16',
    autoRank: 2,
    graphCapture: { options: { enable_cuda_graph: '1' }, graphsPerSession: 'many', unsharedGqa: true, byDefault: true, codecReplays: false, planPerShape: true },
    codecUpsample: 'matmul',
    wide: null,
    cudaRuntime: true,
    pinning: 'option',
    devices: { lister: 'nvidia-smi', perEngine: 'visible-env' },
    ort: { bindingName: 'cuda', bindingOptionKeys: ['deviceId'], capiAppend: { kind: 'cuda-v2' }, defaultOptions: { cudnn_conv_algo_search: 'HEURISTIC', cudnn_conv_use_max_workspace: '1', prefer_nhwc: '1' }, library: 'libonnxruntime_providers_cuda.so' },
    requires: { backend: true, platforms: null, setup: 'npm run setup:cuda', device: 'nvidia', libraries: 'cuda-13' },
    installFix: "install the CUDA provider with 'npm run setup:cuda' and make the CUDA 13 libraries loadable (STUDIO_CUDA_LIB_PATH), or pick --provider webgpu/cpu",
  },
  dml: {
    label: 'DirectML',
    deviceMemory: true,
    memoryName: 'DML',
    gpuBufferOutputs: false,
    batchInvariant: false,
    threadedRowsDiffer: false,
    fullRowBuckets: false,
    preferredDtype: 'fp16',
    autoRank: 0,
    graphCapture: { options: null, graphsPerSession: 'one', unsharedGqa: true, byDefault: false, codecReplays: true, planPerShape: false },
    codecUpsample: 'conv-transpose',
    wide: null,
    cudaRuntime: false,
    pinning: 'option',
    devices: { lister: 'display-adapters', perEngine: 'device-index' },
    ort: { bindingName: 'dml', bindingOptionKeys: ['deviceId'], capiAppend: { kind: 'generic', name: 'DML' }, defaultOptions: {}, library: null },
    requires: { backend: true, platforms: { names: ['win32'], label: 'Windows' }, setup: null, device: null, libraries: null },
    installFix: null,
  },
};

/** Every provider, in the table's order (the order config validation lists them in). */
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

/** The capabilities of a provider named in config that has not been validated yet (undefined: not a provider). */
export function findProvider(name: string): ProviderCapabilities | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as ProviderName] : undefined;
}

/** The providers 'auto' tries, best first. */
export const AUTO_ORDER: readonly ProviderName[] = [...PROVIDER_NAMES].sort((a, b) => PROVIDERS[a].autoRank - PROVIDERS[b].autoRank);

/** Provider option keys that turn graph capture on, of every provider (CUDA graphs, WebGPU graph capture). */
export const CAPTURE_OPTION_KEYS: readonly string[] = PROVIDER_NAMES.flatMap((p) => Object.keys(PROVIDERS[p].graphCapture.options ?? {}));

/** Where bound buffers that a graph reads and writes live: the provider's device memory, or host memory where it has none. */
export function boundBufferLocation(provider: ProviderName): BufferLocation {
  return PROVIDERS[provider].deviceMemory ? 'device' : 'cpu';
}

/**
 * How `--devices` counts and pins engines for a provider choice (engine-client/engine-devices.ts): a provider's
 * own `devices`; for 'auto' those of the best-ranked provider that has a device lister and exists on every
 * platform (CUDA: DirectML is Windows-only, WebGPU lists no devices); a name the table lacks pins by
 * CUDA_VISIBLE_DEVICES with no lister (config validation rejects it later).
 */
export function deviceFactsFor(choice: string): ProviderCapabilities['devices'] {
  const provider = findProvider(choice);
  if (provider) return provider.devices;
  if (choice !== 'auto') return { lister: null, perEngine: 'visible-env' };
  const lister = AUTO_ORDER.find((p) => PROVIDERS[p].devices.lister !== null && PROVIDERS[p].requires.platforms === null);
  return lister ? PROVIDERS[lister].devices : { lister: null, perEngine: 'visible-env' };
}

/** The machine facts a device requirement reads (runtime/provider-probe.ts gathers them). */
export interface DeviceFacts {
  readonly platform: NodeJS.Platform;
  readonly hasNvidiaDevice: boolean;
  readonly hasRenderNode: boolean;
}

/** Whether the machine has the device `requires.device` names ('gpu': any GPU node, or Windows/macOS; a software Vulkan driver is provider-select's call). */
export function hasRequiredDevice(device: ProviderCapabilities['requires']['device'], machine: DeviceFacts): boolean {
  switch (device) {
    case 'nvidia':
      return machine.hasNvidiaDevice;
    case 'gpu':
      return machine.platform === 'win32' || machine.platform === 'darwin' || machine.hasNvidiaDevice || machine.hasRenderNode;
    case null:
      return true;
  }
}
