/**
 * The mutable state one benchmark run accumulates while its variant sessions execute: the clock,
 * the abort signal, progress, and the growing lists that become the run record.
 * Owned by run-benchmark.ts; variant-session.ts appends to it.
 */
import type { GpuSampler } from '../telemetry/gpu-sampler';
import type { BenchConfig } from './bench-config';
import type { BenchProgress } from './bench-progress';
import type { BenchRunRecord } from './run-record';

export interface RunContext {
  config: Readonly<BenchConfig>;
  /** ms since the run started (monotonic). */
  clock: () => number;
  signal: AbortSignal;
  gpu: GpuSampler;
  emit(progress: Omit<BenchProgress, 'numPasses' | 'numMeasurements' | 'measurementIndex'>): void;
  /** Advances the 1-based measurement counter used in progress. */
  nextMeasurement(): void;
  /** The first pass's golden bytes, by variant then workload. */
  firstGoldens: Map<string, Map<string, Uint8Array>>;
  out: Pick<BenchRunRecord, 'goldens' | 'inferenceHashes' | 'measurements' | 'bursts' | 'ramps' | 'openLoops' | 'errors' | 'variants'> & {
    requestSamples: BenchRunRecord['samples']['requests'];
    statusSamples: BenchRunRecord['samples']['status'];
  };
}
