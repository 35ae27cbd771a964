/**
 * BenchConfig: everything one `runBenchmark` call does. defaultBenchConfig() is complete;
 * resolveBenchConfig(overrides) rejects unknown keys and bad values naming the key path and
 * returns a frozen value. Variants (target factories) come from the caller; there is no default target.
 */
import { StudioError } from '../../src-shared/errors';
import { DEFAULT_SEED, MAX_SEED } from '../../src-shared/sampling-limits';
import type { BenchVariant } from './target';
import { BUILT_IN_WORKLOAD_NAMES } from './workloads';

export type BenchMode = 'closed' | 'burst' | 'ramp' | 'open';
export const BENCH_MODES: readonly BenchMode[] = ['closed', 'burst', 'ramp', 'open'];

export interface RampConfig {
  /** Client counts stepped through in order (each a short closed-loop measurement). */
  clientCounts: number[];
  /** Throughput must grow by more than this fraction beyond the knee to move it. */
  kneeGainFraction: number;
}

export interface OpenLoopConfig {
  /** Mean Poisson arrival rate. */
  ratePerS: number;
  /** Goodput counts valid requests whose latency (from scheduled send) is at most this. */
  latencyObjectiveMs: number;
  arrivalSeed: number;
  /** Arrivals beyond this many in flight are dropped and counted (k6 'dropped iterations'). */
  maxOutstanding: number;
}

export interface BenchConfig {
  mode: BenchMode;
  /** One or two configurations under test; with two, the first is 'before' and the second 'after'. */
  variants: BenchVariant[];
  workloads: string[];
  voice: string;
  language: string;
  clientCounts: number[];
  /** Steady window (closed, ramp) or arrival period (open). */
  windowMs: number;
  numPasses: number;
  stream: boolean;
  warmupSeed: number;
  goldenSeed: number;
  statusIntervalMs: number;
  gpuIntervalMs: number;
  gpuIndex: number;
  nvidiaSmiPath: string;
  requestTimeoutMs: number;
  fillTimeoutMs: number;
  drainTimeoutMs: number;
  maxRequestsPerClient: number;
  /** A client pauses this long after a rejection or error before sending again (no hot loop). */
  rejectionBackoffMs: number;
  ramp: RampConfig;
  open: OpenLoopConfig;
  harnessRevision: string | null;
}

export function defaultBenchConfig(): BenchConfig {
  return {
    mode: 'closed',
    variants: [],
    workloads: ['plain', 'processed'],
    voice: 'ryan',
    language: 'english',
    clientCounts: [4, 8],
    windowMs: 90_000,
    numPasses: 2,
    stream: false,
    warmupSeed: 9001,
    goldenSeed: DEFAULT_SEED,
    statusIntervalMs: 50,
    gpuIntervalMs: 250,
    gpuIndex: 0,
    nvidiaSmiPath: 'nvidia-smi',
    requestTimeoutMs: 300_000,
    fillTimeoutMs: 600_000,
    drainTimeoutMs: 600_000,
    maxRequestsPerClient: 100_000,
    rejectionBackoffMs: 100,
    ramp: { clientCounts: [1, 2, 3, 4, 5, 10, 20, 30, 50, 100], kneeGainFraction: 0.05 },
    open: { ratePerS: 1, latencyObjectiveMs: 10_000, arrivalSeed: 1, maxOutstanding: 256 },
    harnessRevision: null,
  };
}

function fail(path: string, message: string, value: unknown): never {
  throw new StudioError('invalid-argument', `bench config ${path}: ${message}`, { field: path, value: String(value) });
}

function checkNumber(path: string, value: unknown, min: number, max: number, integer: boolean): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, `must be a number, got ${JSON.stringify(value)}`, value);
  if (integer && !Number.isInteger(value)) fail(path, `must be a whole number, got ${value}`, value);
  if (value < min || value > max) fail(path, `must be between ${min} and ${max}, got ${value}`, value);
}

function checkCounts(path: string, value: unknown, max: number): void {
  if (!Array.isArray(value) || value.length === 0) fail(path, 'must be a non-empty list of client counts', value);
  value.forEach((v, i) => checkNumber(`${path}[${i}]`, v, 1, max, true));
}

function checkKeys(path: string, value: unknown, allowed: object): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object', value);
  for (const key of Object.keys(value)) {
    if (!(key in allowed)) fail(path ? `${path}.${key}` : key, `unknown key; known keys are ${Object.keys(allowed).join(', ')}`, key);
  }
  return value as Record<string, unknown>;
}

