/**
 * koffi runs each native call on a stack of its own: 2 MiB for calls on the main thread and only
 * 128 KiB for async calls on its worker threads, which the CUDA and WebGPU providers overflow
 * (session creation, first runs: a segfault on the H200). Stacks are set once, before the first
 * library is loaded; if another module loaded one first, async calls are marked unsafe.
 */
import { createRequire } from 'node:module';

/** The stack each native call gets, on the main thread and on koffi's workers (a common thread stack size). */
export const NATIVE_STACK_BYTES = 8 * 2 ** 20;

type Koffi = typeof import('koffi');
let configured: { koffi: Koffi; asyncSafe: boolean } | null = null;

/** koffi with the stack sizes set; asyncSafe is false when they could not be set (run calls synchronously then). */
export function configuredKoffi(): { koffi: Koffi; asyncSafe: boolean } {
  if (configured) return configured;
  const koffi = createRequire(import.meta.url)('koffi') as Koffi;
  let asyncSafe = true;
  try {
    koffi.config({ ...koffi.config(), sync_stack_size: NATIVE_STACK_BYTES, async_stack_size: NATIVE_STACK_BYTES });
  } catch {
    asyncSafe = (koffi.config().async_stack_size ?? 0) >= NATIVE_STACK_BYTES;
  }
  configured = { koffi, asyncSafe };
  return configured;
}
