// The one WAV writer: its float → int16 rule (the engine goldens'), its bytes against wavefile's
// for the same 16-bit samples, the float32 header, the streaming header, and that the encoders
// around it (HTTP API wav and pcm, the renderer's export) write the same samples.
import { describe, expect, it } from 'vitest';
import * as wavefileModule from 'wavefile';
import { encodeWav as encodeRendererWav } from '../../src-renderer/components/wav-encode';
import { encodeAudio } from './encode-audio';
import { encodePcm16Le, quantizeToInt16 } from './pcm16';
import { encodeWav, encodeWavHeader } from './wav-encode';

type Shape = { WaveFile: typeof wavefileModule.WaveFile };
const WaveFile = (wavefileModule as unknown as Shape).WaveFile ?? (wavefileModule as unknown as { default: Shape }).default.WaveFile;

/** Speech-like PCM: a decaying chirp of both signs with a few overs, deterministic. */
function testPcm(numSamples: number): Float32Array {
  return Float32Array.from({ length: numSamples }, (_, i) => Math.sin(i * 0.013 + (i * i) / 5e5) * (0.2 + 0.9 * Math.exp(-i / 3000)) * (i % 997 === 0 ? 1.4 : 1));
}

describe('encodeWav (the one WAV writer)', () => {
  it('rounds every sample by one rule for both signs: round(clamp(x, -1, 1) · 32767), NaN to 0', () => {
    // -0.5 · 32767 = -16383.5 → -16383 (Math.round rounds halves up); -1 → -32767, never -32768
    const pcm = Float32Array.from([0, 0.5, -0.5, 1, -1, 2, -2, 1e-5, -1e-5, NaN]);
    expect(Array.from(quantizeToInt16(pcm))).toEqual([0, 16384, -16383, 32767, -32767, 32767, -32767, 0, 0, 0]);
    const samples = new DataView(encodeWav(pcm, 24_000, 'pcm16').buffer);
    expect(Array.from(pcm, (_, i) => samples.getInt16(44 + 2 * i, true))).toEqual(Array.from(quantizeToInt16(pcm)));
  });

  it('writes for 16-bit PCM the bytes wavefile writes for the same samples (the goldens\' writer until issue 36)', () => {
    const pcm = testPcm(4801);
    const reference = new WaveFile();
    reference.fromScratch(1, 24_000, '16', Array.from(pcm, (x) => Math.round(Math.max(-1, Math.min(1, x)) * 32767)));
    expect(Buffer.from(encodeWav(pcm, 24_000, 'pcm16')).equals(Buffer.from(reference.toBuffer()))).toBe(true);
  });

  it('writes 32-bit float with cbSize 0, a fact chunk holding the sample count, and the samples unchanged', () => {
    const pcm = Float32Array.from([0.5, -0.5, 0.25, 0, 1.5]);
    const bytes = encodeWav(pcm, 48_000, 'float32');
    const v = new DataView(bytes.buffer);
    const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
    expect([text(12), v.getUint32(16, true), v.getUint16(20, true), v.getUint32(28, true), v.getUint16(36, true)]).toEqual(['fmt ', 18, 3, 192_000, 0]);
    expect([text(38), v.getUint32(42, true), v.getUint32(46, true)]).toEqual(['fact', 4, 5]);
    // RIFF size: 58-byte header + 5 × 4 data bytes - 8
    expect([text(50), v.getUint32(54, true), v.getUint32(4, true)]).toEqual(['data', 20, 70]);
    expect(Array.from(pcm, (_, i) => v.getFloat32(58 + 4 * i, true))).toEqual(Array.from(pcm));
  });

  it('writes a streaming header with unknown sizes, and otherwise the header of the whole file', () => {
    const open = new DataView(encodeWavHeader(24_000, 'pcm16', null).buffer);
    expect([open.getUint32(4, true), open.getUint32(40, true)]).toEqual([0xffffffff, 0xffffffff]);
    const pcm = testPcm(100);
    expect(Array.from(encodeWavHeader(24_000, 'pcm16', 100))).toEqual(Array.from(encodeWav(pcm, 24_000, 'pcm16').subarray(0, 44)));
    expect(Array.from(encodeWavHeader(24_000, 'float32', 100))).toEqual(Array.from(encodeWav(pcm, 24_000, 'float32').subarray(0, 58)));
  });

  it('refuses a sample rate a WAV header cannot state, naming it', () => {
    expect(() => encodeWav(new Float32Array(4), 0, 'pcm16')).toThrow(/sampleRateHz is 0/);
    expect(() => encodeWavHeader(24_000.5, 'float32', 4)).toThrow(/sampleRateHz is 24000.5/);
  });

  it('is what the HTTP API (wav and pcm) and the renderer\'s export write, byte for byte', async () => {
    const pcm = testPcm(24_000);
    const wav = encodeWav(pcm, 24_000, 'pcm16');
    const api = await encodeAudio({ pcm, sampleRateHz: 24_000, format: 'wav' });
    expect(Buffer.from(api.bytes).equals(Buffer.from(wav))).toBe(true);
    const raw = await encodeAudio({ pcm, sampleRateHz: 24_000, format: 'pcm' });
    expect(Buffer.from(raw.bytes).equals(Buffer.from(wav.subarray(44)))).toBe(true);
    expect(Buffer.from(encodePcm16Le(pcm)).equals(Buffer.from(wav.subarray(44)))).toBe(true);
    expect(Buffer.from(encodeRendererWav(pcm, 24_000, 'pcm16')).equals(Buffer.from(wav))).toBe(true);
    expect(Buffer.from(encodeRendererWav(pcm, 24_000, 'float32')).equals(Buffer.from(encodeWav(pcm, 24_000, 'float32')))).toBe(true);
  });
});
