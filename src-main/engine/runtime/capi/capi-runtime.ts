/**
 * The C-API adapter: sessions on ORT's C API with any provider option (WebGPU keys such as
 * enableGraphCapture, CUDA provider options V2 such as enable_cuda_graph), runs off the main thread
 * (koffi async calls), IoBinding with buffers that persist across runs, run options (gpu_graph_id),
 * OrtStatus → StudioError, and a count of every native object it holds (liveHandleCounts).
 */
import path from 'node:path';
import { Tensor } from 'onnxruntime-node';
import { StudioError } from '../../../../src-shared/errors';
import { buildCopyGraph, copyInputName, copyOutputName } from '../../../model-format/copy-graph';
import { ortBinDir } from '../ort-install';
import { CAPI_CAPABILITIES, type OrtRuntime, type OrtTensor, type ProviderName, type SessionOptions, type StageSession, type TensorDtype } from '../runtime';
import { loadOrtApi, nativeView, readPointers, readString, type LoadedOrtApi, type OrtApiTable, type Ptr } from './ort-api';
import { CUDA_MEMCPY, cudaCopy, cudaDeviceAlloc, cudaDeviceFree } from './cuda-memcpy';
import { preloadFoundCudaLibraries } from './cuda-preload';
import { pinnedProviderOptions } from '../device-pinning';
import { studioErrorFromStatus, type StatusContext } from './ort-status';

type Kind = 'env' | 'session' | 'value' | 'ioBinding' | 'runOptions' | 'memoryInfo' | 'allocator';
const live: Record<Kind, number> = { env: 0, session: 0, value: 0, ioBinding: 0, runOptions: 0, memoryInfo: 0, allocator: 0 };

/** Native objects this adapter created and has not released, by kind (a leak check for tests). */
export function liveHandleCounts(): Readonly<Record<Kind, number>> {
  return { ...live };
}

/** ONNX element type numbers (onnxruntime_c_api.h ONNXTensorElementDataType) and byte sizes. */
const ELEMENT: Record<TensorDtype, { onnx: number; bytes: number }> = {
  float32: { onnx: 1, bytes: 4 },
  int32: { onnx: 6, bytes: 4 },
  int64: { onnx: 7, bytes: 8 },
  bool: { onnx: 9, bytes: 1 },
  float16: { onnx: 10, bytes: 2 },
};
const DTYPE_BY_ONNX = new Map(Object.entries(ELEMENT).map(([k, v]) => [v.onnx, k as TensorDtype]));
const GRAPH_OPT_LEVEL = { disabled: 0, basic: 1, extended: 2, all: 99 } as const;
const LOG_ERROR = 3;

function typedArrayFor(dtype: TensorDtype, bytes: ArrayBuffer): Tensor.DataType {
  switch (dtype) {
    case 'float32':
      return new Float32Array(bytes);
    case 'int32':
      return new Int32Array(bytes);
    case 'int64':
      return new BigInt64Array(bytes);
    case 'bool':
      return new Uint8Array(bytes);
    case 'float16':
      return new Uint16Array(bytes);
  }
}

const elementCount = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1);

/** One loaded library: the api table, the env, the default CPU allocator. */
class CapiCore {
  readonly api: OrtApiTable;
  readonly env: Ptr;
  readonly allocator: Ptr;
  readonly cpuMemory: Ptr;
  /** Every call on the calling thread: STUDIO_CAPI_SYNC=1 (a diagnostic), or koffi's worker stacks could not be enlarged. */
  private readonly syncCalls: boolean;

  constructor(readonly loaded: LoadedOrtApi) {
    this.api = loaded.api;
    this.syncCalls = process.env.STUDIO_CAPI_SYNC === '1' || !loaded.asyncSafe;
    this.env = this.out((o) => this.api.CreateEnv(LOG_ERROR, 'studio', o), { action: 'creating the ORT environment', fix: 'reinstall onnxruntime-node (npm ci)' });
    live.env++;
    this.allocator = this.out((o) => this.api.GetAllocatorWithDefaultOptions(o), { action: 'getting the default allocator', fix: 'reinstall onnxruntime-node' });
    this.cpuMemory = this.out((o) => this.api.CreateCpuMemoryInfo(0, 0, o), { action: 'creating CPU memory info', fix: 'reinstall onnxruntime-node' });
    live.memoryInfo++;
  }

  /** Throws the StudioError for a non-NULL status (and releases it). */
  check(status: Ptr, ctx: StatusContext): void {
    if (!status) return;
    const code = this.api.GetErrorCode(status) as number;
    const message = this.api.GetErrorMessage(status) as string;
    this.api.ReleaseStatus(status);
    throw studioErrorFromStatus(code, message, ctx);
  }

  /** Calls an entry with one out-pointer and returns it. */
  out<T = Ptr>(call: (out: [T | null]) => Ptr, ctx: StatusContext): T {
    const o: [T | null] = [null];
    this.check(call(o), ctx);
    return o[0] as T;
  }

