/**
 * Turns the parsed options of `studio bench` (commander's camelCase keys, string values) into a
 * resolved BenchConfig plus the output folder. Flags: --target inproc|http, --url U[,U2],
 * --api openai|studio, --variants a,b, --workloads plain,processed, --clients 4,8, --window S,
 * --passes N, --mode closed|burst|ramp|open, --rate R, --slo S, --ramp 1,2,5, --timeout S,
 * --stream, --voice V, --language L, --allow-remote, --out DIR. Unknown options are rejected by name.
 */
import { StudioError } from '../../src-shared/errors';
import { resolveBenchConfig, type BenchConfig, type BenchMode } from './bench-config';
import { createHttpTarget, type HttpTargetApi } from './http-target';
import type { BenchVariant } from './target';
import { checkTargetUrl } from './url-safety';

export interface BenchCliOptions {
  target?: string;
  url?: string;
  api?: string;
  variants?: string;
  workloads?: string;
  clients?: string;
  window?: string;
  passes?: string;
  mode?: string;
  rate?: string;
  slo?: string;
  ramp?: string;
  timeout?: string;
  stream?: boolean;
  voice?: string;
  language?: string;
  allowRemote?: boolean;
  out?: string;
}

/** Inproc variants are supplied by the composition root (engine configs such as serial / batched). */
export interface BenchCliDeps {
  inprocVariants?: Record<string, () => BenchVariant>;
  /** Used for --target inproc without --variants. */
  defaultInprocVariant?: () => BenchVariant;
}

const KNOWN_OPTIONS: readonly (keyof BenchCliOptions)[] = ['target', 'url', 'api', 'variants', 'workloads', 'clients', 'window', 'passes', 'mode', 'rate', 'slo', 'ramp', 'timeout', 'stream', 'voice', 'language', 'allowRemote', 'out'];

const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function bad(key: string, message: string, value: unknown): never {
  throw new StudioError('invalid-argument', `studio bench ${flagOf(key)}: ${message}`, { field: flagOf(key), value: String(value) });
}

function list(key: string, value: string): string[] {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) bad(key, 'needs a comma-separated list', value);
  return items;
}

function numbers(key: string, value: string, integer: boolean): number[] {
  return list(key, value).map((item) => {
    const n = Number(item);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) bad(key, `"${item}" is not a positive ${integer ? 'whole number' : 'number'}`, value);
    return n;
  });
}

const one = (key: string, value: string, integer: boolean) => {
  const values = numbers(key, value, integer);
  if (values.length !== 1) bad(key, 'takes one number', value);
  return values[0];
};

function httpVariants(options: BenchCliOptions): BenchVariant[] {
  if (!options.url) bad('url', 'is required with --target http (e.g. --url http://127.0.0.1:8080)', options.url);
  const urls = list('url', options.url);
  if (urls.length > 2) bad('url', 'takes one or two URLs (before,after)', options.url);
  const names = options.variants ? list('variants', options.variants) : urls.length === 2 ? ['before', 'after'] : ['http'];
  if (names.length !== urls.length) bad('variants', `names ${names.length} variant(s) but --url gives ${urls.length}`, options.variants);
  const api = (options.api ?? 'studio') as HttpTargetApi;
  if (api !== 'openai' && api !== 'studio') bad('api', 'must be openai or studio', options.api);
  const workloads = options.workloads ? list('workloads', options.workloads) : ['plain', 'processed'];
  if (api === 'openai' && workloads.includes('processed')) {
    bad('api', 'openai (/v1/audio/speech) carries no SSML, so the processed workload cannot run; use --api studio or --workloads plain', options.api);
  }
  const allowRemote = options.allowRemote === true;
  urls.forEach((u) => checkTargetUrl(u, allowRemote)); // fail now, not in the middle of a run
  return urls.map((url, i) => ({ name: names[i], description: `${api} API at ${url}`, createTarget: () => createHttpTarget(url, { api, allowRemote, name: `http ${url}` }) }));
}

function inprocVariants(options: BenchCliOptions, deps: BenchCliDeps): BenchVariant[] {
  if (!options.variants) {
    if (!deps.defaultInprocVariant) bad('target', 'inproc needs the engine host, which this entry point did not provide; use --target http --url …', 'inproc');
    return [deps.defaultInprocVariant()];
  }
  const available = Object.keys(deps.inprocVariants ?? {});
  return list('variants', options.variants).map((name) => {
    const factory = deps.inprocVariants?.[name];
    if (!factory) bad('variants', `"${name}" is not an inproc variant; available: ${available.join(', ') || 'none'}`, name);
    return factory();
  });
}

export function benchConfigFromCliOptions(options: BenchCliOptions, deps: BenchCliDeps = {}): { config: Readonly<BenchConfig>; outDir: string | null } {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key as keyof BenchCliOptions)) bad(key, `is not a bench option; known: ${KNOWN_OPTIONS.map(flagOf).join(' ')}`, key);
  }
  const target = options.target ?? (options.url ? 'http' : 'inproc');
  if (target !== 'http' && target !== 'inproc') bad('target', 'must be inproc or http', target);
  const overrides: Parameters<typeof resolveBenchConfig>[0] = {
    variants: target === 'http' ? httpVariants(options) : inprocVariants(options, deps),
  };
  if (options.mode !== undefined) overrides.mode = options.mode as BenchMode;
  if (options.workloads !== undefined) overrides.workloads = list('workloads', options.workloads);
  if (options.clients !== undefined) overrides.clientCounts = numbers('clients', options.clients, true);
  if (options.window !== undefined) overrides.windowMs = one('window', options.window, false) * 1000;
  if (options.passes !== undefined) overrides.numPasses = one('passes', options.passes, true);
  if (options.timeout !== undefined) overrides.requestTimeoutMs = one('timeout', options.timeout, false) * 1000;
  if (options.stream !== undefined) overrides.stream = options.stream === true;
  if (options.voice !== undefined) overrides.voice = options.voice;
  if (options.language !== undefined) overrides.language = options.language;
  if (options.ramp !== undefined) overrides.ramp = { clientCounts: numbers('ramp', options.ramp, true) };
  const open: { ratePerS?: number; latencyObjectiveMs?: number } = {};
  if (options.rate !== undefined) open.ratePerS = one('rate', options.rate, false);
  if (options.slo !== undefined) open.latencyObjectiveMs = one('slo', options.slo, false) * 1000;
  if (Object.keys(open).length) overrides.open = open;
  return { config: resolveBenchConfig(overrides), outDir: options.out ?? null };
}
