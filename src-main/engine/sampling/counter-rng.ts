/**
 * Counter-based randomness: uniform(seed, frame, codebook, draw) is a pure hash of its four
 * integers, with no generator state. A sequence's draws therefore depend only on its own seed and
 * position, never on batch-mates or on how many draws happened before (design.md, "Determinism").
 * The hash is a chain of 32-bit lowbias32 finalisers (Chris Wellons' hash-prospector) over the words.
 */

const GOLDEN_32 = 0x9e3779b9;

/** lowbias32: a 32-bit avalanche finaliser (hash-prospector, bias ≈ 0.17). */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function absorb(h: number, word: number): number {
  return mix32((h ^ word) + GOLDEN_32);
}

/** Splits a non-negative integer below 2^53 into its low and high 32-bit words. */
function splitWords(value: number): [number, number] {
  return [value >>> 0, Math.floor(value / 0x1_0000_0000) >>> 0];
}

/** 32 random bits for one counter; `lane` gives independent streams from the same counter. */
export function counterHash32(seed: number, frame: number, codebook: number, draw: number, lane: number): number {
  const [seedLo, seedHi] = splitWords(seed);
  let h = absorb(0x243f6a88, seedLo);
  h = absorb(h, seedHi);
  h = absorb(h, frame >>> 0);
  h = absorb(h, codebook >>> 0);
  h = absorb(h, draw >>> 0);
  return absorb(h, lane >>> 0);
}

/** A uniform double in [0, 1) with 53 random bits, a pure function of the counter. */
export function counterUniform(seed: number, frame: number, codebook: number, draw = 0): number {
  const hi = counterHash32(seed, frame, codebook, draw, 0) >>> 5; // 27 bits
  const lo = counterHash32(seed, frame, codebook, draw, 1) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992; // (hi·2^26 + lo) / 2^53
}

/** Rejects seeds that cannot be split into two 32-bit words exactly. */
export function isValidSeed(seed: number): boolean {
  return Number.isSafeInteger(seed) && seed >= 0;
}