  /** Runs an entry on koffi's worker thread; resolves with its status checked. */
  async callAsync(fn: OrtApiTable[keyof OrtApiTable], args: unknown[], ctx: StatusContext): Promise<void> {
    if (this.syncCalls) return this.check(Reflect.apply(fn, null, args) as Ptr, ctx);
    const status = await new Promise<Ptr>((resolve, reject) => fn.async.apply(null, [...args, (err: Error | null, res: Ptr) => (err ? reject(err) : resolve(res))]));
    this.check(status, ctx);
  }

  /** A CPU tensor OrtValue allocated by ORT, with the host tensor's bytes copied in. */
  valueFromTensor(t: OrtTensor, ctx: StatusContext): Ptr {
    if (t.location !== 'cpu') throw new StudioError('unsupported', `${ctx.action}: the C-API adapter takes host tensors, got one @${t.location}; ${ctx.fix}`);
    const dtype = t.type as TensorDtype;
    const value = this.createValue(dtype, t.dims, ctx);
    const src = t.data as ArrayBufferView;
    new Uint8Array(this.dataView(value, dtype, t.dims)).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
    return value;
  }

  createValue(dtype: TensorDtype, dims: readonly number[], ctx: StatusContext, allocator: Ptr = this.allocator): Ptr {
    const element = ELEMENT[dtype];
    if (!element) throw new StudioError('invalid-argument', `${ctx.action}: dtype ${dtype} is not one the adapter handles (${Object.keys(ELEMENT).join(', ')})`);
    const value = this.out((o) => this.api.CreateTensorAsOrtValue(allocator, dims.map(BigInt), dims.length, element.onnx, o), ctx);
    live.value++;
    return value;
  }

  releaseValue(value: Ptr): void {
    this.api.ReleaseValue(value);
    live.value--;
  }

  /** The value's memory (CPU values only) as an ArrayBuffer, no copy. */
  dataView(value: Ptr, dtype: TensorDtype, dims: readonly number[]): ArrayBuffer {
    const bytes = elementCount(dims) * ELEMENT[dtype].bytes;
    if (bytes === 0) return new ArrayBuffer(0);
    const data = this.out((o) => this.api.GetTensorMutableData(value, o), { action: 'reading a tensor', fix: 'report this as a bug' });
    return nativeView(data, bytes);
  }

  /** dtype and dims of a tensor value. */
  describe(value: Ptr): { dtype: TensorDtype; dims: number[] } {
    const ctx = { action: 'reading a tensor shape', fix: 'report this as a bug' };
    const info = this.out((o) => this.api.GetTensorTypeAndShape(value, o), ctx);
    try {
      const type = this.out<number>((o) => this.api.GetTensorElementType(info, o), ctx);
      const n = this.out<number | bigint>((o) => this.api.GetDimensionsCount(info, o), ctx);
      const dims = new Array<bigint>(Number(n)).fill(0n);
      this.check(this.api.GetDimensions(info, dims, Number(n)), ctx);
      const dtype = DTYPE_BY_ONNX.get(type);
      if (!dtype) throw new StudioError('unsupported', `an output has ONNX element type ${type}, which the C-API adapter does not read`);
      return { dtype, dims: dims.map(Number) };
    } finally {
      this.api.ReleaseTensorTypeAndShapeInfo(info);
    }
  }

  /** The name of the memory a value lives in ('Cpu', 'CudaPinned', 'Cuda', 'WebGPU_Buf', …). */
  memoryOf(value: Ptr): string {
    const ctx = { action: 'reading where a tensor lives', fix: 'report this as a bug' };
    const info = this.out((o) => this.api.GetTensorMemoryInfo(value, o), ctx);
    return this.memoryInfoName(info);
  }

  /** A memory info's allocator name ('Cpu', 'Cuda', 'WebGPU_Buf', …). */
  memoryInfoName(info: Ptr): string {
    return this.out<string>((o) => this.api.MemoryInfoGetName(info, o), { action: 'reading a memory info', fix: 'report this as a bug' });
  }

  /** A host tensor with a copy of a host value's bytes (a device value is refused, never read as host memory). */
  tensorFromValue(value: Ptr): OrtTensor {
    const memory = this.memoryOf(value);
    if (memory !== 'Cpu' && memory !== 'CudaPinned') throw new StudioError('internal', `an output is in ${memory} memory, which the host cannot read directly; bind it with binding.output(…, 'device') and read() it`);
    const { dtype, dims } = this.describe(value);
    const copy = this.dataView(value, dtype, dims).slice(0);
    return new Tensor(dtype, typedArrayFor(dtype, copy) as never, dims);
  }

  /** Strings returned through the default allocator, read and freed. */
  takeString(ptr: Ptr): string {
    const s = readString(ptr);
    this.check(this.api.AllocatorFree(this.allocator, ptr), { action: 'freeing a string', fix: 'report this as a bug' });
    return s;
  }
}

/** Provider name as ORT's SessionOptionsAppendExecutionProvider knows it. */
const GENERIC_PROVIDER_NAME: Partial<Record<ProviderName, string>> = { webgpu: 'WebGPU', dml: 'DML' };

/** The provider option entries the C API gets for `options`: the given ones plus the device pin (exported for tests). */
export function providerEntries(options: SessionOptions): [string, string][] {
  const pinned = pinnedProviderOptions(options.provider, options.deviceIndex ?? -1, 'c-api');
  return Object.entries({ ...options.providerOptions, ...pinned }).map(([k, v]) => [k, String(v)]);
}

