/**
 * IoBinding on the C API over buffers that persist across runs: the same OrtValues (same addresses) are
 * bound every run, as graph capture requires. Inputs are written through their host views, outputs read
 * from theirs; outputs of unknown shape can be bound to a device and read back with takeOutputs(). The
 * buffers themselves (allocation, staging copies) are capi-bound-buffers.ts; runs pass run options.
 */
import type { Tensor } from 'onnxruntime-node';
import { StudioError } from '../../../../src-shared/errors';
import { PROVIDERS } from '../providers';
import type { OrtTensor, TensorDtype } from '../runtime';
import { BoundBuffers, boundValueOf, type BoundBuffer, type BufferLocation } from './capi-bound-buffers';
import { live, type CapiCore } from './capi-core';
import type { BoundSessionView, RunSettings } from './capi-session-view';
import { releaseValue, tensorFromValue } from './capi-values';
import { readPointers, type Ptr } from './ort-api';
import type { StatusContext } from './ort-status';

export class CapiBinding {
  private readonly buffers: BoundBuffers;
  private released = false;
  private readonly ctx: StatusContext;

  constructor(
    private readonly core: CapiCore,
    private readonly session: BoundSessionView,
    private readonly binding: Ptr,
  ) {
    this.ctx = { action: `binding buffers of ${session.label}`, fix: 'check the buffer names, dtypes and dims against the graph' };
    this.buffers = new BoundBuffers(core, session, this.ctx);
  }

  private alive(): void {
    if (this.released) throw new StudioError('internal', `the IoBinding of ${this.session.label} was released; create a new one with session.bind()`);
    this.session.alive();
  }

  /** Allocates a persistent input buffer and binds it under `name`. */
  input(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.buffers.allocate(name, dtype, dims, location, 'input');
    this.core.check(this.core.api.BindInput(this.binding, name, value), this.ctx);
    return buffer;
  }

  /** Allocates a persistent output buffer of known shape and binds it under `name`. */
  output(name: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.buffers.allocate(name, dtype, dims, location, 'output');
    this.core.check(this.core.api.BindOutput(this.binding, name, value), this.ctx);
    return buffer;
  }

  /** Allocates one persistent buffer and binds it as both an input and an output (a KV cache that past and present share). */
  shared(inputName: string, outputName: string, dtype: TensorDtype, dims: readonly number[], location: BufferLocation = 'cpu'): BoundBuffer {
    this.alive();
    const { buffer, value } = this.buffers.allocate(inputName, dtype, dims, location, 'input');
    this.core.check(this.core.api.BindInput(this.binding, inputName, value), this.ctx);
    this.core.check(this.core.api.BindOutput(this.binding, outputName, value), this.ctx);
    return buffer;
  }

  /** Binds a buffer another binding allocated (same memory, e.g. an upload run's output as this run's input); it must outlive this binding. */
  attach(name: string, buffer: BoundBuffer, as: 'input' | 'output'): void {
    this.alive();
    const value = boundValueOf(buffer);
    if (!value) throw new StudioError('internal', `${this.session.label}: buffer ${buffer.name} was not allocated by a live C-API binding`);
    this.core.check((as === 'input' ? this.core.api.BindInput : this.core.api.BindOutput)(this.binding, name, value), this.ctx);
  }

  /** Writes a bound buffer: host buffers through their view, device buffers by a copy from a persistent host staging tensor. */
  async write(buffer: BoundBuffer, data: ArrayBufferView): Promise<void> {
    this.alive();
    await this.buffers.write(buffer, data);
  }

  /** A copy of a bound buffer's current bytes (device buffers through the host staging tensor). */
  async read(buffer: BoundBuffer): Promise<Tensor.DataType> {
    this.alive();
    return this.buffers.read(buffer);
  }

  /** Binds an output of unknown shape to the provider's device memory (BindOutputToDevice); read it with takeOutputs(). */
  outputToDevice(name: string): void {
    this.alive();
    const memory = PROVIDERS[this.session.provider].deviceMemory ? this.buffers.deviceMemoryInfo() : this.core.cpuMemory;
    this.core.check(this.core.api.BindOutputToDevice(this.binding, name, memory), this.ctx);
  }

  /**
   * One run over the bound buffers (RunWithBinding), off the main thread. ORT copies a bound input
   * to the device that consumes it when it is bound (IOBinding::BindInput), so on a session with device
   * memory every input is bound again here, after the caller wrote it (a no-op for a device input that a
   * device node consumes; a fresh copy for one on the other side, e.g. TopK's K read on the host).
   */
  async run(settings: RunSettings = {}): Promise<void> {
    this.alive();
    if (PROVIDERS[this.session.provider].deviceMemory) {
      for (const { name, value } of this.buffers.inputs()) this.core.check(this.core.api.BindInput(this.binding, name, value), this.ctx);
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
      return Object.fromEntries(names.map((n, i) => [n, tensorFromValue(this.core, values[i])]));
    } finally {
      for (const v of values) releaseValue(this.core, v);
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
    this.buffers.release();
    this.session.bindings.delete(this);
  }
}
