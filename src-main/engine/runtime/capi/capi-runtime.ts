/**
 * The C-API adapter: sessions on ORT's C API with any provider option (WebGPU keys such as
 * enableGraphCapture, CUDA provider options V2 such as enable_cuda_graph), runs off the main thread
 * (koffi async calls), IoBinding with buffers that persist across runs, run options (gpu_graph_id).
 * This file is its entry (runtime.ts's OrtRuntime); the parts: capi-core (library, status, handle
 * counts), capi-values (tensors), capi-session-options, capi-session, capi-binding, capi-bound-buffers.
 */
import { StudioError } from '../../../../src-shared/errors';
import { CAPI_CAPABILITIES, type OrtRuntime, type SessionOptions } from '../runtime';
import { CapiCore, coreLibraryPath } from './capi-core';
import { openCapiSession, type CapiStageSession } from './capi-session';
import { loadOrtApi, readPointers, readString, type LoadedOrtApi } from './ort-api';

export { coreLibraryPath, liveHandleCounts } from './capi-core';
export { capturesGraphs, providerEntries, sessionLogLevel } from './capi-session-options';
export type { BoundBuffer, BufferLocation } from './capi-bound-buffers';
export type { CapiBinding } from './capi-binding';
export type { CapiStageSession } from './capi-session';
export type { RunSettings } from './capi-session-view';

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

  createSession(model: string | Uint8Array, options: SessionOptions): Promise<CapiStageSession> {
    return openCapiSession(this.core, model, options);
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
