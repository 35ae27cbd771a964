// Reading WAV in two steps: the layout from the RIFF chunks, then frames decoded in slices, which
// must add up to decodeWav's samples exactly for every format it reads (files from wavefile).
import { describe, expect, it } from 'vitest';
import * as wavefileModule from 'wavefile';
import { thrown } from '../../src-shared/testing/thrown';
import { decodeWav } from './wav';
import { encodeWav, encodeWavHeader } from './wav-encode';
import { decodeWavFrames, readWavLayout } from './wav-read';

type Shape = { WaveFile: typeof wavefileModule.WaveFile };
const WaveFile = (wavefileModule as unknown as Shape).WaveFile ?? (wavefileModule as unknown as { default: Shape }).default.WaveFile;

function wavefileBytes(numChannels: number, rateHz: number, bitDepth: string, samples: number[] | number[][]): Uint8Array {
  const w = new WaveFile();
  w.fromScratch(numChannels, rateHz, bitDepth, samples);
  return w.toBuffer();
}

/** Decodes in slices of `sliceFrames`, as the engine host does. */
function decodeInSlices(bytes: Uint8Array, sliceFrames: number): Float32Array {
  const layout = readWavLayout(bytes);
  const out = new Float32Array(layout.numFrames);
  for (let start = 0; start < layout.numFrames; start += sliceFrames) decodeWavFrames(bytes, layout, out, start, Math.min(layout.numFrames, start + sliceFrames));
  return out;
}

describe('readWavLayout / decodeWavFrames', () => {
  const ramp = (n: number, max: number) => Array.from({ length: n }, (_, i) => Math.round(((i * 7919) % (2 * max + 1)) - max));

  it('decodes every format decodeWav reads to the same samples, slice by slice', () => {
    const files: [string, Uint8Array][] = [
      ['8-bit', wavefileBytes(1, 8000, '8', ramp(301, 127).map((v) => v + 128))],
      ['16-bit', wavefileBytes(1, 24000, '16', ramp(301, 32767))],
      ['24-bit stereo', wavefileBytes(2, 48000, '24', [ramp(301, 8388607), ramp(301, 8388607).reverse()])],
      ['32-bit', wavefileBytes(1, 16000, '32', ramp(301, 2147483647))],
      ['32-bit float', wavefileBytes(1, 22050, '32f', ramp(301, 1000).map((v) => v / 997))],
      ['64-bit float stereo', wavefileBytes(2, 44100, '64', [ramp(301, 1000).map((v) => v / 999), ramp(301, 5).map((v) => v / 7)])],
      ['our float32', encodeWav(Float32Array.from(ramp(301, 100), (v) => v / 101), 24000, 'float32')],
    ];
    for (const [name, bytes] of files) {
      const reference = decodeWav(bytes);
      const layout = readWavLayout(bytes);
      expect([layout.numFrames, layout.sampleRateHz, layout.numChannels], name).toEqual([301, reference.sampleRateHz, reference.numChannels]);
      expect(Array.from(decodeInSlices(bytes, 64)), name).toEqual(Array.from(reference.pcm));
    }
  });

  it('walks past other chunks (padded to even sizes) to fmt and data', () => {
    const plain = encodeWav(Float32Array.from([0.5, -0.25, 0.125]), 24000, 'pcm16');
    // RIFF header, then an odd-sized LIST chunk (5 bytes + 1 pad), then the original fmt and data
    const list = Uint8Array.from([...'LIST'].map((c) => c.charCodeAt(0)).concat([5, 0, 0, 0, 1, 2, 3, 4, 5, 0]));
    const bytes = new Uint8Array(plain.length + list.length);
    bytes.set(plain.subarray(0, 12));
    bytes.set(list, 12);
    bytes.set(plain.subarray(12), 12 + list.length);
    expect(readWavLayout(bytes)).toMatchObject({ sampleKind: 'int', bitsPerSample: 16, numFrames: 3, dataOffset: 44 + list.length });
    expect(Array.from(decodeInSlices(bytes, 2))).toEqual(Array.from(decodeWav(plain).pcm));
  });

  it('counts the frames present when the data size is unknown (a streamed WAV) or the file is cut short', () => {
    const samples = encodeWav(new Float32Array(10).fill(0.5), 24000, 'pcm16').subarray(44);
    const streamed = new Uint8Array(44 + samples.length);
    streamed.set(encodeWavHeader(24000, 'pcm16', null));
    streamed.set(samples, 44);
    expect(readWavLayout(streamed).numFrames).toBe(10);
    expect(readWavLayout(streamed.subarray(0, 44 + 7)).numFrames).toBe(3); // 7 bytes: three whole 16-bit frames
  });

  it('refuses a file cut short (its data chunk announces more bytes than follow), naming both sizes', () => {
    const whole = encodeWav(new Float32Array(100).fill(0.25), 24000, 'pcm16'); // data: 100 frames × 2 bytes = 200
    const cut = whole.subarray(0, 44 + 120);
    const err = thrown(() => readWavLayout(cut));
    expect(err).toMatchObject({ code: 'invalid-argument' });
    expect(err.message).toMatch(/cut short.*announces 200 bytes but the file holds 120/);
    expect(readWavLayout(whole).numFrames).toBe(100);
  });

  it('reads WAVE_FORMAT_EXTENSIBLE float by its sub-format', () => {
    const bytes = wavefileBytes(1, 48000, '32f', [0.5, -0.5]);
    // rewrite fmt as extensible: 40-byte fmt with the float sub-format GUID's leading code 3
    const fmt = new Uint8Array(48);
    const v = new DataView(fmt.buffer);
    fmt.set(bytes.subarray(12, 12 + 24));
    v.setUint32(4, 40, true);
    v.setUint16(8, 0xfffe, true);
    v.setUint16(24, 22, true); // cbSize
    v.setUint16(26, 32, true); // valid bits
    v.setUint16(32, 3, true); // sub-format: IEEE float
    const data = bytes.subarray(bytes.length - 16);
    const file = new Uint8Array(12 + fmt.length + data.length);
    file.set(bytes.subarray(0, 12));
    file.set(fmt, 12);
    file.set(data, 12 + fmt.length);
    expect(Array.from(decodeInSlices(file, 1))).toEqual([0.5, -0.5]);
  });

  it('refuses bytes that are not WAV and formats it does not decode, naming the fix', () => {
    expect(() => readWavLayout(new Uint8Array([1, 2, 3, 4]))).toThrow(/not a readable WAV file \(no RIFF\/WAVE header\); export the audio as PCM WAV/);
    expect(() => readWavLayout(encodeWav(new Float32Array(4), 24000, 'pcm16').subarray(0, 36))).toThrow(/no data chunk/);
    const alaw = encodeWav(new Float32Array(4), 24000, 'pcm16');
    new DataView(alaw.buffer).setUint16(20, 6, true); // A-law
    const err = thrown(() => readWavLayout(alaw));
    expect(err.code).toBe('unsupported');
    expect(err.message).toMatch(/use 8\/16\/24\/32-bit integer or 32\/64-bit float PCM/);
  });
});
