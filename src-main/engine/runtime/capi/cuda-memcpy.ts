/**
 * The CUDA runtime itself (the libcudart.so.13 that cuda-libraries.ts finds): host↔device copies where
 * ORT's CopyTensors has no CUDA data transfer registered in the environment (synchronous: it returns when
 * the bytes have arrived), and device memory outside ORT's arena for buffers that captured graphs bind.
 */
import { foundCudaLibraries } from './cuda-preload';
import { configuredKoffi } from './koffi-config';

type Memcpy = (dst: unknown, src: unknown, bytes: number, kind: number) => number;
interface CudaRuntime {
  memcpy: Memcpy;
  malloc: (out: [unknown], bytes: number) => number;
  free: (ptr: unknown) => number;
  setDevice: (device: number) => number;
}
let runtime: CudaRuntime | null | undefined;

/** cudaMemcpyKind values (driver_types.h). */
export const CUDA_MEMCPY = { hostToDevice: 1, deviceToHost: 2 } as const;

function load(): CudaRuntime | null {
  if (runtime !== undefined) return runtime;
  const lib = process.platform === 'win32' ? 'cudart64_13.dll' : 'libcudart.so.13';
  const found = foundCudaLibraries()[lib];
  try {
    const { koffi } = configuredKoffi();
    const cudart = koffi.load(found ?? lib);
    runtime = {
      memcpy: cudart.func('int cudaMemcpy(void *dst, void *src, size_t count, int kind)') as Memcpy,
      malloc: cudart.func('int cudaMalloc(_Out_ void **ptr, size_t size)') as CudaRuntime['malloc'],
      free: cudart.func('int cudaFree(void *ptr)') as CudaRuntime['free'],
      setDevice: cudart.func('int cudaSetDevice(int device)') as CudaRuntime['setDevice'],
    };
  } catch {
    runtime = null;
  }
  return runtime;
}

const NOT_LOADED = 'the CUDA runtime (libcudart) could not be loaded';

/** Copies `bytes` between a host and a device pointer; returns null, or why it could not. */
export function cudaCopy(dst: unknown, src: unknown, bytes: number, kind: number): string | null {
  const rt = load();
  if (!rt) return NOT_LOADED;
  const code = rt.memcpy(dst, src, bytes, kind);
  return code === 0 ? null : `cudaMemcpy failed with CUDA error ${code}`;
}

/** Device memory from cudaMalloc on `device` (not from any ORT arena): the pointer, or why not. */
export function cudaDeviceAlloc(bytes: number, device: number): { ptr: unknown } | { error: string } {
  const rt = load();
  if (!rt) return { error: NOT_LOADED };
  const set = rt.setDevice(device);
  if (set !== 0) return { error: `cudaSetDevice(${device}) failed with CUDA error ${set}` };
  const out: [unknown] = [null];
  const code = rt.malloc(out, Math.max(1, bytes));
  return code === 0 ? { ptr: out[0] } : { error: `cudaMalloc of ${bytes} bytes failed with CUDA error ${code}` };
}

/** Frees what cudaDeviceAlloc returned. */
export function cudaDeviceFree(ptr: unknown): void {
  load()?.free(ptr);
}
