/**
 * runBenchmark: the whole protocol of benchmark-protocol.md for one run. Starts GPU telemetry
 * (one nvidia-smi stream for the run), loops passes × variants (order reversed on even passes),
 * and assembles the versioned BenchRunRecord. Cancellation via signal returns a partial record
 * marked cancelled; it never throws for a failing target (errors are recorded).
 */
import { performance } from 'node:perf_hooks';
import { createGpuSampler } from '../telemetry/gpu-sampler';
import { readMachineInfo } from '../telemetry/machine-info';
import { resolveBenchConfig, type BenchConfig } from './bench-config';
import type { BenchProgress } from './bench-progress';
import { BENCH_RUN_SCHEMA_VERSION, HARNESS_VERSION, type BenchRunRecord } from './run-record';
import type { RunContext } from './run-context';
import { createRunId } from './run-id';
import { runVariantSession } from './variant-session';

export interface RunBenchmarkOptions {
  onProgress?: (progress: BenchProgress) => void;
  signal?: AbortSignal;
  /** The record's id (createRunId's form); the studio passes the id it already showed for the run. */
  runId?: string;
}

export const BENCH_CAVEATS: readonly string[] = [
  'Completed-request counts have finite-window boundary variation.',
  'Two passes show repeatability; they do not establish statistical confidence or a universal speedup.',
  'Complete-response latency (send to last byte, queue wait included) is not a streaming first-audio measurement.',
  'Closed-loop clients wait for each answer, so a slow server lowers its own offered load; the open-loop mode does not.',
  'GPU telemetry covers fill and drain as well as the steady window, and includes other processes on the GPU.',
  'Each workload repeats one fixed seed, so this isolates scheduling; it is not a diverse production-traffic simulation.',
];

export function numPlannedMeasurements(config: Readonly<BenchConfig>): number {
  const perWorkload = config.mode === 'ramp' ? config.ramp.clientCounts.length : config.mode === 'open' ? 1 : config.clientCounts.length;
  return perWorkload * config.workloads.length * config.variants.length * config.numPasses;
}

export function serialisableConfig(config: Readonly<BenchConfig>): Record<string, unknown> {
  return { ...config, variants: config.variants.map((v) => ({ name: v.name, description: v.description ?? null })) };
}

export async function runBenchmark(overrides: Parameters<typeof resolveBenchConfig>[0], options: RunBenchmarkOptions = {}): Promise<BenchRunRecord> {
  const config = resolveBenchConfig(overrides);
  const signal = options.signal ?? new AbortController().signal;
  const startedAt = new Date();
  const originMs = performance.now();
  const clock = () => performance.now() - originMs;
  const numMeasurements = numPlannedMeasurements(config);
  let measurementIndex = 0;
  let currentPass = 1;

  const gpu = createGpuSampler({ command: config.nvidiaSmiPath, intervalMs: config.gpuIntervalMs, gpuIndex: config.gpuIndex, clock });
  const [machine] = await Promise.all([readMachineInfo({ nvidiaSmiPath: config.nvidiaSmiPath, gpuIndex: config.gpuIndex }), gpu.start()]);

  const ctx: RunContext = {
    config,
    clock,
    signal,
    gpu,
    emit: (p) => options.onProgress?.({ ...p, numPasses: config.numPasses, measurementIndex, numMeasurements }),
    nextMeasurement: () => {
      measurementIndex += 1;
    },
    firstGoldens: new Map(),
    out: { goldens: [], inferenceHashes: [], measurements: [], bursts: [], ramps: [], openLoops: [], errors: [], variants: [], requestSamples: [], statusSamples: [] },
  };

  try {
    for (let pass = 1; pass <= config.numPasses && !signal.aborted; pass++) {
      currentPass = pass;
      const reversed = pass % 2 === 0;
      const variants = reversed ? [...config.variants].reverse() : [...config.variants];
      for (const variant of variants) {
        if (signal.aborted) break;
        await runVariantSession(ctx, pass, variant, reversed);
      }
    }
  } finally {
    gpu.dispose();
  }

  const goldensIdenticalAcrossVariants: Record<string, boolean | null> = {};
  for (const workload of config.workloads) {
    const firstPass = ctx.out.goldens.filter((g) => g.pass === 1 && g.workload === workload && g.errorMessage === null);
    goldensIdenticalAcrossVariants[workload] = config.variants.length < 2 || firstPass.length < 2 ? null : firstPass.every((g) => g.sha256 === firstPass[0].sha256);
  }
  options.onProgress?.({
    phase: 'done', pass: currentPass, numPasses: config.numPasses, variant: null, workload: null, numClients: null,
    measurementIndex, numMeasurements, windowLeftMs: null, numCompleted: ctx.out.requestSamples.length,
  });

  return {
    schemaVersion: BENCH_RUN_SCHEMA_VERSION,
    runId: options.runId ?? createRunId(startedAt),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    harnessVersion: HARNESS_VERSION,
    harnessRevision: config.harnessRevision,
    mode: config.mode,
    machine,
    config: serialisableConfig(config),
    variants: ctx.out.variants,
    telemetry: { gpuAvailable: gpu.samples.length > 0, gpuNote: gpu.samples.length > 0 ? null : gpu.unavailableReason(), gpuIntervalMs: config.gpuIntervalMs, statusIntervalMs: config.statusIntervalMs },
    goldens: ctx.out.goldens,
    goldensIdenticalAcrossVariants,
    inferenceHashes: ctx.out.inferenceHashes,
    measurements: ctx.out.measurements,
    bursts: ctx.out.bursts,
    ramps: ctx.out.ramps,
    openLoops: ctx.out.openLoops,
    samples: { requests: ctx.out.requestSamples, status: ctx.out.statusSamples, gpu: [...gpu.samples] },
    caveats: [...BENCH_CAVEATS],
    cancelled: signal.aborted,
    errors: ctx.out.errors,
  };
}
