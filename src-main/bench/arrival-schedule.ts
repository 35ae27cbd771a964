/**
 * Seeded Poisson arrival times for open-loop load: exponential inter-arrival gaps with mean
 * 1/rate, from a small counter-free PRNG (mulberry32) so a seed always gives the same schedule.
 * Pure; bounded by maxArrivals.
 */

/** mulberry32: a 32-bit seeded generator returning floats in [0, 1). */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Offsets (ms from the start) of arrivals in [0, durationMs). */
export function poissonArrivalOffsetsMs(ratePerS: number, durationMs: number, seed: number, maxArrivals = 1_000_000): number[] {
  const random = createSeededRandom(seed);
  const meanGapMs = 1000 / ratePerS;
  const offsets: number[] = [];
  let tMs = 0;
  while (offsets.length < maxArrivals) {
    tMs += -Math.log(1 - random()) * meanGapMs; // inverse CDF of Exp(rate); 1 - u avoids log(0)
    if (tMs >= durationMs) break;
    offsets.push(tMs);
  }
  return offsets;
}
