/**
 * Tensor values of the C-API adapter: ONNX element types and sizes, OrtValues allocated by ORT (with the
 * default CPU allocator or a device one), a host value's memory viewed without a copy, and host tensors
 * copied in (feeds) and out (outputs). A device value is never read as host memory: IoBinding copies it
 * through a host staging value (capi-bound-buffers.ts).
 */
import { Tensor } from 'onnxruntime-node';
import { StudioError } from '../../../../src-shared/errors';
import type { OrtTensor, TensorDtype } from '../runtime';
import { live, type CapiCore } from './capi-core';
import { nativeView, type Ptr } from './ort-api';
import type { StatusContext } from './ort-status';

/** ONNX element type numbers (onnxruntime_c_api.h ONNXTensorElementDataType) and byte sizes. */
export const ELEMENT: Record<TensorDtype, { onnx: number; bytes: number }> = {
  float32: { onnx: 1, bytes: 4 },
  int32: { onnx: 6, bytes: 4 },
  int64: { onnx: 7, bytes: 8 },
  bool: { onnx: 9, bytes: 1 },
  float16: { onnx: 10, bytes: 2 },
};
const DTYPE_BY_ONNX = new Map(Object.entries(ELEMENT).map(([k, v]) => [v.onnx, k as TensorDtype]));

export function typedArrayFor(dtype: TensorDtype, bytes: ArrayBuffer): Tensor.DataType {
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

export const elementCount = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1);

/** A tensor value allocated by ORT through `allocator` (default: the CPU one). */
export function createValue(core: CapiCore, dtype: TensorDtype, dims: readonly number[], ctx: StatusContext, allocator: Ptr = core.allocator): Ptr {
  const element = ELEMENT[dtype];
  if (!element) throw new StudioError('invalid-argument', `${ctx.action}: dtype ${dtype} is not one the adapter handles (${Object.keys(ELEMENT).join(', ')})`);
  const value = core.out((o) => core.api.CreateTensorAsOrtValue(allocator, dims.map(BigInt), dims.length, element.onnx, o), ctx);
  live.value++;
  return value;
}

export function releaseValue(core: CapiCore, value: Ptr): void {
  core.api.ReleaseValue(value);
  live.value--;
}

/** The value's memory (CPU values only) as an ArrayBuffer, no copy. */
export function dataView(core: CapiCore, value: Ptr, dtype: TensorDtype, dims: readonly number[]): ArrayBuffer {
  const bytes = elementCount(dims) * ELEMENT[dtype].bytes;
  if (bytes === 0) return new ArrayBuffer(0);
  const data = core.out((o) => core.api.GetTensorMutableData(value, o), { action: 'reading a tensor', fix: 'report this as a bug' });
  return nativeView(data, bytes);
}

/** A CPU tensor value allocated by ORT, with the host tensor's bytes copied in. */
export function valueFromTensor(core: CapiCore, t: OrtTensor, ctx: StatusContext): Ptr {
  if (t.location !== 'cpu') throw new StudioError('unsupported', `${ctx.action}: the C-API adapter takes host tensors, got one @${t.location}; ${ctx.fix}`);
  const dtype = t.type as TensorDtype;
  const value = createValue(core, dtype, t.dims, ctx);
  const src = t.data as ArrayBufferView;
  new Uint8Array(dataView(core, value, dtype, t.dims)).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  return value;
}

/** dtype and dims of a tensor value. */
function describeValue(core: CapiCore, value: Ptr): { dtype: TensorDtype; dims: number[] } {
  const ctx = { action: 'reading a tensor shape', fix: 'report this as a bug' };
  const info = core.out((o) => core.api.GetTensorTypeAndShape(value, o), ctx);
  try {
    const type = core.out<number>((o) => core.api.GetTensorElementType(info, o), ctx);
    const n = core.out<number | bigint>((o) => core.api.GetDimensionsCount(info, o), ctx);
    const dims = new Array<bigint>(Number(n)).fill(0n);
    core.check(core.api.GetDimensions(info, dims, Number(n)), ctx);
    const dtype = DTYPE_BY_ONNX.get(type);
    if (!dtype) throw new StudioError('unsupported', `an output has ONNX element type ${type}, which the C-API adapter does not read`);
    return { dtype, dims: dims.map(Number) };
  } finally {
    core.api.ReleaseTensorTypeAndShapeInfo(info);
  }
}

/** A memory info's allocator name ('Cpu', 'Cuda', 'WebGPU_Buf', …). */
export function memoryInfoName(core: CapiCore, info: Ptr): string {
  return core.out<string>((o) => core.api.MemoryInfoGetName(info, o), { action: 'reading a memory info', fix: 'report this as a bug' });
}

/** The name of the memory a value lives in ('Cpu', 'CudaPinned', 'Cuda', 'WebGPU_Buf', …). */
function memoryOf(core: CapiCore, value: Ptr): string {
  const ctx = { action: 'reading where a tensor lives', fix: 'report this as a bug' };
  const info = core.out((o) => core.api.GetTensorMemoryInfo(value, o), ctx);
  return memoryInfoName(core, info);
}

/** A host tensor with a copy of a host value's bytes (a device value is refused, never read as host memory). */
export function tensorFromValue(core: CapiCore, value: Ptr): OrtTensor {
  const memory = memoryOf(core, value);
  if (memory !== 'Cpu' && memory !== 'CudaPinned') throw new StudioError('internal', `an output is in ${memory} memory, which the host cannot read directly; bind it with binding.output(…, 'device') and read() it`);
  const { dtype, dims } = describeValue(core, value);
  const copy = dataView(core, value, dtype, dims).slice(0);
  return new Tensor(dtype, typedArrayFor(dtype, copy) as never, dims);
}
