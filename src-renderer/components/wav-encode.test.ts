// WAV export encoding: header fields and sample values against a hand-written reference.
import { describe, expect, it } from 'vitest';
import { encodeWav } from './wav-encode';

function header(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
  return { riff: text(0), riffSize: v.getUint32(4, true), wave: text(8), fmt: text(12), format: v.getUint16(20, true), channels: v.getUint16(22, true), rate: v.getUint32(24, true), byteRate: v.getUint32(28, true), align: v.getUint16(32, true), bits: v.getUint16(34, true), data: text(36), dataSize: v.getUint32(40, true), v };
}

describe('encodeWav', () => {
  it('writes a 16-bit mono header and clipped, rounded samples', () => {
    const bytes = encodeWav(new Float32Array([0, 1, -1, 2, 0.5]), 24_000, 'pcm16');
    const h = header(bytes);
    expect([h.riff, h.wave, h.fmt, h.data]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    // 5 samples × 2 bytes = 10 data bytes; RIFF size = 36 + 10
    expect([h.format, h.channels, h.rate, h.byteRate, h.align, h.bits, h.dataSize, h.riffSize]).toEqual([1, 1, 24_000, 48_000, 2, 16, 10, 46]);
    const samples = [0, 1, 2, 3, 4].map((i) => h.v.getInt16(44 + 2 * i, true));
    // 0.5 × 32767 = 16383.5 → rounds to 16384; 2 clips to 32767; -1 → -32767 (one rule for both signs, pcm16.ts)
    expect(samples).toEqual([0, 32767, -32767, 32767, 16384]);
  });

  it('writes 32-bit float with the 18-byte fmt chunk (cbSize 0), a fact chunk and samples unchanged', () => {
    const pcm = new Float32Array([0.25, -0.75, 1.5]);
    const bytes = encodeWav(pcm, 48_000, 'float32');
    const h = header(bytes);
    const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
    expect([h.riff, h.wave, h.fmt]).toEqual(['RIFF', 'WAVE', 'fmt ']);
    expect(h.v.getUint32(16, true)).toBe(18); // fmt chunk size
    expect([h.format, h.channels, h.rate, h.byteRate, h.align, h.bits]).toEqual([3, 1, 48_000, 192_000, 4, 32]);
    expect(h.v.getUint16(36, true)).toBe(0); // cbSize
    expect([text(38), h.v.getUint32(42, true), h.v.getUint32(46, true)]).toEqual(['fact', 4, 3]); // 3 samples
    expect([text(50), h.v.getUint32(54, true)]).toEqual(['data', 12]);
    // RIFF size: everything after the first 8 bytes (58-byte header + 12 data bytes - 8)
    expect(h.riffSize).toBe(bytes.length - 8);
    expect(bytes.length).toBe(58 + 12);
    expect([0, 1, 2].map((i) => h.v.getFloat32(58 + 4 * i, true))).toEqual([0.25, -0.75, 1.5]);
  });
});
