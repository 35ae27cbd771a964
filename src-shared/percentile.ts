/**
 * The one percentile rule of the studio: linear interpolation between closest ranks (numpy's
 * default). The bench reports, the live bench dashboard and the run comparison charts all read
 * p50 / p95 / medians through it, so a number means the same wherever it is shown. Pure.
 */

/** The q-quantile (q in [0, 1]) of values, in any order; NaN for an empty list. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - lower);
}

/** percentile(values, q), or null for an empty list (for fields that show no value rather than NaN). */
export function percentileOrNull(values: readonly number[], q: number): number | null {
  return values.length === 0 ? null : percentile(values, q);
}