function appendProvider(core: CapiCore, so: Ptr, options: SessionOptions): void {
  const { api } = core;
  const entries = providerEntries(options);
  const fix = options.provider === 'cuda'
    ? "install the CUDA provider with 'npm run setup:cuda' and make the CUDA 13 libraries loadable (STUDIO_CUDA_LIB_PATH), or pick --provider webgpu/cpu"
    : options.deviceIndex !== undefined
      ? `check that ${options.provider} device ${options.deviceIndex} exists (--devices auto takes the devices the provider sees) and the provider options (${entries.map(([k]) => k).join(', ')})`
      : `check the ${options.provider} provider options (${entries.map(([k]) => k).join(', ') || 'none'}) or pick another provider`;
  const ctx = { action: `adding the ${options.provider} execution provider`, fix };
  if (options.provider === 'cpu') return;
  if (options.provider === 'cuda') {
    const preloadProblem = preloadFoundCudaLibraries();
    if (preloadProblem) throw new StudioError('unsupported', `${ctx.action} failed: ${preloadProblem}; ${fix}`);
    const cuda = core.out((o) => api.CreateCUDAProviderOptions(o), ctx);
    try {
      const all = [['device_id', '0'], ...entries.filter(([k]) => k !== 'device_id')];
      const withDevice = entries.some(([k]) => k === 'device_id') ? entries : all;
      core.check(api.UpdateCUDAProviderOptions(cuda, withDevice.map(([k]) => k), withDevice.map(([, v]) => v), withDevice.length), ctx);
      core.check(api.SessionOptionsAppendExecutionProvider_CUDA_V2(so, cuda), ctx);
    } finally {
      api.ReleaseCUDAProviderOptions(cuda);
    }
    return;
  }
  const name = GENERIC_PROVIDER_NAME[options.provider];
  if (!name) throw new StudioError('unsupported', `the C-API adapter has no provider '${options.provider}'`);
  core.check(api.SessionOptionsAppendExecutionProvider(so, name, entries.map(([k]) => k), entries.map(([, v]) => v), entries.length), ctx);
}

/** Provider option keys that turn graph capture on (CUDA graphs, WebGPU graph capture). */
const CAPTURE_KEYS: readonly string[] = ['enable_cuda_graph', 'enableGraphCapture'];

/** Whether the options turn graph capture on. */
export function capturesGraphs(options: SessionOptions): boolean {
  const o = options.providerOptions ?? {};
  return CAPTURE_KEYS.some((k) => o[k] === '1' || o[k] === 'true');
}

/** ORT's session log severity: errors only, or STUDIO_CAPI_LOG_LEVEL (0 verbose … 4 fatal) for diagnosis, e.g. 0 lists the nodes each provider runs. */
export function sessionLogLevel(env: NodeJS.ProcessEnv = process.env): number {
  const level = Number(env.STUDIO_CAPI_LOG_LEVEL);
  return env.STUDIO_CAPI_LOG_LEVEL !== undefined && Number.isInteger(level) && level >= 0 && level <= 4 ? level : LOG_ERROR;
}

function sessionOptions(core: CapiCore, options: SessionOptions): Ptr {
  const { api } = core;
  const ctx = { action: 'setting session options', fix: 'check the session options passed to createSession' };
  const so = core.out((o) => api.CreateSessionOptions(o), ctx);
  try {
    core.check(api.SetSessionLogSeverityLevel(so, sessionLogLevel()), ctx);
    core.check(api.SetSessionGraphOptimizationLevel(so, GRAPH_OPT_LEVEL[options.graphOptimizationLevel ?? 'all']), ctx);
    if (options.intraOpNumThreads !== undefined) core.check(api.SetIntraOpNumThreads(so, options.intraOpNumThreads), ctx);
    if (options.enableProfiling) core.check(api.EnableProfiling(so, options.profileFilePrefix ?? 'onnxruntime_profile_'), ctx);
    for (const [k, v] of Object.entries(options.extra ?? {})) core.check(api.AddSessionConfigEntry(so, k, v), ctx);
    appendProvider(core, so, options);
    return so;
  } catch (err) {
    api.ReleaseSessionOptions(so);
    throw err;
  }
}

/** Per-run settings: gpu_graph_id picks the captured graph of this shape bucket (CUDA graphs / WebGPU capture). */
export interface RunSettings {
  gpuGraphId?: number;
  /** Further run config entries (onnxruntime_run_options_config_keys.h). */
  config?: Record<string, string>;
}

/** Where a bound buffer lives: host memory, or the session provider's device memory. */
export type BufferLocation = 'cpu' | 'device';

/** Device memory names as ORT's providers register them (OrtMemoryInfo name); on CPU the "device" is the host, written like a device. */
const DEVICE_MEMORY_NAME: Partial<Record<ProviderName, string>> = { cpu: 'Cpu', cuda: 'Cuda', webgpu: 'WebGPU_Buf', dml: 'DML' };

