// WAV bytes: 16-bit rounding and clamping, and the header fields of both formats.
import { describe, expect, it } from 'vitest';
import { encodeWavBytes, floatToPcm16 } from './wav-bytes';

describe('wav bytes', () => {
  it('rounds to nearest and clamps to [-1, 1] for 16-bit PCM', () => {
    // 0.5 · 32767 = 16383.5 → 16384; -2 clamps to -1 → -32767
    expect(Array.from(floatToPcm16(Float32Array.from([0, 0.5, 1, -2, 1.5])))).toEqual([0, 16384, 32767, -32767, 32767]);
  });

  it('writes a 44-byte header plus 2 bytes per sample for pcm16 and 4 for float32', () => {
    const pcm = new Float32Array(100);
    const pcm16 = encodeWavBytes(pcm, 24000, 'pcm16');
    const f32 = encodeWavBytes(pcm, 24000, 'float32');
    const view16 = new DataView(pcm16.buffer, pcm16.byteOffset);
    expect(pcm16.length).toBe(44 + 200);
    expect(view16.getUint16(20, true)).toBe(1); // WAVE_FORMAT_PCM
    expect(view16.getUint32(24, true)).toBe(24000);
    expect(view16.getUint16(34, true)).toBe(16);
    const viewF = new DataView(f32.buffer, f32.byteOffset);
    expect(viewF.getUint16(20, true)).toBe(3); // WAVE_FORMAT_IEEE_FLOAT
    expect(viewF.getUint16(34, true)).toBe(32);
    expect(f32.length).toBeGreaterThanOrEqual(44 + 400);
  });
});
