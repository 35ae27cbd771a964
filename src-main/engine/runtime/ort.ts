/**
 * The stages' door to ONNX Runtime: createSession picks the adapter (runtime.ts) by the capabilities
 * the options need, runSession checks the feeds against the session's inputs and names them when a run
 * fails, and the host-tensor helpers work the same under both adapters. Only node-runtime.ts and
 * capi/ import ONNX Runtime itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Tensor } from 'onnxruntime-node';
import { StudioError } from '../../../src-shared/errors';
import { listBindingBackends, nodeRuntime } from './node-runtime';
import { ortBinDir } from './ort-install';
import { PROVIDERS } from './providers';
import { ADAPTERS, chooseRuntime, defaultRuntimeName, type OrtRuntime, type OrtTensor, type ProviderName, type RuntimeName, type SessionOptions, type StageSession, type TensorDtype } from './runtime';

export type { OrtTensor, ProviderName, RuntimeName, SessionOptions, TensorDtype } from './runtime';
export type OrtSession = StageSession;

/** Which providers this onnxruntime-node build can use on this machine. */
export function listAvailableProviders(): { name: string; bundled: boolean }[] {
  return listBindingBackends();
}

/**
 * Whether a provider's shared library is present next to the core (CUDA comes from `npm run
 * setup:cuda` and is absent until then); providers bundled in the core return true.
 */
export function isProviderLibraryInstalled(provider: ProviderName): boolean {
  const library = PROVIDERS[provider].ort.library;
  return library ? fs.existsSync(path.join(ortBinDir(), library)) : true;
}

let capiRuntime: Promise<OrtRuntime> | undefined;

/** The adapter by name; the C-API adapter is loaded on first use (koffi, the core library). */
export async function getRuntime(name: RuntimeName): Promise<OrtRuntime> {
  if (name === 'node') return nodeRuntime;
  capiRuntime ??= import('./capi/capi-runtime').then((m) => m.openCapiRuntime());
  try {
    return await capiRuntime;
  } catch (err) {
    capiRuntime = undefined;
    throw err;
  }
}

export async function createSession(model: string | Uint8Array, options: SessionOptions): Promise<OrtSession> {
  const preferred = options.runtime ?? defaultRuntimeName();
  const choice = chooseRuntime(options, preferred, ADAPTERS);
  if (choice.name === null) throw new StudioError('unsupported', `${choice.reason}; drop the options that need it or update the studio`, { provider: options.provider });
  return (await getRuntime(choice.name)).createSession(model, options);
}

export function tensor(dtype: TensorDtype, data: Tensor.DataType, dims: readonly number[]): OrtTensor {
  return new Tensor(dtype, data as never, dims);
}

/** Describes feeds without their data: name, dtype, dims, location. */
export function describeFeeds(feeds: Record<string, OrtTensor>): string {
  return Object.entries(feeds)
    .map(([name, t]) => `${name}: ${t.type}[${t.dims.join(',')}] @${t.location}`)
    .join('; ');
}

/** Runs a session after checking that every input is fed; a failure names what went in. */
export async function runSession(session: OrtSession, feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>> {
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
    return await session.run(feeds, fetches);
  } catch (err) {
    if (err instanceof StudioError) throw err;
    throw new StudioError('internal', `ORT run failed: ${(err as Error).message}; inputs: ${describeFeeds(feeds)}`);
  }
}

export async function disposeSession(session: OrtSession): Promise<void> {
  await session.release();
}

export function disposeTensor(t: OrtTensor): void {
  if (t.location === 'gpu-buffer') t.dispose();
}