/** A bound buffer: its host view exists for CPU buffers only (device buffers are written by the graph). */
export interface BoundBuffer {
  readonly name: string;
  readonly dtype: TensorDtype;
  readonly dims: readonly number[];
  readonly location: BufferLocation;
  /** The buffer's memory as a typed array (CPU buffers); writes before run() are what the graph reads. */
  readonly host: Tensor.DataType | null;
}

/** The OrtValue behind each live bound buffer (CapiBinding.attach binds it in another binding). */
const boundValues = new WeakMap<BoundBuffer, Ptr>();

/**
 * IoBinding over buffers that persist across runs: the same OrtValues (same addresses) are bound
 * every run, as graph capture requires. Inputs are written through their host views, outputs read
 * from theirs; outputs of unknown shape can be bound to a device and read back with takeOutputs().
 */
export class CapiBinding {
  private readonly buffers: { buffer: BoundBuffer; value: Ptr; role: 'input' | 'output'; staging?: Ptr; cudaMemory?: unknown }[] = [];
  /** How device buffers are copied, once known: ORT's CopyTensors, or the CUDA runtime (CUDA only). */
  private copyVia: 'ort' | 'cudart' | 'graph' | null = null;
  private readonly deviceInfos: Ptr[] = [];
  private allocator: Ptr = null;
  /** Allocators for the memory infos the session expects, by info (pointers the session owns). */
  private readonly expectedAllocators = new Map<Ptr, Ptr>();
  private released = false;
  private readonly ctx: StatusContext;

  constructor(
    private readonly core: CapiCore,
    private readonly session: CapiStageSession,
    private readonly binding: Ptr,
  ) {
    this.ctx = { action: `binding buffers of ${session.label}`, fix: 'check the buffer names, dtypes and dims against the graph' };
  }

  private alive(): void {
    if (this.released) throw new StudioError('internal', `the IoBinding of ${this.session.label} was released; create a new one with session.bind()`);
    this.session.alive();
  }

  private deviceAllocator(): Ptr {
    if (this.allocator) return this.allocator;
    const info = this.deviceMemoryInfo();
    this.allocator = this.core.out((o) => this.core.api.CreateAllocator(this.session.handle, info, o), this.ctx);
    live.allocator++;
    return this.allocator;
  }

  /**
   * The allocator for a device buffer bound as `name`: the session's own allocator for the memory info ORT
   * reports for that input or output (SessionGetMemoryInfoForInputs/Outputs), so the buffer sits exactly
   * where the session places it. (A name given by hand can be wrong: WebGPU's memory is 'WebGPU_Buf'.)
   */
  private allocatorFor(name: string, role: 'input' | 'output'): Ptr {
    const expected = this.session.expectedMemoryInfo(name, role);
    if (!expected || this.core.memoryInfoName(expected) !== DEVICE_MEMORY_NAME[this.session.provider]) return this.deviceAllocator();
    const cached = this.expectedAllocators.get(expected);
    if (cached) return cached;
    const allocator = this.core.out((o) => this.core.api.CreateAllocator(this.session.handle, expected, o), this.ctx);
    live.allocator++;
    this.expectedAllocators.set(expected, allocator);
    return allocator;
  }

  /**
   * A device buffer of a CUDA session that captures graphs, from cudaMalloc rather than the session's arena.
   * ORT takes a captured graph's intermediate tensors from that arena and hands the memory back after the
   * capture run; a bound buffer allocated there later can land on it, and every replay then writes the
   * graph's intermediates over the buffer (seen on the H100: illegal memory accesses in the captured codec).
   */
  private cudaValue(dtype: TensorDtype, dims: readonly number[]): { value: Ptr; memory: unknown } {
    const element = ELEMENT[dtype];
    if (!element) throw new StudioError('invalid-argument', `${this.ctx.action}: dtype ${dtype} is not one the adapter handles`);
    const bytes = elementCount(dims) * element.bytes;
    const got = cudaDeviceAlloc(bytes, this.session.deviceIndex);
    if ('error' in got) throw new StudioError('out-of-memory', `${this.ctx.action}: ${got.error}; free GPU memory or lower maxRunningSequences / graphCapture.maxBuckets`);
    try {
      const info = this.cudaMemoryInfo();
      const value = this.core.out((o) => this.core.api.CreateTensorWithDataAsOrtValue(info, got.ptr, bytes, dims.map(BigInt), dims.length, element.onnx, o), this.ctx);
      live.value++;
      return { value, memory: got.ptr };
    } catch (err) {
      cudaDeviceFree(got.ptr);
      throw err;
    }
  }

  private cudaInfo: Ptr = null;
  private cudaMemoryInfo(): Ptr {
    if (this.cudaInfo) return this.cudaInfo;
    this.cudaInfo = this.core.out((o) => this.core.api.CreateMemoryInfo('Cuda', 1, this.session.deviceIndex, 0, o), this.ctx);
    live.memoryInfo++;
    this.deviceInfos.push(this.cudaInfo);
    return this.cudaInfo;
  }

  private deviceMemoryInfo(): Ptr {
    const name = DEVICE_MEMORY_NAME[this.session.provider];
    if (!name) throw new StudioError('unsupported', `${this.session.provider} has no device memory; bind 'cpu' buffers`);
    const info = this.core.out((o) => this.core.api.CreateMemoryInfo(name, 1, 0, 0, o), this.ctx);
    live.memoryInfo++;
    this.deviceInfos.push(info);
    return info;
  }

