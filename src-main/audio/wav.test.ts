import { describe, expect, it } from 'vitest';
import * as wavefileModule from 'wavefile';
import { StudioError } from '../../src-shared/errors';
import { decodeWav, encodeWav } from './wav';

type Shape = { WaveFile: typeof wavefileModule.WaveFile };
const WaveFile = (wavefileModule as unknown as Shape).WaveFile ?? (wavefileModule as unknown as { default: Shape }).default.WaveFile;

describe('encodeWav / decodeWav', () => {
  const pcm = new Float32Array([0, 0.25, -0.25, 0.999, -1, 0.5]);

  it('round-trips float32 exactly and pcm16 within 1.5 steps, clamping overs', () => {
    expect(decodeWav(encodeWav(pcm, 24000, 'float32'))).toEqual({ pcm, sampleRateHz: 24000, numChannels: 1 });
    const loud = new Float32Array([...pcm, 1.7, -3]);
    const back = decodeWav(encodeWav(loud, 24000, 'pcm16'));
    expect(back.sampleRateHz).toBe(24000);
    // the writer rounds x · 32767 for both signs; the reader divides negatives by 32768 (the whole int16
    // range onto [-1, 1]): half a step of rounding plus at most |x| / 32768 of scale
    for (let i = 0; i < loud.length; i++) expect(Math.abs(back.pcm[i] - Math.max(-1, Math.min(1, loud[i])))).toBeLessThanOrEqual(0.5 / 32767 + 1 / 32768 + 1e-9);
    expect(encodeWav(pcm, 24000, 'pcm16').byteLength).toBe(44 + 2 * pcm.length); // RIFF header + 16-bit samples
  });

  it('decodes 8-bit and 24-bit files and downmixes stereo to mono', () => {
    const w8 = new WaveFile();
    w8.fromScratch(1, 16000, '8', [128, 255, 0]);
    expect(Array.from(decodeWav(w8.toBuffer()).pcm)).toEqual([0, 1, -1]);
    const w24 = new WaveFile();
    w24.fromScratch(2, 48000, '24', [[4194304, 0], [-4194304, 8388607]]);
    const stereo = decodeWav(w24.toBuffer());
    expect(stereo.numChannels).toBe(2);
    expect(stereo.pcm[0]).toBeCloseTo(0, 6); // (0.5 + -0.5) / 2
    expect(stereo.pcm[1]).toBeCloseTo(0.5, 6); // (0 + 8388607/8388607) / 2
  });

  it('rejects bytes that are not a WAV file and bad sample rates', () => {
    expect(() => decodeWav(new Uint8Array([1, 2, 3, 4]))).toThrow(StudioError);
    expect(() => encodeWav(pcm, 0, 'pcm16')).toThrow(/sampleRateHz is 0/);
  });

  it('writes float32 with the fmt extension (cbSize 0) and a fact chunk holding the sample count', () => {
    const bytes = encodeWav(new Float32Array([0.5, -0.5, 0.25, 0]), 24000, 'float32');
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
    expect([text(12), v.getUint32(16, true), v.getUint16(20, true), v.getUint16(36, true)]).toEqual(['fmt ', 18, 3, 0]);
    expect([text(38), v.getUint32(42, true), v.getUint32(46, true)]).toEqual(['fact', 4, 4]);
    expect([text(50), v.getUint32(54, true)]).toEqual(['data', 16]);
  });
});
