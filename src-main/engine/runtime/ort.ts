/**
 * The only module that imports onnxruntime-node: session creation with an execution provider,
 * input validation against session.inputNames, a readable dump of the feeds when a run fails,
 * and disposal. Everything else passes plain typed arrays or the OrtTensor alias through here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { StudioError } from '../../../src-shared/errors';

export type ProviderName = 'cpu' | 'webgpu' | 'cuda' | 'dml';
export type OrtTensor = ort.Tensor;
export type OrtSession = ort.InferenceSession;
export type TensorDtype = 'float32' | 'float16' | 'int64' | 'int32' | 'bool';

export interface SessionOptions {
  provider: ProviderName;
  intraOpNumThreads?: number;
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** Keep these outputs on the device (WebGPU only). */
  gpuOutputs?: readonly string[];
  enableProfiling?: boolean;
  profileFilePrefix?: string;
  extra?: Record<string, string>;
  /** Options of the provider itself (WebGPU: validationMode, storageBufferCacheMode, …). */
  providerOptions?: Record<string, string>;
}

/** Which providers this onnxruntime-node build can use on this machine. */
export function listAvailableProviders(): { name: string; bundled: boolean }[] {
  return ort.listSupportedBackends().map((b) => ({ name: b.name, bundled: b.bundled }));
}

/** Provider libraries that onnxruntime-node loads from its bin folder when they are not bundled. */
const PROVIDER_LIBRARIES: Partial<Record<ProviderName, string>> = { cuda: 'libonnxruntime_providers_cuda.so' };

/**
 * Whether a provider's shared library is present next to the binding (CUDA is downloaded at
 * install time and is absent on offline installs); providers bundled in the binding return true.
 */
export function isProviderLibraryInstalled(provider: ProviderName): boolean {
  const library = PROVIDER_LIBRARIES[provider];
  if (!library) return true;
  const require = createRequire(import.meta.url);
  const binDir = path.join(path.dirname(require.resolve('onnxruntime-node/package.json')), 'bin', 'napi-v6', process.platform, process.arch);
  return fs.existsSync(path.join(binDir, library));
}

export async function createSession(model: string | Uint8Array, options: SessionOptions): Promise<OrtSession> {
  const so: ort.InferenceSession.SessionOptions = {
    executionProviders: [options.providerOptions ? { name: options.provider, ...options.providerOptions } : options.provider],
    graphOptimizationLevel: options.graphOptimizationLevel ?? 'all',
    logSeverityLevel: 3,
  };
  if (options.intraOpNumThreads !== undefined) so.intraOpNumThreads = options.intraOpNumThreads;
  if (options.enableProfiling) {
    so.enableProfiling = true;
    if (options.profileFilePrefix) so.profileFilePrefix = options.profileFilePrefix;
  }
  if (options.gpuOutputs && options.gpuOutputs.length > 0) {
    so.preferredOutputLocation = Object.fromEntries(options.gpuOutputs.map((n) => [n, 'gpu-buffer' as const]));
  }
  if (options.extra) (so as { extra?: unknown }).extra = options.extra;
  try {
    return typeof model === 'string'
      ? await ort.InferenceSession.create(model, so)
      : await ort.InferenceSession.create(model, so);
  } catch (err) {
    throw new StudioError(
      'model-invalid',
      `could not create an onnxruntime session on provider '${options.provider}': ${(err as Error).message}; rebuild the model with 'studio model build' or pick another provider`,
      { provider: options.provider, model: typeof model === 'string' ? model : `<${model.byteLength} bytes>` },
    );
  }
}

export function tensor(dtype: TensorDtype, data: ort.Tensor.DataType, dims: readonly number[]): OrtTensor {
  return new ort.Tensor(dtype, data as never, dims);
}

/** Describes feeds without their data: name, dtype, dims, location. */
export function describeFeeds(feeds: Record<string, OrtTensor>): string {
  return Object.entries(feeds)
    .map(([name, t]) => `${name}: ${t.type}[${t.dims.join(',')}] @${t.location}`)
    .join('; ');
}

/** Runs a session after checking that every input is fed; a failure names what went in. */
export async function runSession(
  session: OrtSession,
  feeds: Record<string, OrtTensor>,
  fetches?: readonly string[],
): Promise<Record<string, OrtTensor>> {
  const missing = session.inputNames.filter((n) => !(n in feeds));
  if (missing.length > 0) {
    throw new StudioError('internal', `ORT run is missing inputs: ${missing.join(', ')} (fed: ${describeFeeds(feeds)})`, {
      missing: missing.join(','),
    });
  }
  const extraNames = Object.keys(feeds).filter((n) => !session.inputNames.includes(n));
  if (extraNames.length > 0) {
    throw new StudioError('internal', `ORT run got unknown inputs: ${extraNames.join(', ')}; the graph takes ${session.inputNames.join(', ')}`);
  }
  try {
    return fetches ? await session.run(feeds, fetches as string[]) : await session.run(feeds);
  } catch (err) {
    throw new StudioError('internal', `ORT run failed: ${(err as Error).message}; inputs: ${describeFeeds(feeds)}`);
  }
}

export async function disposeSession(session: OrtSession): Promise<void> {
  await session.release();
}

export function disposeTensor(t: OrtTensor): void {
  if (t.location === 'gpu-buffer') t.dispose();
}

/** A tensor's values on the host: CPU tensors as they are, gpu-buffer tensors downloaded. */
export async function readTensorData(t: OrtTensor): Promise<ArrayLike<number>> {
  return (t.location === 'cpu' ? t.data : await t.getData()) as ArrayLike<number>;
}