  private allocate(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation, role: 'input' | 'output'): { buffer: BoundBuffer; value: Ptr } {
    const own = location !== 'cpu' && this.session.provider === 'cuda' && this.session.captures ? this.cudaValue(dtype, dims) : null;
    const value = own?.value ?? this.core.createValue(dtype, dims, this.ctx, location === 'cpu' ? this.core.allocator : this.allocatorFor(name, role));
    const host = location === 'cpu' ? typedArrayFor(dtype, this.core.dataView(value, dtype, dims)) : null;
    const entry = { buffer: { name, dtype, dims: [...dims], location, host }, value, role, cudaMemory: own?.memory };
    this.buffers.push(entry);
    boundValues.set(entry.buffer, value);
    return entry;
  }

  /** Allocates a persistent input buffer and binds it under `name`. */
  input(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.allocate(name, dtype, dims, location, 'input');
    this.core.check(this.core.api.BindInput(this.binding, name, value), this.ctx);
    return buffer;
  }

  /** Allocates a persistent output buffer of known shape and binds it under `name`. */
  output(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.allocate(name, dtype, dims, location, 'output');
    this.core.check(this.core.api.BindOutput(this.binding, name, value), this.ctx);
    return buffer;
  }

  /** Allocates one persistent buffer and binds it as both an input and an output (a KV cache that past and present share). */
  shared(inputName: string, outputName: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.allocate(inputName, dtype, dims, location, 'input');
    this.core.check(this.core.api.BindInput(this.binding, inputName, value), this.ctx);
    this.core.check(this.core.api.BindOutput(this.binding, outputName, value), this.ctx);
    return buffer;
  }

  /** Binds a buffer another binding allocated (same memory, e.g. an upload run's output as this run's input); it must outlive this binding. */
  attach(name: string, buffer: BoundBuffer, as: 'input' | 'output'): void {
    this.alive();
    const value = boundValues.get(buffer);
    if (!value) throw new StudioError('internal', `${this.session.label}: buffer ${buffer.name} was not allocated by a live C-API binding`);
    this.core.check((as === 'input' ? this.core.api.BindInput : this.core.api.BindOutput)(this.binding, name, value), this.ctx);
  }

  /** Writes a bound buffer: host buffers through their view, device buffers by a copy from a persistent host staging tensor. */
  async write(buffer: BoundBuffer, data: ArrayBufferView): Promise<void> {
    this.alive();
    const entry = this.entryOf(buffer, data.byteLength);
    const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (buffer.location === 'cpu') {
      const host = buffer.host as ArrayBufferView;
      new Uint8Array(host.buffer, host.byteOffset, host.byteLength).set(src);
      return;
    }
    new Uint8Array(this.core.dataView(this.staging(entry), buffer.dtype, buffer.dims)).set(src);
    await this.copy(entry, 'toDevice');
  }

  /** A copy of a bound buffer's current bytes (device buffers through the host staging tensor). */
  async read(buffer: BoundBuffer): Promise<Tensor.DataType> {
    this.alive();
    const bytes = elementCount(buffer.dims) * ELEMENT[buffer.dtype].bytes;
    const entry = this.entryOf(buffer, bytes);
    if (buffer.location === 'cpu') return typedArrayFor(buffer.dtype, this.core.dataView(entry.value, buffer.dtype, buffer.dims).slice(0));
    this.staging(entry);
    await this.copy(entry, 'toHost');
    return typedArrayFor(buffer.dtype, this.core.dataView(entry.staging!, buffer.dtype, buffer.dims).slice(0));
  }

  private entryOf(buffer: BoundBuffer, byteLength: number): (typeof this.buffers)[number] {
    const entry = this.buffers.find((b) => b.buffer === buffer);
    if (!entry) throw new StudioError('internal', `${this.session.label}: buffer ${buffer.name} is not one of this binding's`);
    const expected = elementCount(buffer.dims) * ELEMENT[buffer.dtype].bytes;
    if (byteLength !== expected) throw new StudioError('invalid-argument', `${this.session.label}: ${buffer.name} holds ${expected} bytes (${buffer.dtype} [${buffer.dims.join(', ')}]), got ${byteLength}`);
    return entry;
  }

  private staging(entry: (typeof this.buffers)[number]): Ptr {
    entry.staging ??= this.core.createValue(entry.buffer.dtype, entry.buffer.dims, this.ctx);
    return entry.staging;
  }

