/**
 * Time-weighted mean of a step function given by timestamped samples (queue depth, waiting).
 * Each sample's value holds until the next sample; before the first sample the first value holds.
 * Pure: no clock, no I/O. Used by the benchmark for every /status-derived mean.
 */

export interface TimedValue {
  tMs: number;
  value: number;
}

/** Mean of the step function over [startMs, endMs]; null when there are no samples or the span is empty. */
export function timeWeightedMean(points: readonly TimedValue[], startMs: number, endMs: number): number | null {
  if (points.length === 0 || !(endMs > startMs)) return null;
  const sorted = [...points].sort((a, b) => a.tMs - b.tMs);
  let area = 0;
  // the value in force at startMs: the last sample at or before it, else the first sample
  let current = sorted[0].value;
  let cursorMs = startMs;
  for (const point of sorted) {
    if (point.tMs <= startMs) {
      current = point.value;
      continue;
    }
    if (point.tMs >= endMs) break;
    area += current * (point.tMs - cursorMs);
    cursorMs = point.tMs;
    current = point.value;
  }
  area += current * (endMs - cursorMs);
  return area / (endMs - startMs);
}
