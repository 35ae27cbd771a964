/**
 * What the stages need from ONNX Runtime, as one small interface with two adapters behind it:
 * onnxruntime-node's JS binding (node-runtime.ts) and ORT's C API through koffi (capi/capi-runtime.ts).
 * The adapter is chosen by capability (what the session options ask for), never by provider name
 * checks in the stages. Host tensors are onnxruntime-common Tensor objects in both adapters.
 */
import type * as ort from 'onnxruntime-node';

export type ProviderName = 'cpu' | 'webgpu' | 'cuda' | 'dml';
export type OrtTensor = ort.Tensor;
/** A host tensor's typed array (Float32Array, BigInt64Array, …). */
export type HostTensorData = ort.Tensor.DataType;
export type TensorDtype = 'float32' | 'float16' | 'int64' | 'int32' | 'bool';
export type RuntimeName = 'node' | 'c-api';

export interface SessionOptions {
  provider: ProviderName;
  intraOpNumThreads?: number;
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** Keep these outputs on the device (WebGPU only). */
  gpuOutputs?: readonly string[];
  enableProfiling?: boolean;
  profileFilePrefix?: string;
  /** Session config entries (AddSessionConfigEntry keys). */
  extra?: Record<string, string>;
  /** The device (adapter) index the session runs on; absent: the provider's own choice. Each adapter turns it into its provider option (device-pinning.ts). */
  deviceIndex?: number;
  /** Options of the provider itself (WebGPU: validationMode, enableGraphCapture, …; CUDA: enable_cuda_graph, …). */
  providerOptions?: Record<string, string>;
  /** Which adapter opens the session; default: defaultRuntimeName(), upgraded when the options need a capability it lacks. */
  runtime?: RuntimeName;
  /** The caller runs it through bind() (IoBinding over fixed buffers). */
  ioBinding?: boolean;
}

/** The provider options that turn graph capture on; null: none (CPU runs the same static graphs uncaptured; DirectML untested). */
export const GRAPH_CAPTURE_OPTIONS: Readonly<Record<ProviderName, Readonly<Record<string, string>> | null>> = {
  cpu: null,
  webgpu: { enableGraphCapture: '1' },
  cuda: { enable_cuda_graph: '1' },
  dml: null,
};

/**
 * Whether the provider captures GroupQueryAttention whose past and present are separate buffers, as every
 * sub-step's inside the unrolled code-predictor loop: WebGPU (ORT 1.29) refuses, so it runs the loop's
 * plain-attention form; CUDA's is not yet known (GPU run); CPU and DirectML run the graphs uncaptured.
 */
export const CAPTURES_UNSHARED_GQA: Readonly<Record<ProviderName, boolean>> = { cpu: true, webgpu: false, cuda: true, dml: true };

/**
 * Whether the provider's captured graphs may hold a Concat whose inputs differ in length along its axis, as the
 * streaming codec's carried states joined to the new frames. ORT 1.29's CUDA Concat hands those lengths and the
 * input pointers to its kernel through pinned host memory that it frees after the run, so a replay copies whatever
 * that memory holds by then (compute-sanitizer on the H100: invalid reads in _ConcatKernel, then CUDA error 700).
 * Where false, the codec runs its capture-ready graph over bound buffers without capture (issue 35).
 */
export const CAPTURES_UNEVEN_CONCAT: Readonly<Record<ProviderName, boolean>> = { cpu: true, webgpu: true, cuda: false, dml: true };

/** Where bound buffers that a graph reads and writes live: the provider's device memory, or host memory where it has none. */
const HAS_DEVICE_MEMORY: Readonly<Record<ProviderName, boolean>> = { cpu: false, webgpu: true, cuda: true, dml: true };

export function boundBufferLocation(provider: ProviderName): 'cpu' | 'device' {
  return HAS_DEVICE_MEMORY[provider] ? 'device' : 'cpu';
}

/** A buffer bound for every run of a binding; `host` is its memory as a typed array (CPU buffers only). */
export interface StageBuffer {
  readonly name: string;
  readonly dtype: TensorDtype;
  readonly dims: readonly number[];
  readonly location: 'cpu' | 'device';
  readonly host: HostTensorData | null;
}

