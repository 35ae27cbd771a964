/**
 * Simple summaries of latency samples; the percentiles follow the studio's one rule
 * (src-shared/percentile.ts: linear interpolation between closest ranks, numpy's default), which the
 * live bench dashboard and the run comparison read too. Pure.
 */
import { percentile } from '../../src-shared/percentile';

export interface LatencySummary {
  numSamples: number;
  meanMs: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
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
