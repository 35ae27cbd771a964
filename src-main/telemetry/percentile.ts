/**
 * Percentiles and simple summaries of latency samples (linear interpolation between closest
 * ranks, numpy's default), so every report computes p50/p95/p99 the same way. Pure.
 */

export interface LatencySummary {
  numSamples: number;
  meanMs: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The q-quantile (q in [0, 1]) of values; NaN for an empty list. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - lower);
}

export function summariseLatencies(valuesMs: readonly number[]): LatencySummary | null {
  if (valuesMs.length === 0) return null;
  const totalMs = valuesMs.reduce((sum, v) => sum + v, 0);
  return {
    numSamples: valuesMs.length,
    meanMs: totalMs / valuesMs.length,
    medianMs: percentile(valuesMs, 0.5),
    p95Ms: percentile(valuesMs, 0.95),
    p99Ms: percentile(valuesMs, 0.99),
    maxMs: Math.max(...valuesMs),
  };
}