  /**
   * One copy between a device buffer and its host staging tensor: ORT's CopyTensors where the
   * environment has a data transfer for the device; else cudaMemcpy on CUDA; else a one-node Identity
   * graph on the same provider whose bound output is the device buffer (or the staging tensor).
   */
  private async copy(entry: (typeof this.buffers)[number], direction: 'toDevice' | 'toHost'): Promise<void> {
    const [src, dst] = direction === 'toDevice' ? [entry.staging!, entry.value] : [entry.value, entry.staging!];
    const bytes = elementCount(entry.buffer.dims) * ELEMENT[entry.buffer.dtype].bytes;
    const { api } = this.core;
    if (this.copyVia === 'graph') return this.copyByGraph(entry.buffer, src, dst);
    let ortProblem = '';
    if (this.copyVia !== 'cudart') {
      const status = api.CopyTensors(this.core.env, [src], [dst], null, 1) as Ptr;
      if (!status) {
        this.copyVia = 'ort';
        return;
      }
      ortProblem = api.GetErrorMessage(status) as string;
      api.ReleaseStatus(status);
      if (this.copyVia === 'ort') throw new StudioError('internal', `copying ${bytes} bytes ${direction === 'toDevice' ? 'to' : 'from'} ${this.session.provider} memory failed: ${ortProblem}`);
      if (this.session.provider !== 'cuda') {
        this.copyVia = 'graph';
        return this.copyByGraph(entry.buffer, src, dst);
      }
    }
    const pointer = (v: Ptr) => this.core.out((o) => api.GetTensorMutableData(v, o), this.ctx);
    const why = cudaCopy(pointer(dst), pointer(src), bytes, direction === 'toDevice' ? CUDA_MEMCPY.hostToDevice : CUDA_MEMCPY.deviceToHost);
    if (why) throw new StudioError('unsupported', `copying ${bytes} bytes ${direction === 'toDevice' ? 'to' : 'from'} CUDA memory failed: ${why}${ortProblem ? ` (ORT CopyTensors: ${ortProblem})` : ''}; check STUDIO_CUDA_LIB_PATH`);
    this.copyVia = 'cudart';
  }

  private async copyByGraph(buffer: BoundBuffer, src: Ptr, dst: Ptr): Promise<void> {
    const copier = await this.session.copySession(buffer.dtype, buffer.dims.length);
    const { api } = this.core;
    const ctx = { action: `copying ${buffer.name} of ${this.session.label}`, fix: 'bind host (cpu) buffers instead' };
    const binding = this.core.out((o) => api.CreateIoBinding(copier.handle, o), ctx);
    try {
      this.core.check(api.BindInput(binding, copyInputName(0), src), ctx);
      this.core.check(api.BindOutput(binding, copyOutputName(0), dst), ctx);
      await this.core.callAsync(api.RunWithBinding, [copier.handle, null, binding], ctx);
    } finally {
      api.ReleaseIoBinding(binding);
    }
  }

  /** Binds an output of unknown shape to the provider's device memory (BindOutputToDevice); read it with takeOutputs(). */
  outputToDevice(name: string): void {
    this.alive();
    this.core.check(this.core.api.BindOutputToDevice(this.binding, name, this.session.provider === 'cpu' ? this.core.cpuMemory : this.deviceMemoryInfo()), this.ctx);
  }

  /**
   * One run over the bound buffers (RunWithBinding), off the main thread. ORT copies a bound input
   * to the device that consumes it when it is bound (IOBinding::BindInput), so on a GPU session
   * every input is bound again here, after the caller wrote it (a no-op for a device input that a
   * device node consumes; a fresh copy for one on the other side, e.g. TopK's K read on the host).
   */
  async run(settings: RunSettings = {}): Promise<void> {
    this.alive();
    if (this.session.provider !== 'cpu') {
      for (const { buffer, value, role } of this.buffers) {
        if (role === 'input') this.core.check(this.core.api.BindInput(this.binding, buffer.name, value), this.ctx);
      }
    }
    const runOptions = this.session.runOptions(settings);
    try {
      await this.core.callAsync(this.core.api.RunWithBinding, [this.session.handle, runOptions, this.binding], { action: `running ${this.session.label} with bound buffers`, fix: 'check the bound shapes against the graph inputs' });
    } finally {
      if (runOptions) this.session.releaseRunOptions(runOptions);
    }
  }

  /** The bound outputs' current values as host tensors (copies; CPU memory only). */
  takeOutputs(names: readonly string[]): Record<string, OrtTensor> {
    this.alive();
    const count: [number | bigint | null] = [null];
    const arr = this.core.out((o) => this.core.api.GetBoundOutputValues(this.binding, this.core.allocator, o, count), this.ctx);
    const values = readPointers(arr, Number(count[0] ?? 0));
    live.value += values.length;
    try {
      if (values.length !== names.length) throw new StudioError('internal', `${this.session.label}: ${values.length} bound outputs, ${names.length} names given`);
      return Object.fromEntries(names.map((n, i) => [n, this.core.tensorFromValue(values[i])]));
    } finally {
      for (const v of values) this.core.releaseValue(v);
      if (arr) this.core.check(this.core.api.AllocatorFree(this.core.allocator, arr), this.ctx);
    }
  }