/** IoBinding over buffers that keep their addresses across runs (what graph capture replays against). */
export interface StageBinding {
  input(name: string, dtype: TensorDtype, dims: readonly number[], location?: 'cpu' | 'device'): StageBuffer;
  output(name: string, dtype: TensorDtype, dims: readonly number[], location?: 'cpu' | 'device'): StageBuffer;
  /** One buffer bound as an input and an output (updated in place). */
  shared(inputName: string, outputName: string, dtype: TensorDtype, dims: readonly number[], location?: 'cpu' | 'device'): StageBuffer;
  /** Binds a buffer of another binding of the same adapter. */
  attach(name: string, buffer: StageBuffer, as: 'input' | 'output'): void;
  run(settings?: { gpuGraphId?: number }): Promise<void>;
  release(): void;
}

/** What an adapter can do; createSession() picks the adapter whose capabilities cover the options. */
export interface RuntimeCapabilities {
  /** Provider options with any key reach the provider (the binding accepts a fixed list). */
  arbitraryProviderOptions: boolean;
  /** Outputs kept on the device as gpu-buffer tensors (the binding's preferredOutputLocation). */
  deviceOutputs: boolean;
  /** IoBinding with inputs and outputs in buffers that persist across runs. */
  ioBinding: boolean;
  /** Run options per run (gpu_graph_id selects one captured graph per shape). */
  runConfig: boolean;
}

/** The C-API adapter's capabilities, known without loading it (capi/capi-runtime.ts uses these). */
export const CAPI_CAPABILITIES: RuntimeCapabilities = { arbitraryProviderOptions: true, deviceOutputs: false, ioBinding: true, runConfig: true };

/** One ONNX Runtime session as the stages use it. */
export interface StageSession {
  readonly runtime: RuntimeName;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>>;
  /** IoBinding (adapters with the ioBinding capability). */
  bind?(): StageBinding;
  /** Ends profiling and returns the profile file's path ('' when profiling was off). */
  endProfiling(): Promise<string>;
  release(): Promise<void>;
}

export interface OrtRuntime {
  readonly name: RuntimeName;
  readonly capabilities: RuntimeCapabilities;
  /** The ONNX Runtime core version this adapter runs on. */
  version(): string;
  createSession(model: string | Uint8Array, options: SessionOptions): Promise<StageSession>;
}

/** Provider option keys onnxruntime-node's binding passes on (js/node/src/session_options_helper.cc); others are dropped. */
export const BINDING_PROVIDER_OPTION_KEYS: Readonly<Record<ProviderName, readonly string[]>> = {
  cpu: [],
  webgpu: ['preferredLayout', 'validationMode', 'storageBufferCacheMode', 'forceCpuNodeNames'],
  cuda: ['deviceId'],
  dml: ['deviceId'],
};

/** The capabilities these options need (an empty list: any adapter opens them). */
export function requiredCapabilities(options: SessionOptions): (keyof RuntimeCapabilities)[] {
  const needs: (keyof RuntimeCapabilities)[] = [];
  const allowed = BINDING_PROVIDER_OPTION_KEYS[options.provider];
  if (Object.keys(options.providerOptions ?? {}).some((k) => !allowed.includes(k))) needs.push('arbitraryProviderOptions');
  if ((options.gpuOutputs?.length ?? 0) > 0) needs.push('deviceOutputs');
  if (options.ioBinding) needs.push('ioBinding', 'runConfig');
  return needs;
}

/**
 * The adapter for these options: the preferred one when it has every needed capability, otherwise the
 * first that has them all; null (with the missing capabilities) when none has.
 */
export function chooseRuntime(
  options: SessionOptions,
  preferred: RuntimeName,
  available: readonly Pick<OrtRuntime, 'name' | 'capabilities'>[],
): { name: RuntimeName; reason: string } | { name: null; reason: string } {
  const needs = requiredCapabilities(options);
  const covers = (r: Pick<OrtRuntime, 'capabilities'>) => needs.every((n) => r.capabilities[n]);
  const first = available.find((r) => r.name === preferred);
  if (first && covers(first)) return { name: first.name, reason: needs.length ? `${preferred} has ${needs.join(', ')}` : `${preferred} (preferred)` };
  const other = available.find(covers);
  if (other) return { name: other.name, reason: `${other.name}: the options need ${needs.join(', ')}, which ${preferred} lacks` };
  return { name: null, reason: `no ONNX Runtime adapter has ${needs.join(', ')} (adapters: ${available.map((r) => r.name).join(', ')})` };
}

/** The adapter used when nothing asks for another: STUDIO_ORT_RUNTIME ('node' | 'c-api'), else 'node'. */
export function defaultRuntimeName(env: NodeJS.ProcessEnv = process.env): RuntimeName {
  return env.STUDIO_ORT_RUNTIME === 'c-api' ? 'c-api' : 'node';
}
