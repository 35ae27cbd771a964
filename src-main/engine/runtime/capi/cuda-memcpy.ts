/**
 * Host↔device copies for CUDA buffers through the CUDA runtime itself (cudaMemcpy on the
 * libcudart.so.13 that cuda-libraries.ts finds), used where ORT's CopyTensors has no CUDA data
 * transfer registered in the environment. Synchronous: it returns when the bytes have arrived.
 */
import { foundCudaLibraries } from './cuda-preload';
import { configuredKoffi } from './koffi-config';

type Memcpy = (dst: unknown, src: unknown, bytes: number, kind: number) => number;
let memcpy: Memcpy | null | undefined;

/** cudaMemcpyKind values (driver_types.h). */
export const CUDA_MEMCPY = { hostToDevice: 1, deviceToHost: 2 } as const;

function load(): Memcpy | null {
  if (memcpy !== undefined) return memcpy;
  const lib = process.platform === 'win32' ? 'cudart64_13.dll' : 'libcudart.so.13';
  const found = foundCudaLibraries()[lib];
  try {
    const { koffi } = configuredKoffi();
    memcpy = koffi.load(found ?? lib).func('int cudaMemcpy(void *dst, void *src, size_t count, int kind)') as Memcpy;
  } catch {
    memcpy = null;
  }
  return memcpy;
}

/** Copies `bytes` between a host and a device pointer; returns null, or why it could not. */
export function cudaCopy(dst: unknown, src: unknown, bytes: number, kind: number): string | null {
  const fn = load();
  if (!fn) return 'the CUDA runtime (libcudart) could not be loaded';
  const code = fn(dst, src, bytes, kind);
  return code === 0 ? null : `cudaMemcpy failed with CUDA error ${code}`;
}
