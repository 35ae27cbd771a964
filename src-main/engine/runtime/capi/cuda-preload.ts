/**
 * Loads the CUDA libraries found by cuda-libraries.ts by full path, in dependency order, before the
 * CUDA provider is created: the provider's own dlopen then finds them by soname without
 * LD_LIBRARY_PATH (which the loader reads only at process start). Returns why one failed, or null.
 * koffi is required on first use, so importing this module loads no native code.
 */
import fs from 'node:fs';
import { findCudaLibraries } from '../cuda-libraries';
import { configuredKoffi } from './koffi-config';

const loaded = new Set<string>();

export function preloadLibraries(paths: readonly string[]): string | null {
  let koffi: { load(path: string): unknown };
  try {
    koffi = configuredKoffi().koffi;
  } catch (err) {
    return `koffi (the FFI that loads them) is not available: ${(err as Error).message}; run npm ci`;
  }
  for (const p of paths) {
    if (loaded.has(p)) continue;
    try {
      koffi.load(p);
      loaded.add(p);
    } catch (err) {
      return `${p} did not load: ${(err as Error).message}`;
    }
  }
  return null;
}

/**
 * Before a CUDA session: preloads the CUDA libraries that the search finds (STUDIO_CUDA_LIB_PATH, pip
 * wheels, …). Missing ones are left to ORT, whose own error then names the file.
 */
export function preloadFoundCudaLibraries(env: NodeJS.ProcessEnv = process.env): string | null {
  return preloadLibraries(Object.values(foundCudaLibraries(env)));
}

/** CUDA library file → the full path the search finds on this machine (STUDIO_CUDA_LIB_PATH, pip wheels, …). */
export function foundCudaLibraries(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const platform = process.platform === 'win32' ? 'win32' : 'linux';
  const list = (d: string) => {
    try {
      return fs.readdirSync(d);
    } catch {
      return [];
    }
  };
  return findCudaLibraries(platform, env, { exists: (p) => fs.existsSync(p), list }).found;
}