  /** Releases the binding, every buffer it allocated, its allocator and memory infos. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.core.api.ClearBoundInputs(this.binding);
    this.core.api.ClearBoundOutputs(this.binding);
    this.core.api.ReleaseIoBinding(this.binding);
    live.ioBinding--;
    for (const { buffer, value, staging, cudaMemory } of this.buffers.splice(0)) {
      boundValues.delete(buffer);
      this.core.releaseValue(value);
      if (cudaMemory) cudaDeviceFree(cudaMemory);
      if (staging) this.core.releaseValue(staging);
    }
    for (const allocator of [this.allocator, ...this.expectedAllocators.values()]) {
      if (!allocator) continue;
      this.core.api.ReleaseAllocator(allocator);
      live.allocator--;
    }
    this.expectedAllocators.clear();
    for (const info of this.deviceInfos.splice(0)) {
      this.core.api.ReleaseMemoryInfo(info);
      live.memoryInfo--;
    }
    this.session.bindings.delete(this);
  }
}

export class CapiStageSession implements StageSession {
  readonly runtime = 'c-api' as const;
  readonly bindings = new Set<CapiBinding>();
  private released = false;

  constructor(
    private readonly core: CapiCore,
    readonly handle: Ptr,
    readonly provider: ProviderName,
    readonly label: string,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
    /** Graph capture is on (CUDA graphs / WebGPU capture): runs go through bind() only. */
    readonly captures = false,
    /** Opens a copy graph on this session's provider (no capture): device buffers are written through it. */
    private readonly openCopy: (model: Uint8Array) => Promise<CapiStageSession> = () => Promise.reject(new StudioError('unsupported', 'no copy sessions here')),
    /** The device the provider runs on (its device_id). */
    readonly deviceIndex = 0,
  ) {}

  private readonly copiers = new Map<string, Promise<CapiStageSession>>();
  /** The memory info ORT expects for each input and output (owned by the session), once asked. */
  private expectedInfos: { input: Map<string, Ptr>; output: Map<string, Ptr> } | null = null;

  /** Where ORT wants the input or output `name` (null when the core cannot say or has no such name). */
  expectedMemoryInfo(name: string, role: 'input' | 'output'): Ptr {
    if (!this.expectedInfos) {
      const read = (fn: 'SessionGetMemoryInfoForInputs' | 'SessionGetMemoryInfoForOutputs', names: readonly string[]) => {
        const infos: Ptr[] = new Array<Ptr>(names.length).fill(null);
        const status = this.core.api[fn](this.handle, infos, names.length) as Ptr;
        if (status) {
          this.core.api.ReleaseStatus(status);
          return new Map<string, Ptr>();
        }
        return new Map(names.map((n, i) => [n, infos[i]]));
      };
      this.expectedInfos = { input: read('SessionGetMemoryInfoForInputs', this.inputNames), output: read('SessionGetMemoryInfoForOutputs', this.outputNames) };
    }
    return this.expectedInfos[role].get(name) ?? null;
  }

  /** The cached Identity session for one dtype and rank, released with this session. */
  copySession(dtype: TensorDtype, rank: number): Promise<CapiStageSession> {
    const key = `${dtype}/${rank}`;
    let s = this.copiers.get(key);
    if (!s) {
      s = this.openCopy(buildCopyGraph(1, dtype, rank));
      this.copiers.set(key, s);
    }
    return s;
  }

  alive(): void {
    if (this.released) throw new StudioError('internal', `session ${this.label} was released; open it again with createSession`);
  }

  runOptions(settings: RunSettings): Ptr {
    const entries = Object.entries(settings.config ?? {});
    if (settings.gpuGraphId !== undefined) entries.push(['gpu_graph_id', String(settings.gpuGraphId)]);
    if (entries.length === 0) return null;
    const ctx = { action: `setting run options of ${this.label}`, fix: 'check the run config keys' };
    const ro = this.core.out((o) => this.core.api.CreateRunOptions(o), ctx);
    live.runOptions++;
    try {
      for (const [k, v] of entries) this.core.check(this.core.api.AddRunConfigEntry(ro, k, v), ctx);
    } catch (err) {
      this.releaseRunOptions(ro);
      throw err;
    }
    return ro;
  }

  releaseRunOptions(ro: Ptr): void {
    this.core.api.ReleaseRunOptions(ro);
    live.runOptions--;
  }

  async run(feeds: Record<string, OrtTensor>, fetches?: readonly string[], settings: RunSettings = {}): Promise<Record<string, OrtTensor>> {
    this.alive();
    // A captured graph replays fixed addresses; fresh per-run values would be read after they are freed.
    if (this.captures) throw new StudioError('invalid-argument', `${this.label} captures its graph, so it runs only over fixed buffers: use session.bind() (inputs and outputs at the same addresses every run, one gpu_graph_id per shape)`);
    const ctx = { action: `running ${this.label}`, fix: 'check the feed dtypes and shapes against the graph inputs' };
    const names = Object.keys(feeds);
    const outNames = fetches ?? this.outputNames;
    const inputs: Ptr[] = [];
    const outputs: Ptr[] = new Array<Ptr>(outNames.length).fill(null);
    let runOptions: Ptr = null;
    try {
      for (const n of names) inputs.push(this.core.valueFromTensor(feeds[n], { action: `feeding ${n} to ${this.label}`, fix: ctx.fix }));
      runOptions = this.runOptions(settings);
      await this.core.callAsync(this.core.api.Run, [this.handle, runOptions, names, inputs, names.length, outNames, outNames.length, outputs], ctx);
      for (const o of outputs) if (o) live.value++;
      return Object.fromEntries(outNames.map((n, i) => [n, this.core.tensorFromValue(outputs[i])]));
    } finally {
      for (const v of inputs) this.core.releaseValue(v);
      for (const o of outputs) if (o) this.core.releaseValue(o);
      if (runOptions) this.releaseRunOptions(runOptions);
    }
  }

  /** An IoBinding whose buffers persist until it is released (or the session is). */
  bind(): CapiBinding {
    this.alive();
    const binding = this.core.out((o) => this.core.api.CreateIoBinding(this.handle, o), { action: `creating an IoBinding for ${this.label}`, fix: 'report this as a bug' });
    live.ioBinding++;
    const b = new CapiBinding(this.core, this, binding);
    this.bindings.add(b);
    return b;
  }

  async endProfiling(): Promise<string> {
    this.alive();
    const p = this.core.out((o) => this.core.api.SessionEndProfiling(this.handle, this.core.allocator, o), { action: `ending profiling of ${this.label}`, fix: 'enable profiling in the session options' });
    return p ? this.core.takeString(p) : '';
  }

  async release(): Promise<void> {
    if (this.released) return;
    for (const b of [...this.bindings]) b.release();
    for (const c of this.copiers.values()) await c.then((s) => s.release(), () => undefined);
    this.copiers.clear();
    this.released = true;
    this.core.api.ReleaseSession(this.handle);
    live.session--;
  }
}

