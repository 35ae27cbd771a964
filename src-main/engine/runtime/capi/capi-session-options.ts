/**
 * Session options on the C API: ORT's log level (STUDIO_CAPI_LOG_LEVEL), graph optimization, threads,
 * profiling and config entries, then the execution provider, added the way its providers.ts record says
 * (built in, CUDA's V2 options, or by name) with any provider option plus the device pin. Also whether
 * options turn graph capture on, and the same options with capture off (for copy sessions).
 */
import { StudioError } from '../../../../src-shared/errors';
import { pinnedProviderOptions } from '../device-pinning';
import { CAPTURE_OPTION_KEYS, PROVIDERS } from '../providers';
import type { SessionOptions } from '../runtime';
import { LOG_ERROR, type CapiCore } from './capi-core';
import { preloadFoundCudaLibraries } from './cuda-preload';
import type { Ptr } from './ort-api';

const GRAPH_OPT_LEVEL = { disabled: 0, basic: 1, extended: 2, all: 99 } as const;

/** The provider option entries the C API gets for `options`: the given ones plus the device pin (exported for tests). */
export function providerEntries(options: SessionOptions): [string, string][] {
  const pinned = pinnedProviderOptions(options.provider, options.deviceIndex ?? -1, 'c-api');
  return Object.entries({ ...options.providerOptions, ...pinned }).map(([k, v]) => [k, String(v)]);
}

function appendProvider(core: CapiCore, so: Ptr, options: SessionOptions): void {
  const { api } = core;
  const provider = PROVIDERS[options.provider];
  const entries = providerEntries(options);
  const fix = provider.installFix
    ?? (options.deviceIndex !== undefined
      ? `check that ${options.provider} device ${options.deviceIndex} exists (--devices auto takes the devices the provider sees) and the provider options (${entries.map(([k]) => k).join(', ')})`
      : `check the ${options.provider} provider options (${entries.map(([k]) => k).join(', ') || 'none'}) or pick another provider`);
  const ctx = { action: `adding the ${options.provider} execution provider`, fix };
  const append = provider.ort.capiAppend;
  switch (append.kind) {
    case 'builtin':
      return;
    case 'cuda-v2': {
      const preloadProblem = preloadFoundCudaLibraries();
      if (preloadProblem) throw new StudioError('unsupported', `${ctx.action} failed: ${preloadProblem}; ${fix}`);
      const cuda = core.out((o) => api.CreateCUDAProviderOptions(o), ctx);
      try {
        const all = [['device_id', '0'], ...entries.filter(([k]) => k !== 'device_id')];
        const withDevice = entries.some(([k]) => k === 'device_id') ? entries : all;
        core.check(api.UpdateCUDAProviderOptions(cuda, withDevice.map(([k]) => k), withDevice.map(([, v]) => v), withDevice.length), ctx);
        core.check(api.SessionOptionsAppendExecutionProvider_CUDA_V2(so, cuda), ctx);
      } finally {
        api.ReleaseCUDAProviderOptions(cuda);
      }
      return;
    }
    case 'generic':
      core.check(api.SessionOptionsAppendExecutionProvider(so, append.name, entries.map(([k]) => k), entries.map(([, v]) => v), entries.length), ctx);
  }
}

/** Whether the options turn graph capture on. */
export function capturesGraphs(options: SessionOptions): boolean {
  const o = options.providerOptions ?? {};
  return CAPTURE_OPTION_KEYS.some((k) => o[k] === '1' || o[k] === 'true');
}

/** The same provider and provider options with graph capture off (copy graphs beside a capturing session run uncaptured). */
export function withoutCapture(options: SessionOptions): SessionOptions {
  return { provider: options.provider, providerOptions: Object.fromEntries(Object.entries(options.providerOptions ?? {}).filter(([k]) => !CAPTURE_OPTION_KEYS.includes(k))) };
}

/** ORT's session log severity: errors only, or STUDIO_CAPI_LOG_LEVEL (0 verbose … 4 fatal) for diagnosis, e.g. 0 lists the nodes each provider runs. */
export function sessionLogLevel(env: NodeJS.ProcessEnv = process.env): number {
  const level = Number(env.STUDIO_CAPI_LOG_LEVEL);
  return env.STUDIO_CAPI_LOG_LEVEL !== undefined && Number.isInteger(level) && level >= 0 && level <= 4 ? level : LOG_ERROR;
}

/** A native OrtSessionOptions for `options`; the caller releases it (ReleaseSessionOptions). */
export function createSessionOptions(core: CapiCore, options: SessionOptions): Ptr {
  const { api } = core;
  const ctx = { action: 'setting session options', fix: 'check the session options passed to createSession' };
  const so = core.out((o) => api.CreateSessionOptions(o), ctx);
  try {
    core.check(api.SetSessionLogSeverityLevel(so, sessionLogLevel()), ctx);
    core.check(api.SetSessionGraphOptimizationLevel(so, GRAPH_OPT_LEVEL[options.graphOptimizationLevel ?? 'all']), ctx);
    if (options.intraOpNumThreads !== undefined) core.check(api.SetIntraOpNumThreads(so, options.intraOpNumThreads), ctx);
    if (options.enableProfiling) core.check(api.EnableProfiling(so, options.profileFilePrefix ?? 'onnxruntime_profile_'), ctx);
    for (const [k, v] of Object.entries(options.extra ?? {})) core.check(api.AddSessionConfigEntry(so, k, v), ctx);
    appendProvider(core, so, options);
    return so;
  } catch (err) {
    api.ReleaseSessionOptions(so);
    throw err;
  }
}
