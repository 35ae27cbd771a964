/**
 * True peak of mono PCM per ITU-R BS.1770-5 Annex 2: the largest magnitude of the signal oversampled
 * to at least 192 kHz (true-peak-interpolator.ts; 8× at 24 kHz). Each local maximum of the oversampled
 * signal is refined by a parabola through it and its two neighbours, so a crest between oversampled
 * points is not missed (a plain 8× grid reads a near-Nyquist sine up to 0.17 dB low). Blocks that
 * cannot hold the peak are skipped after a cheap 2× screen. Pure; no I/O.
 */
import { checkSampleRate } from './check-args';
import { interpolatorFor, oversamplingOf, type TruePeakInterpolator } from './true-peak-interpolator';

/** Input samples per block (the unit of skipping); a half-sample point reads halfBefore + 1 = 16 inputs either side. */
const BLOCK = 16;
/** Input samples the screening pass copies to float64 at a time (a multiple of BLOCK). */
const SCREEN_CHUNK = 4096;
/** Input samples either side of a block that its oversampled points read. */
const MARGIN = 24;
/**
 * Between its samples and half-sample points, a signal band-limited to the input's Nyquist frequency
 * rises at most about √2 above them (a Nyquist-rate sine read 45° off its crest); 1.5 leaves room for
 * the interpolator's ripple and the parabola. A block is skipped when 1.5 × the screen around it
 * cannot beat the peak found so far.
 */
const HALF_SAMPLE_BOUND = 1.5;

/** Largest oversampled magnitude (linear, not dB) of PCM at `sampleRateHz`. */
export function measureTruePeak(pcm: Float32Array, sampleRateHz: number): number {
  checkSampleRate(sampleRateHz);
  const interp = interpolatorFor(sampleRateHz);
  const numBlocks = Math.ceil(pcm.length / BLOCK);
  if (numBlocks === 0) return 0;
  const screen = screenBlocks(pcm, interp, numBlocks);
  let best = 0;
  let loudest = 0;
  for (let b = 0; b < numBlocks; b++) {
    if (screen[b] > best) best = screen[b];
    if (screen[b] > screen[loudest]) loudest = b;
  }
  const work = { x: new Float64Array(BLOCK + 2 * MARGIN), s2: new Float64Array(2 * (BLOCK + 2 * MARGIN)), points: new Float64Array((BLOCK + 2) * oversamplingOf(interp)) };
  const visit = (b: number) => {
    best = Math.max(best, blockPeak(pcm, b * BLOCK, Math.min(pcm.length, (b + 1) * BLOCK), interp, work));
  };
  // The loudest block first: its peak is usually the answer, which lets most others be skipped.
  visit(loudest);
  for (let b = 0; b < numBlocks; b++) {
    const around = Math.max(screen[b], b > 0 ? screen[b - 1] : 0, b + 1 < numBlocks ? screen[b + 1] : 0);
    if (b !== loudest && HALF_SAMPLE_BOUND * around > best) visit(b);
  }
  return best;
}

/** True peak in dBTP (−Infinity for digital silence). */
export function measureTruePeakDbtp(pcm: Float32Array, sampleRateHz: number): number {
  const peak = measureTruePeak(pcm, sampleRateHz);
  return peak > 0 ? 20 * Math.log10(peak) : -Infinity;
}

/** x[k] = pcm[start − MARGIN + k] for k < end − start + 2·MARGIN, zero outside the signal. */
function fillWindow(pcm: Float32Array, start: number, end: number, x: Float64Array): void {
  const from = start - MARGIN;
  for (let k = 0; k < end - start + 2 * MARGIN; k++) {
    const j = from + k;
    x[k] = j >= 0 && j < pcm.length ? pcm[j] : 0;
  }
}

/** The 2× stage: the point at window index i + ½ (symmetric taps; two accumulators for speed). */
function halfPoint(x: Float64Array, i: number, interp: TruePeakInterpolator): number {
  const { halfTaps, halfBefore } = interp;
  const lo = i - halfBefore;
  const hi = i + 1 + halfBefore;
  let acc0 = 0;
  let acc1 = 0;
  for (let t = 0; t < halfTaps.length; t += 2) {
    acc0 += halfTaps[t] * (x[lo + t] + x[hi - t]);
    acc1 += halfTaps[t + 1] * (x[lo + t + 1] + x[hi - t - 1]);
  }
  return acc0 + acc1;
}