function sessionNames(core: CapiCore, session: Ptr, label: string): { inputs: string[]; outputs: string[] } {
  const ctx = { action: `reading the inputs and outputs of ${label}`, fix: 'rebuild the model' };
  const read = (count: typeof core.api.SessionGetInputCount, name: typeof core.api.SessionGetInputName) => {
    const n = Number(core.out<number | bigint>((o) => count(session, o), ctx));
    return Array.from({ length: n }, (_, i) => core.takeString(core.out((o) => name(session, i, core.allocator, o), ctx)));
  };
  return { inputs: read(core.api.SessionGetInputCount, core.api.SessionGetInputName), outputs: read(core.api.SessionGetOutputCount, core.api.SessionGetOutputName) };
}

/** The library the adapter loads: onnxruntime-node's own core, so both adapters run the same ORT. */
export function coreLibraryPath(): string {
  return path.join(ortBinDir(), process.platform === 'win32' ? 'onnxruntime.dll' : process.platform === 'darwin' ? 'libonnxruntime.1.dylib' : 'libonnxruntime.so.1');
}

class CapiRuntime implements OrtRuntime {
  readonly name = 'c-api' as const;
  readonly capabilities = CAPI_CAPABILITIES;
  constructor(private readonly core: CapiCore) {}

  version(): string {
    return this.core.loaded.version;
  }

  /** Provider names this core lists (GetAvailableProviders; listed is not the same as loadable). */
  availableProviders(): string[] {
    const ctx = { action: 'listing providers', fix: 'reinstall onnxruntime-node' };
    const n: [number | null] = [null];
    const arr = this.core.out((o) => this.core.api.GetAvailableProviders(o, n), ctx);
    const names = readPointers(arr, n[0] ?? 0).map(readString);
    this.core.check(this.core.api.ReleaseAvailableProviders(arr, n[0] ?? 0), ctx);
    return names;
  }

  async createSession(model: string | Uint8Array, options: SessionOptions): Promise<CapiStageSession> {
    const { core } = this;
    const label = typeof model === 'string' ? path.basename(model) : `<${model.byteLength}-byte model>`;
    const so = sessionOptions(core, options);
    let session: Ptr = null;
    try {
      const ctx = { action: `opening ${label} on ${options.provider}`, fix: "rebuild the model with 'studio model build' or pick another provider" };
      const o: [Ptr] = [null];
      if (typeof model === 'string') await core.callAsync(core.api.CreateSession, [core.env, model, so, o], ctx);
      else await core.callAsync(core.api.CreateSessionFromArray, [core.env, model, model.byteLength, so, o], ctx);
      session = o[0];
      live.session++;
      const names = sessionNames(core, session, label);
      const copyOptions: SessionOptions = { provider: options.provider, providerOptions: Object.fromEntries(Object.entries(options.providerOptions ?? {}).filter(([k]) => !CAPTURE_KEYS.includes(k))) };
      const openCopy = (bytes: Uint8Array) => this.createSession(bytes, copyOptions);
      return new CapiStageSession(core, session, options.provider, label, names.inputs, names.outputs, capturesGraphs(options), openCopy, Math.max(0, options.deviceIndex ?? 0));
    } catch (err) {
      if (session) {
        core.api.ReleaseSession(session);
        live.session--;
      }
      throw err;
    } finally {
      core.api.ReleaseSessionOptions(so);
    }
  }
}

/** Loads the core library (once per process) and returns the adapter; errors name the fix. */
export function openCapiRuntime(libraryPath = coreLibraryPath()): CapiRuntime {
  let loaded: LoadedOrtApi;
  try {
    loaded = loadOrtApi(libraryPath);
  } catch (err) {
    throw new StudioError('unsupported', `the ONNX Runtime C API could not be loaded from ${libraryPath}: ${(err as Error).message}; reinstall with 'npm ci' (koffi and onnxruntime-node) or use the onnxruntime-node adapter (STUDIO_ORT_RUNTIME=node)`, { library: libraryPath });
  }
  return new CapiRuntime(new CapiCore(loaded));
}

export type { CapiRuntime };
