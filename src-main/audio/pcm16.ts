/**
 * Float PCM → 16-bit integer PCM, clamped to [-1, 1] and rounded as wav.ts writes 16-bit WAV
 * (negative values scale by 32768, positive by 32767). Pure.
 */

export function quantizeToInt16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i] < -1 ? -1 : pcm[i] > 1 ? 1 : pcm[i];
    out[i] = Math.round(x < 0 ? x * 32768 : x * 32767);
  }
  return out;
}

/** Raw 16-bit little-endian mono samples, no header (OpenAI's `pcm` response format). */
export function encodePcm16Le(pcm: Float32Array): Uint8Array {
  const ints = quantizeToInt16(pcm);
  const bytes = new Uint8Array(ints.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < ints.length; i++) view.setInt16(i * 2, ints[i], true);
  return bytes;
}
