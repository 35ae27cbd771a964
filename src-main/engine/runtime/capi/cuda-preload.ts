/**
 * Loads the CUDA libraries found by cuda-libraries.ts by full path, in dependency order, before the
 * CUDA provider is created: the provider's own dlopen then finds them by soname without
 * LD_LIBRARY_PATH (which the loader reads only at process start). Returns why one failed, or null.
 */
import koffi from 'koffi';

const loaded = new Set<string>();

export function preloadLibraries(paths: readonly string[]): string | null {
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
