/**
 * Click-free joins: raised-cosine fades at the edges of a clip that meets silence, and an
 * overlapping raised-cosine crossfade where two clips meet directly. The fade gains of a
 * crossfade sum to 1, so a signal continued across the join keeps its level.
 */

/** Raised-cosine ramp 0 → 1 over numSamples: g[n] = 0.5 − 0.5·cos(pi·(n + 0.5)/numSamples). */
function rampGain(n: number, numSamples: number): number {
  return 0.5 - 0.5 * Math.cos((Math.PI * (n + 0.5)) / numSamples);
}

/** Fades the first fadeInSamples in and the last fadeOutSamples out, in place. */
export function fadeEdges(pcm: Float32Array, fadeInSamples: number, fadeOutSamples: number): void {
  const fadeIn = Math.min(fadeInSamples, Math.floor(pcm.length / 2));
  const fadeOut = Math.min(fadeOutSamples, Math.floor(pcm.length / 2));
  for (let n = 0; n < fadeIn; n++) pcm[n] *= rampGain(n, fadeIn);
  for (let n = 0; n < fadeOut; n++) pcm[pcm.length - 1 - n] *= rampGain(n, fadeOut);
}

/**
 * Adds `next` into `out` starting at `at`, crossfading its first `overlap` samples with what
 * is already there (which fades out over the same samples). Returns the end index of `next`.
 */
export function overlapAdd(out: Float32Array, at: number, next: Float32Array, overlap: number): number {
  for (let n = 0; n < overlap; n++) {
    const g = rampGain(n, overlap);
    out[at + n] = out[at + n] * (1 - g) + next[n] * g;
  }
  out.set(next.subarray(overlap), at + overlap);
  return at + next.length;
}
