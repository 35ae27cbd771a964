/**
 * Mean number of open intervals over a window, integrated exactly from start/end transitions.
 * The benchmark feeds it each request's send → last-byte interval to get mean outstanding requests.
 * Pure: no clock, no I/O.
 */

export interface Interval {
  startMs: number;
  endMs: number;
}

/** Sum of each interval's overlap with [windowStartMs, windowEndMs], divided by the window length. */
export function meanOccupancy(intervals: readonly Interval[], windowStartMs: number, windowEndMs: number): number {
  const windowMs = windowEndMs - windowStartMs;
  if (!(windowMs > 0)) return 0;
  let busyMs = 0;
  for (const interval of intervals) {
    const overlapMs = Math.min(interval.endMs, windowEndMs) - Math.max(interval.startMs, windowStartMs);
    if (overlapMs > 0) busyMs += overlapMs;
  }
  return busyMs / windowMs;
}
