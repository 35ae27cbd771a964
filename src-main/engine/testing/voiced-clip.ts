/**
 * Test-only: a voiced-like reference clip at 48 kHz for the voice-clone tests — a vibrato tone with
 * three harmonics between silences, optionally under a 3 Hz loudness swell; `salt` shifts the second
 * harmonic's phase so each clip sounds like another voice. Deterministic: the goldens depend on its bytes.
 */
export const VOICED_CLIP_RATE_HZ = 48000;

export function voicedClip(o: { f0Hz: number; salt: number; silenceS: number; voicedS: number; swell?: boolean }): Float32Array {
  const rate = VOICED_CLIP_RATE_HZ;
  const endS = o.silenceS + o.voicedS;
  return Float32Array.from({ length: (endS + o.silenceS) * rate }, (_, i) => {
    const t = i / rate;
    if (t < o.silenceS || t > endS) return 0;
    const phase = 2 * Math.PI * o.f0Hz * (t + 0.003 * Math.sin(2 * Math.PI * 4 * t));
    const tone = 0.25 * Math.sin(phase) + 0.12 * Math.sin(2 * phase + o.salt) + 0.06 * Math.sin(5 * phase);
    return o.swell ? (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)) * tone : tone;
  });
}
