/**
 * The tables true-peak.ts screens and reads with, built once per sample rate: the 32-tap half-sample
 * Kaiser-windowed sinc of its cheap screening pass (about 80 dB stopband; it reads content near
 * Nyquist low, which the screen's margin allows for), and how many points per sample the exact pass
 * reads so that the oversampled rate is at least 192 kHz (ITU-R BS.1770-5 Annex 2): 8 at 24 and 48 kHz,
 * 12 at 16 kHz. Pure tables.
 */
import { besselI0 } from './bessel-i0';

export const MIN_OVERSAMPLED_RATE_HZ = 192_000;
/** At least 8 points per sample whatever the rate: at 4 the parabola misses a 0.4 × rate crest by 0.02 dB. */
const MIN_PHASES = 8;
/** Taps of the half-sample point. */
const HALF_TAPS = 32;
const HALF_KAISER_BETA = 8;

export interface TruePeakInterpolator {
  /** The point at i + ½ is Σ_t halfTaps[t]·(x[i − halfBefore + t] + x[i + 1 + halfBefore − t]) (the taps are symmetric). */
  halfTaps: Float64Array;
  halfBefore: number;
  /** Points per input sample, at i + q/numPhases; the first is x[i] itself. */
  numPhases: number;
}

const cache = new Map<number, TruePeakInterpolator>();

/** The tables for PCM at `sampleRateHz`. */
export function interpolatorFor(sampleRateHz: number): TruePeakInterpolator {
  let interp = cache.get(sampleRateHz);
  if (!interp) {
    const numPhases = 2 * Math.max(MIN_PHASES / 2, Math.ceil(MIN_OVERSAMPLED_RATE_HZ / (2 * sampleRateHz)));
    const half = windowedSinc(HALF_TAPS, HALF_KAISER_BETA, 0.5);
    interp = { halfTaps: half.slice(0, HALF_TAPS / 2), halfBefore: HALF_TAPS / 2 - 1, numPhases };
    cache.set(sampleRateHz, interp);
  }
  return interp;
}

/** Oversampled points per input sample. */
export function oversamplingOf(interp: TruePeakInterpolator): number {
  return interp.numPhases;
}

/**
 * Taps t = 0 … numTaps − 1 of a Kaiser-windowed sinc cut off at the Nyquist frequency, for the point
 * `frac` of a sample past input t = numTaps/2 − 1; normalised to unity gain at DC.
 */
function windowedSinc(numTaps: number, beta: number, frac: number): Float64Array {
  const halfWidth = numTaps / 2;
  const taps = new Float64Array(numTaps);
  let sum = 0;
  for (let t = 0; t < numTaps; t++) {
    const d = t - (halfWidth - 1) - frac; // input index minus the point's position, in samples
    const sinc = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
    const r = d / halfWidth;
    taps[t] = Math.abs(r) >= 1 ? 0 : (sinc * besselI0(beta * Math.sqrt(1 - r * r))) / besselI0(beta);
    sum += taps[t];
  }
  for (let t = 0; t < numTaps; t++) taps[t] /= sum;
  return taps;
}
