/**
 * The buffers of one IoBinding (capi-binding.ts): allocated once, in host memory or in the memory the
 * session expects on its provider's device (its own allocators, or cudaMalloc for a capturing CUDA
 * session), and written or read through a host staging value per device buffer. A copy goes through
 * ORT's CopyTensors, else cudaMemcpy where the provider has the CUDA runtime, else a one-node Identity
 * graph on the same provider. Releases every value, allocator and memory info it made.
 */
import type { Tensor } from 'onnxruntime-node';
import { StudioError } from '../../../../src-shared/errors';
import { copyInputName, copyOutputName } from '../../../model-format/copy-graph';
import { PROVIDERS, type BufferLocation } from '../providers';
import type { TensorDtype } from '../runtime';
import { live, type CapiCore } from './capi-core';
import type { BoundSessionView } from './capi-session-view';
import { createValue, dataView, ELEMENT, elementCount, memoryInfoName, releaseValue, typedArrayFor } from './capi-values';
import { CUDA_MEMCPY, cudaCopy, cudaDeviceAlloc, cudaDeviceFree } from './cuda-memcpy';
import type { Ptr } from './ort-api';
import type { StatusContext } from './ort-status';

export type { BufferLocation } from '../providers';

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

/** The OrtValue behind a live bound buffer of any binding (undefined once released). */
export function boundValueOf(buffer: BoundBuffer): Ptr | undefined {
  return boundValues.get(buffer);
}

interface Entry {
  buffer: BoundBuffer;
  value: Ptr;
  role: 'input' | 'output';
  staging?: Ptr;
  cudaMemory?: unknown;
}

export class BoundBuffers {
  private readonly entries: Entry[] = [];
  /** How device buffers are copied, once known: ORT's CopyTensors, the CUDA runtime, or an Identity graph. */
  private copyVia: 'ort' | 'cudart' | 'graph' | null = null;
  private readonly deviceInfos: Ptr[] = [];
  private allocator: Ptr = null;
  /** Allocators for the memory infos the session expects, by info (pointers the session owns). */
  private readonly expectedAllocators = new Map<Ptr, Ptr>();
  private cudaInfo: Ptr = null;

  constructor(
    private readonly core: CapiCore,
    private readonly session: BoundSessionView,
    private readonly ctx: StatusContext,
  ) {}

  /** The inputs, in the order they were bound (a GPU session binds them again before each run). */
  inputs(): { name: string; value: Ptr }[] {
    return this.entries.filter((e) => e.role === 'input').map((e) => ({ name: e.buffer.name, value: e.value }));
  }

  /** A memory info of the provider's device memory (released with these buffers). */
  deviceMemoryInfo(): Ptr {
    const name = PROVIDERS[this.session.provider].memoryName;
    const info = this.core.out((o) => this.core.api.CreateMemoryInfo(name, 1, 0, 0, o), this.ctx);
    live.memoryInfo++;
    this.deviceInfos.push(info);
    return info;
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
    if (!expected || memoryInfoName(this.core, expected) !== PROVIDERS[this.session.provider].memoryName) return this.deviceAllocator();
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

  private cudaMemoryInfo(): Ptr {
    if (this.cudaInfo) return this.cudaInfo;
    this.cudaInfo = this.core.out((o) => this.core.api.CreateMemoryInfo('Cuda', 1, this.session.deviceIndex, 0, o), this.ctx);
    live.memoryInfo++;
    this.deviceInfos.push(this.cudaInfo);
    return this.cudaInfo;
  }

  /** A new buffer of this binding; the caller binds its value. */
  allocate(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation, role: 'input' | 'output'): { buffer: BoundBuffer; value: Ptr } {
    const own = location !== 'cpu' && PROVIDERS[this.session.provider].cudaRuntime && this.session.captures ? this.cudaValue(dtype, dims) : null;
    const value = own?.value ?? createValue(this.core, dtype, dims, this.ctx, location === 'cpu' ? this.core.allocator : this.allocatorFor(name, role));
    const host = location === 'cpu' ? typedArrayFor(dtype, dataView(this.core, value, dtype, dims)) : null;
    const entry: Entry = { buffer: { name, dtype, dims: [...dims], location, host }, value, role, cudaMemory: own?.memory };
    this.entries.push(entry);
    boundValues.set(entry.buffer, value);
    return entry;
  }

  /** Writes a buffer: host buffers through their view, device buffers by a copy from a persistent host staging value. */
  async write(buffer: BoundBuffer, data: ArrayBufferView): Promise<void> {
    const entry = this.entryOf(buffer, data.byteLength);
    const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (buffer.location === 'cpu') {
      const host = buffer.host as ArrayBufferView;
      new Uint8Array(host.buffer, host.byteOffset, host.byteLength).set(src);
      return;
    }
    new Uint8Array(dataView(this.core, this.staging(entry), buffer.dtype, buffer.dims)).set(src);
    await this.copy(entry, 'toDevice');
  }

  /** A copy of a buffer's current bytes (device buffers through the host staging value). */
  async read(buffer: BoundBuffer): Promise<Tensor.DataType> {
    const bytes = elementCount(buffer.dims) * ELEMENT[buffer.dtype].bytes;
    const entry = this.entryOf(buffer, bytes);
    if (buffer.location === 'cpu') return typedArrayFor(buffer.dtype, dataView(this.core, entry.value, buffer.dtype, buffer.dims).slice(0));
    this.staging(entry);
    await this.copy(entry, 'toHost');
    return typedArrayFor(buffer.dtype, dataView(this.core, entry.staging!, buffer.dtype, buffer.dims).slice(0));
  }

  private entryOf(buffer: BoundBuffer, byteLength: number): Entry {
    const entry = this.entries.find((b) => b.buffer === buffer);
    if (!entry) throw new StudioError('internal', `${this.session.label}: buffer ${buffer.name} is not one of this binding's`);
    const expected = elementCount(buffer.dims) * ELEMENT[buffer.dtype].bytes;
    if (byteLength !== expected) throw new StudioError('invalid-argument', `${this.session.label}: ${buffer.name} holds ${expected} bytes (${buffer.dtype} [${buffer.dims.join(', ')}]), got ${byteLength}`);
    return entry;
  }

  private staging(entry: Entry): Ptr {
    entry.staging ??= createValue(this.core, entry.buffer.dtype, entry.buffer.dims, this.ctx);
    return entry.staging;
  }

  /**
   * One copy between a device buffer and its host staging value: ORT's CopyTensors where the
   * environment has a data transfer for the device; else cudaMemcpy where the provider has the CUDA
   * runtime; else a one-node Identity graph on the same provider whose bound output is the device buffer
   * (or the staging value).
   */
  private async copy(entry: Entry, direction: 'toDevice' | 'toHost'): Promise<void> {
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
      if (!PROVIDERS[this.session.provider].cudaRuntime) {
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

  /** Releases every buffer (and its staging value and CUDA memory), allocator and memory info. */
  release(): void {
    for (const { buffer, value, staging, cudaMemory } of this.entries.splice(0)) {
      boundValues.delete(buffer);
      releaseValue(this.core, value);
      if (cudaMemory) cudaDeviceFree(cudaMemory);
      if (staging) releaseValue(this.core, staging);
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
  }
}
