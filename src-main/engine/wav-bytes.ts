/**
 * Mono WAV bytes from float PCM: 16-bit PCM (clamped, rounded to nearest) or 32-bit float, via the
 * wavefile package. Stands in until src-main/audio/wav.ts (encodeWav) lands; same signature idea.
 */
import wavefile from 'wavefile';

export type WavFormat = 'pcm16' | 'float32';

/** Float [-1, 1] → int16 by round(x · 32767) after clamping. */
export function floatToPcm16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.round(Math.max(-1, Math.min(1, pcm[i])) * 32767);
  return out;
}

export function encodeWavBytes(pcm: Float32Array, sampleRateHz: number, format: WavFormat): Uint8Array {
  const wav = new wavefile.WaveFile();
  if (format === 'pcm16') wav.fromScratch(1, sampleRateHz, '16', floatToPcm16(pcm));
  else wav.fromScratch(1, sampleRateHz, '32f', Float64Array.from(pcm));
  return wav.toBuffer();
}
