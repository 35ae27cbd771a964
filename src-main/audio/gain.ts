/**
 * Gain in decibels over mono float PCM. Pure; returns a new buffer.
 * Used per turn (SSML volume) and once for whole-recording loudness normalisation.
 */
import { dbToLinear } from '../../src-shared/units';

/** Multiplies every sample by 10^(gainDb / 20); 0 dB returns an unchanged copy. */
export function applyGainDb(pcm: Float32Array, gainDb: number): Float32Array {
  const out = new Float32Array(pcm.length);
  if (gainDb === 0) {
    out.set(pcm);
    return out;
  }
  const gain = dbToLinear(gainDb);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] * gain;
  return out;
}