function checkVariants(value: unknown): void {
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) {
    fail('variants', 'must list one or two variants ({name, createTarget}); the CLI builds them from --target/--url/--variants', Array.isArray(value) ? value.length : value);
  }
  const names = new Set<string>();
  value.forEach((v: unknown, i: number) => {
    const variant = v as Partial<BenchVariant>;
    if (!variant || typeof variant.name !== 'string' || variant.name === '') fail(`variants[${i}].name`, 'must be a non-empty string', variant?.name);
    if (typeof variant.createTarget !== 'function') fail(`variants[${i}].createTarget`, 'must be a function returning a BenchTarget', typeof variant.createTarget);
    if (names.has(variant.name)) fail(`variants[${i}].name`, `"${variant.name}" is used twice; variant names must differ`, variant.name);
    names.add(variant.name);
  });
}

export function resolveBenchConfig(overrides: Partial<Omit<BenchConfig, 'ramp' | 'open'>> & { ramp?: Partial<RampConfig>; open?: Partial<OpenLoopConfig> } = {}): Readonly<BenchConfig> {
  const defaults = defaultBenchConfig();
  const top = checkKeys('', overrides, defaults);
  const ramp = { ...defaults.ramp, ...checkKeys('ramp', top.ramp ?? {}, defaults.ramp) };
  const open = { ...defaults.open, ...checkKeys('open', top.open ?? {}, defaults.open) };
  const config = { ...defaults, ...overrides, ramp, open } as BenchConfig;

  if (!BENCH_MODES.includes(config.mode)) fail('mode', `must be one of ${BENCH_MODES.join(', ')}`, config.mode);
  checkVariants(config.variants);
  if (!Array.isArray(config.workloads) || config.workloads.length === 0) fail('workloads', 'must name at least one workload', config.workloads);
  config.workloads.forEach((w, i) => {
    if (!BUILT_IN_WORKLOAD_NAMES.includes(w as never)) fail(`workloads[${i}]`, `"${w}" is unknown; use ${BUILT_IN_WORKLOAD_NAMES.join(', ')}`, w);
  });
  if (new Set(config.workloads).size !== config.workloads.length) fail('workloads', 'lists a workload twice', config.workloads.join(','));
  for (const key of ['voice', 'language', 'nvidiaSmiPath'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') fail(key, 'must be a non-empty string', config[key]);
  }
  if (config.harnessRevision !== null && typeof config.harnessRevision !== 'string') fail('harnessRevision', 'must be a string or null', config.harnessRevision);
  if (typeof config.stream !== 'boolean') fail('stream', 'must be true or false', config.stream);
  checkCounts('clientCounts', config.clientCounts, 1000);
  checkNumber('windowMs', config.windowMs, 100, 86_400_000, false);
  checkNumber('numPasses', config.numPasses, 1, 20, true);
  checkNumber('warmupSeed', config.warmupSeed, 0, MAX_SEED, true);
  checkNumber('goldenSeed', config.goldenSeed, 0, MAX_SEED, true);
  checkNumber('statusIntervalMs', config.statusIntervalMs, 10, 60_000, false);
  checkNumber('gpuIntervalMs', config.gpuIntervalMs, 10, 60_000, false);
  checkNumber('gpuIndex', config.gpuIndex, 0, 64, true);
  checkNumber('requestTimeoutMs', config.requestTimeoutMs, 10, 3_600_000, false);
  checkNumber('fillTimeoutMs', config.fillTimeoutMs, 10, 3_600_000, false);
  checkNumber('drainTimeoutMs', config.drainTimeoutMs, 10, 3_600_000, false);
  checkNumber('maxRequestsPerClient', config.maxRequestsPerClient, 1, 10_000_000, true);
  checkNumber('rejectionBackoffMs', config.rejectionBackoffMs, 0, 60_000, false);
  checkCounts('ramp.clientCounts', ramp.clientCounts, 1000);
  checkNumber('ramp.kneeGainFraction', ramp.kneeGainFraction, 0, 10, false);
  checkNumber('open.ratePerS', open.ratePerS, 0.001, 10_000, false);
  checkNumber('open.latencyObjectiveMs', open.latencyObjectiveMs, 1, 3_600_000, false);
  checkNumber('open.arrivalSeed', open.arrivalSeed, 0, MAX_SEED, true);
  checkNumber('open.maxOutstanding', open.maxOutstanding, 1, 100_000, true);

  return Object.freeze({
    ...config,
    variants: Object.freeze([...config.variants]) as BenchVariant[],
    workloads: Object.freeze([...config.workloads]) as string[],
    clientCounts: Object.freeze([...config.clientCounts]) as number[],
    ramp: Object.freeze({ ...ramp, clientCounts: Object.freeze([...ramp.clientCounts]) as number[] }),
    open: Object.freeze(open),
  });
}
