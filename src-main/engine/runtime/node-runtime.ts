/**
 * The onnxruntime-node adapter: sessions through the JS binding. It keeps outputs on the device
 * (preferredOutputLocation) but passes only the binding's fixed provider options and has no IoBinding;
 * options that need more go to the C-API adapter (runtime.ts chooseRuntime).
 */
import * as ort from 'onnxruntime-node';
import { StudioError } from '../../../src-shared/errors';
import { NODE_CAPABILITIES, type OrtRuntime, type SessionOptions, type StageSession } from './runtime';
import { PROVIDERS } from './providers';
import { pinnedProviderOptions } from './device-pinning';

class NodeStageSession implements StageSession {
  readonly runtime = 'node' as const;
  constructor(private readonly session: ort.InferenceSession) {}
  get inputNames(): readonly string[] {
    return this.session.inputNames;
  }
  get outputNames(): readonly string[] {
    return this.session.outputNames;
  }
  run(feeds: Record<string, ort.Tensor>, fetches?: readonly string[]): Promise<Record<string, ort.Tensor>> {
    return fetches ? this.session.run(feeds, fetches as string[]) : this.session.run(feeds);
  }
  async endProfiling(): Promise<string> {
    const end = (this.session as unknown as { endProfiling?: () => Promise<string> | string }).endProfiling;
    return (await end?.call(this.session)) ?? '';
  }
  release(): Promise<void> {
    return this.session.release();
  }
}

/** The binding's session options for `options` (exported for tests: what reaches ORT). */
export function bindingOptions(options: SessionOptions): ort.InferenceSession.SessionOptions {
  const provider = { ...options.providerOptions, ...pinnedProviderOptions(options.provider, options.deviceIndex ?? -1, 'node') };
  const name = PROVIDERS[options.provider].ort.bindingName;
  const so: ort.InferenceSession.SessionOptions = {
    executionProviders: [Object.keys(provider).length > 0 ? ({ name, ...provider } as ort.InferenceSession.ExecutionProviderConfig) : name],
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
  return so;
}

export const nodeRuntime: OrtRuntime = {
  name: 'node',
  capabilities: NODE_CAPABILITIES,
  version: () => ort.env.versions.common,
  async createSession(model, options) {
    const so = bindingOptions(options);
    try {
      const session = typeof model === 'string' ? await ort.InferenceSession.create(model, so) : await ort.InferenceSession.create(model, so);
      return new NodeStageSession(session);
    } catch (err) {
      throw new StudioError(
        'model-invalid',
        options.deviceIndex === undefined
          ? `could not create an onnxruntime session on provider '${options.provider}': ${(err as Error).message}; rebuild the model with 'studio model build' or pick another provider`
          : `could not create an onnxruntime session on ${options.provider} device ${options.deviceIndex}: ${(err as Error).message}; check that device ${options.deviceIndex} exists (--devices auto takes the devices the provider sees), or rebuild the model with 'studio model build'`,
        { provider: options.provider, model: typeof model === 'string' ? model : `<${model.byteLength} bytes>` },
      );
    }
  },
};

/** Which providers this onnxruntime-node build can use on this machine. */
export function listBindingBackends(): { name: string; bundled: boolean }[] {
  return ort.listSupportedBackends().map((b) => ({ name: b.name, bundled: b.bundled }));
}
