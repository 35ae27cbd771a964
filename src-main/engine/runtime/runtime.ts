/**
 * What the stages need from ONNX Runtime, as one small interface with two adapters behind it:
 * onnxruntime-node's JS binding (node-runtime.ts) and ORT's C API through koffi (capi/capi-runtime.ts).
 * The adapter is chosen by capability (what the session options ask for), never by provider name
 * checks in the stages; what each provider can do is in providers.ts. Host tensors are
 * onnxruntime-common Tensor objects in both adapters.
 */
import type * as ort from 'onnxruntime-node';
import { PROVIDERS, type BufferLocation, type ProviderName } from './providers';

export type { BufferLocation, ProviderName } from './providers';
export type OrtTensor = ort.Tensor;
/** A host tensor's typed array (Float32Array, BigInt64Array, …). */
export type HostTensorData = ort.Tensor.DataType;
export type TensorDtype = 'float32' | 'float16' | 'int64' | 'int32' | 'bool';
export type RuntimeName = 'node' | 'c-api';

export interface SessionOptions {
  provider: ProviderName;
  intraOpNumThreads?: number;
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** Keep these outputs on the device (providers with gpuBufferOutputs, providers.ts). */
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

/** A buffer bound for every run of a binding; `host` is its memory as a typed array (CPU buffers only). */
export interface StageBuffer {
  readonly name: string;
  readonly dtype: TensorDtype;
  readonly dims: readonly number[];
  readonly location: BufferLocation;
  readonly host: HostTensorData | null;
}

/** IoBinding over buffers that keep their addresses across runs (what graph capture replays against). */
export interface StageBinding {
  input(name: string, dtype: TensorDtype, dims: readonly number[], location?: BufferLocation): StageBuffer;
  output(name: string, dtype: TensorDtype, dims: readonly number[], location?: BufferLocation): StageBuffer;
  /** One buffer bound as an input and an output (updated in place). */
  shared(inputName: string, outputName: string, dtype: TensorDtype, dims: readonly number[], location?: BufferLocation): StageBuffer;
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

/** The node binding's capabilities (node-runtime.ts uses these). */
export const NODE_CAPABILITIES: RuntimeCapabilities = { arbitraryProviderOptions: false, deviceOutputs: true, ioBinding: false, runConfig: false };

/** The C-API adapter's capabilities, known without loading it (capi/capi-runtime.ts uses these). */
export const CAPI_CAPABILITIES: RuntimeCapabilities = { arbitraryProviderOptions: true, deviceOutputs: false, ioBinding: true, runConfig: true };

/** Both adapters by name and capabilities, known without loading either (the order chooseRuntime falls back in). */
export const ADAPTERS: readonly Pick<OrtRuntime, 'name' | 'capabilities'>[] = [
  { name: 'node', capabilities: NODE_CAPABILITIES },
  { name: 'c-api', capabilities: CAPI_CAPABILITIES },
];

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

/** The capabilities these options need (an empty list: any adapter opens them). */
export function requiredCapabilities(options: SessionOptions): (keyof RuntimeCapabilities)[] {
  const needs: (keyof RuntimeCapabilities)[] = [];
  const allowed = PROVIDERS[options.provider].ort.bindingOptionKeys;
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
