/**
 * The studio's one WAV writer: mono float PCM → RIFF/WAVE bytes, as 16-bit PCM (rounded by
 * pcm16.ts, the one float → int16 rule) or 32-bit IEEE float (fmt with cbSize and a fact chunk).
 * Pure TypeScript with no Node or DOM API, so the engine goldens, the CLI, the HTTP API, the
 * library and the renderer's exports all write the same bytes for the same PCM.
 */
import { StudioError } from '../../src-shared/errors';
import { quantizeToInt16 } from './pcm16';

export type WavFormat = 'pcm16' | 'float32';

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
/** RIFF sizes are uint32; an unknown length is written as this (as streaming servers do). */
const UNKNOWN_SIZE = 0xffffffff;

const bytesPerSampleOf = (format: WavFormat) => (format === 'pcm16' ? 2 : 4);

/** Header bytes in front of the samples: 44 for pcm16; float32 adds cbSize (2) and a fact chunk (12). */
function wavHeaderBytes(format: WavFormat): number {
  return format === 'pcm16' ? 44 : 58;
}

/**
 * The header alone, for a writer that sends the samples after it: sizes for `numSamples`, or
 * 0xFFFFFFFF (unknown) when null. encodeWav is this header followed by the samples.
 */
export function encodeWavHeader(sampleRateHz: number, format: WavFormat, numSamples: number | null): Uint8Array {
  if (!Number.isInteger(sampleRateHz) || sampleRateHz < 1000 || sampleRateHz > 384_000) {
    throw new StudioError('invalid-argument', `sampleRateHz is ${sampleRateHz} but WAV needs an integer from 1,000 to 384,000; pass the PCM's real rate`, { field: 'sampleRateHz', value: sampleRateHz });
  }
  const bytesPerSample = bytesPerSampleOf(format);
  const headerBytes = wavHeaderBytes(format);
  const numDataBytes = numSamples === null ? null : numSamples * bytesPerSample;
  if (numDataBytes !== null && headerBytes - 8 + numDataBytes > UNKNOWN_SIZE - 1) {
    throw new StudioError('input-too-long', `${numSamples} samples are over the 4 GiB a WAV file can hold; split the audio into several files`, { field: 'pcm', numSamples: numSamples ?? 0 });
  }
  const out = new Uint8Array(headerBytes);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  const isFloat = format === 'float32';
  ascii(0, 'RIFF');
  view.setUint32(4, numDataBytes === null ? UNKNOWN_SIZE : headerBytes - 8 + numDataBytes, true); // everything after this field
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, isFloat ? 18 : 16, true);
  view.setUint16(20, isFloat ? WAVE_FORMAT_IEEE_FLOAT : WAVE_FORMAT_PCM, true);
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * bytesPerSample, true); // byte rate
  view.setUint16(32, bytesPerSample, true); // block align
  view.setUint16(34, bytesPerSample * 8, true);
  if (isFloat) {
    // IEEE float is not PCM: its fmt chunk carries cbSize and a fact chunk gives the sample count (RIFF spec; sox expects both)
    view.setUint16(36, 0, true);
    ascii(38, 'fact');
    view.setUint32(42, 4, true);
    view.setUint32(46, numSamples === null ? UNKNOWN_SIZE : numSamples, true);
  }
  ascii(headerBytes - 8, 'data');
  view.setUint32(headerBytes - 4, numDataBytes === null ? UNKNOWN_SIZE : numDataBytes, true);
  return out;
}

/** Mono PCM in [-1, 1] → a whole WAV file; pcm16 clamps out-of-range samples (NaN becomes 0). */
export function encodeWav(pcm: Float32Array, sampleRateHz: number, format: WavFormat): Uint8Array {
  const header = encodeWavHeader(sampleRateHz, format, pcm.length);
  const out = new Uint8Array(header.length + pcm.length * bytesPerSampleOf(format));
  out.set(header);
  const view = new DataView(out.buffer);
  const at = header.length;
  if (format === 'pcm16') {
    const ints = quantizeToInt16(pcm);
    for (let i = 0; i < ints.length; i++) view.setInt16(at + 2 * i, ints[i], true);
  } else {
    for (let i = 0; i < pcm.length; i++) view.setFloat32(at + 4 * i, pcm[i], true);
  }
  return out;
}
