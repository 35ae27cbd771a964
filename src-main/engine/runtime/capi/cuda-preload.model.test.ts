// Preloading by full path: a library that exists loads (the ORT core stands in for a CUDA library),
// one that does not is named with the loader's reason, and nothing throws.
import { describe, expect, it } from 'vitest';
import { coreLibraryPath } from './capi-runtime';
import { preloadLibraries } from './cuda-preload';

describe('preloadLibraries', () => {
  it('loads libraries by full path and names the first that fails', () => {
    expect(preloadLibraries([coreLibraryPath()])).toBeNull();
    expect(preloadLibraries([coreLibraryPath(), '/nonexistent/libcublas.so.13'])).toMatch(/^\/nonexistent\/libcublas\.so\.13 did not load: .*No such file/);
  });
});
