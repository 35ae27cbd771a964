/**
 * Float PCM → 16-bit integer PCM: the studio's one rounding rule, used by every WAV it writes
 * (wav-encode.ts), the raw `pcm` stream and the codecs' 16-bit input. Clamp to [-1, 1], then
 * round(x · 32767) for both signs, so full scale is ±32767 and the code -32768 is never written
 * (the rule the engine goldens were recorded with). NaN becomes 0. Pure.
 */

export function quantizeToInt16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i] < -1 ? -1 : pcm[i] > 1 ? 1 : pcm[i];
    out[i] = Math.round(x * 32767);
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
