/**
 * True peak of mono PCM per ITU-R BS.1770-4 Annex 2: the largest magnitude of the signal
 * upsampled 4× (polyphase windowed-sinc interpolator, 12 taps per phase), also counting the
 * original samples. Blocks whose interpolated values provably cannot beat the running
 * maximum (block max × Σ|taps| ≤ best) are skipped, which keeps the cost low on speech.
 */
const OVERSAMPLING = 4;
const TAPS_PER_PHASE = 12;
const BLOCK = 64;

let phases: Float64Array[] | null = null;
let maxTapSum = 0;

/** Phase p interpolates position n + p/4 from x[n-5..n+6] (taps ordered by input index). */
function getPhases(): Float64Array[] {
  if (phases) return phases;
  const half = TAPS_PER_PHASE / 2;
  const result: Float64Array[] = [];
  for (let p = 0; p < OVERSAMPLING; p++) {
    const taps = new Float64Array(TAPS_PER_PHASE);
    const frac = p / OVERSAMPLING;
    let sum = 0;
    for (let t = 0; t < TAPS_PER_PHASE; t++) {
      const d = t - (half - 1) - frac; // input index offset minus the fractional position
      const sinc = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
      const w = 0.5 + 0.5 * Math.cos((Math.PI * d) / (half + 0.5)); // Hann over ±6.5 samples
      taps[t] = sinc * w;
      sum += taps[t];
    }
    for (let t = 0; t < TAPS_PER_PHASE; t++) taps[t] /= sum; // unity gain at DC
    result.push(taps);
    maxTapSum = Math.max(maxTapSum, taps.reduce((s, v) => s + Math.abs(v), 0));
  }
  phases = result;
  return result;
}

/** Largest 4×-oversampled magnitude (linear, not dB). */
export function measureTruePeak(pcm: Float32Array): number {
  const taps = getPhases();
  const n = pcm.length;
  let best = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(pcm[i]);
    if (a > best) best = a;
  }
  const numBlocks = Math.ceil(n / BLOCK);
  const blockMax = new Float64Array(numBlocks);
  for (let i = 0; i < n; i++) {
    const a = Math.abs(pcm[i]);
    const b = (i / BLOCK) | 0;
    if (a > blockMax[b]) blockMax[b] = a;
  }
  const before = TAPS_PER_PHASE / 2 - 1;
  // Zero-padded copy so the 12-tap dot products need no bounds checks.
  const padded = new Float64Array(n + TAPS_PER_PHASE);
  for (let i = 0; i < n; i++) padded[i + before] = pcm[i];
  const [, h1, h2, h3] = taps;
  for (let b = 0; b < numBlocks; b++) {
    // Taps reach at most 6 samples beyond a block, so the neighbours bound the inputs.
    const bound = Math.max(blockMax[b], b > 0 ? blockMax[b - 1] : 0, b + 1 < numBlocks ? blockMax[b + 1] : 0) * maxTapSum;
    if (bound <= best) continue;
    const end = Math.min(n, (b + 1) * BLOCK);
    for (let i = b * BLOCK; i < end; i++) {
      // padded[i + t] is pcm[i - before + t]: the window for positions i + 1/4, i + 2/4, i + 3/4.
      let a1 = 0, a2 = 0, a3 = 0;
      for (let t = 0; t < TAPS_PER_PHASE; t++) {
        const v = padded[i + t];
        a1 += h1[t] * v;
        a2 += h2[t] * v;
        a3 += h3[t] * v;
      }
      const m = Math.max(Math.abs(a1), Math.abs(a2), Math.abs(a3));
      if (m > best) best = m;
    }
  }
  return best;
}

/** True peak in dBTP (−Infinity for digital silence). */
export function measureTruePeakDbtp(pcm: Float32Array): number {
  const peak = measureTruePeak(pcm);
  return peak > 0 ? 20 * Math.log10(peak) : -Infinity;
}