/**
 * Per block, the largest magnitude among its samples and half-sample points. A block too quiet to
 * matter (even Σ|half taps| times its loudest input stays under the sample peak / HALF_SAMPLE_BOUND)
 * gets that upper bound instead of the dot products.
 */
function screenBlocks(pcm: Float32Array, interp: TruePeakInterpolator, numBlocks: number): Float64Array {
  const screen = new Float64Array(numBlocks);
  let samplePeak = 0;
  for (let i = 0; i < pcm.length; i++) {
    const b = (i / BLOCK) | 0;
    const a = Math.abs(pcm[i]);
    if (a > screen[b]) screen[b] = a;
    if (a > samplePeak) samplePeak = a;
  }
  const halfGain = 2 * interp.halfTaps.reduce((sum, v) => sum + Math.abs(v), 0);
  const inputMax = screen.slice();
  const x = new Float64Array(SCREEN_CHUNK + 2 * MARGIN);
  for (let start = 0; start < pcm.length; start += SCREEN_CHUNK) {
    const end = Math.min(pcm.length, start + SCREEN_CHUNK);
    fillWindow(pcm, start, end, x);
    for (let block = start; block < end; block += BLOCK) {
      const b = block / BLOCK;
      const halfBound = halfGain * Math.max(inputMax[b], b > 0 ? inputMax[b - 1] : 0, b + 1 < numBlocks ? inputMax[b + 1] : 0);
      if (halfBound * HALF_SAMPLE_BOUND <= samplePeak) {
        screen[b] = Math.max(screen[b], halfBound);
        continue;
      }
      for (let i = block; i < Math.min(end, block + BLOCK); i++) screen[b] = Math.max(screen[b], Math.abs(halfPoint(x, i - start + MARGIN, interp)));
    }
  }
  return screen;
}

/**
 * The oversampled points of samples start − 1 … end in time order, and the largest magnitude among
 * them after parabolic refinement of each local maximum.
 */
function blockPeak(pcm: Float32Array, start: number, end: number, interp: TruePeakInterpolator, work: { x: Float64Array; s2: Float64Array; points: Float64Array }): number {
  const { x, s2, points } = work;
  const { stage2, stage2Before } = interp;
  fillWindow(pcm, start, end, x);
  const first = MARGIN - 1; // window index of sample start − 1
  const last = MARGIN + end - start; // window index of sample end
  // s2[k − s2From] is the 2× signal at window position k/2, for every k that stage 2 reads below.
  const s2From = 2 * first - stage2Before;
  const s2To = 2 * last + 1 + stage2[0].length - stage2Before - 1;
  for (let k = s2From; k <= s2To; k++) s2[k - s2From] = (k & 1) === 0 ? x[k >> 1] : halfPoint(x, k >> 1, interp);
  let m = 0;
  for (let k = 2 * first; k <= 2 * last + 1; k++) {
    points[m++] = s2[k - s2From];
    for (let q = 1; q < stage2.length; q++) {
      const taps = stage2[q];
      let acc = 0;
      for (let t = 0; t < taps.length; t++) acc += taps[t] * s2[k - s2From - stage2Before + t];
      points[m++] = acc;
    }
  }
  return refinedMax(points, m);
}

/** Largest |points[k]|, k < m, with each interior local maximum replaced by its parabola's vertex. */
function refinedMax(points: Float64Array, m: number): number {
  let best = 0;
  for (let k = 0; k < m; k++) {
    const mid = points[k];
    const b = Math.abs(mid);
    if (b > best) best = b;
    if (k === 0 || k === m - 1) continue;
    const a = Math.sign(mid) * points[k - 1];
    const c = Math.sign(mid) * points[k + 1];
    const curvature = 2 * b - a - c;
    if (b >= a && b >= c && curvature > 0) {
      // Vertex of the parabola through (−1, a), (0, b), (1, c); it lies within ±½ of the middle point.
      const vertex = b + ((c - a) * (c - a)) / (8 * curvature);
      if (vertex > best) best = vertex;
    }
  }
  return best;
}
