/**
 * Time stretch without pitch change: WSOLA (waveform-similarity overlap-add), written here.
 * Frames of `frameMs` are overlap-added at a fixed synthesis hop (half a frame, periodic Hann,
 * so the windows sum to 1) while the analysis hop is `rate` times that; each frame's input
 * position is moved within ±searchMs to the offset whose waveform best continues the previous
 * frame (normalised cross-correlation, coarse-to-fine search). Pure; no pitch or gain change.
 * Reference: Verhelst & Roelands, "An overlap-add technique based on waveform similarity (WSOLA)", ICASSP 1993.
 */
import { checkRange, checkSampleRate } from './check-args';

export interface TimeStretchOptions {
  /** Frame length; 20-40 ms spans at least two pitch periods of speech. */
  frameMs: number;
  /** How far a frame may move from its nominal position to find the best match. */
  searchMs: number;
}

export function defaultTimeStretchOptions(): TimeStretchOptions {
  return { frameMs: 30, searchMs: 8 };
}

export const MIN_STRETCH_RATE = 0.25;
export const MAX_STRETCH_RATE = 4;

/**
 * Plays `pcm` `rate` times as fast (rate 1.25 → 80 % of the duration) at the same pitch.
 * The output has exactly round(pcm.length / rate) samples.
 */
export function timeStretch(pcm: Float32Array, sampleRateHz: number, rate: number, options: TimeStretchOptions = defaultTimeStretchOptions()): Float32Array {
  checkSampleRate(sampleRateHz);
  checkRange('rate', rate, MIN_STRETCH_RATE, MAX_STRETCH_RATE, 'rates far from 1 sound processed; ask the model to speak faster or slower instead');
  const numOutput = Math.round(pcm.length / rate);
  if (rate === 1) return pcm.slice();
  if (pcm.length === 0) return new Float32Array(0);

  const hopOut = Math.max(8, Math.round((options.frameMs * sampleRateHz) / 2000)); // synthesis hop = half frame
  const frameLen = 2 * hopOut;
  const search = Math.max(1, Math.round((options.searchMs * sampleRateHz) / 1000));
  const stride = Math.max(1, Math.round(sampleRateHz / 6000)); // coarse search step ≈ 6 kHz grid
  const hopIn = hopOut * rate;

  // Zero-padded copy so frames may read before the start and past the end.
  const pad = search + frameLen;
  const x = new Float32Array(pcm.length + 2 * pad + frameLen + Math.ceil(hopIn) * 2);
  x.set(pcm, pad);
  const maxStart = pad + pcm.length; // frames starting later would read only padding

  const window = new Float32Array(frameLen);
  for (let n = 0; n < frameLen; n++) window[n] = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / frameLen);

  const y = new Float32Array(numOutput + frameLen);
  const weight = new Float32Array(numOutput + frameLen);
  let prevStart = pad; // input index (in x) of the previous frame
  for (let k = 0; k * hopOut < numOutput; k++) {
    let start = pad;
    if (k > 0) {
      const nominal = pad + Math.round(k * hopIn);
      const target = prevStart + hopOut; // the natural continuation of the previous frame
      start = Math.min(maxStart, bestOffset(x, target, nominal, search, hopOut, stride));
    }
    const outStart = k * hopOut;
    for (let n = 0; n < frameLen; n++) {
      y[outStart + n] += window[n] * x[start + n];
      weight[outStart + n] += window[n];
    }
    prevStart = start;
  }

  const out = new Float32Array(numOutput);
  for (let i = 0; i < numOutput; i++) out[i] = weight[i] > 1e-3 ? y[i] / weight[i] : y[i];
  return out;
}

/** The start in [nominal-search, nominal+search] whose first `length` samples best match x[target…]. */
function bestOffset(x: Float32Array, target: number, nominal: number, search: number, length: number, stride: number): number {
  const lo = Math.max(0, nominal - search);
  const hi = nominal + search;
  let best = nominal;
  let bestScore = -Infinity;
  for (let p = lo; p <= hi; p += stride) {
    const score = similarity(x, target, p, length, 2 * stride);
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  }
  if (stride > 1) {
    const coarse = best;
    bestScore = -Infinity;
    for (let p = Math.max(lo, coarse - stride + 1); p <= Math.min(hi, coarse + stride - 1); p++) {
      const score = similarity(x, target, p, length, 1);
      if (score > bestScore) {
        bestScore = score;
        best = p;
      }
    }
  }
  return best;
}

/** Cross-correlation of x[a…] and x[b…] over `length` samples, normalised by the energy of x[b…]. */
function similarity(x: Float32Array, a: number, b: number, length: number, stride: number): number {
  let dot = 0;
  let energy = 1e-12;
  for (let n = 0; n < length; n += stride) {
    const xb = x[b + n];
    dot += x[a + n] * xb;
    energy += xb * xb;
  }
  return dot / Math.sqrt(energy);
}
