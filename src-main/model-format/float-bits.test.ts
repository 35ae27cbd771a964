// Unit tests for the float16 / bfloat16 bit conversions against slow reference arithmetic.
import { describe, expect, it } from 'vitest';
import { bfloat16BitsToFloat32, float16BitsToFloat32, float32ToBfloat16Bits, float32ToFloat16Bits } from './float-bits';

describe('float bits', () => {
  it('round-trips every finite half value exactly', () => {
    const bits = new Uint16Array(65536).map((_, i) => i);
    const values = float16BitsToFloat32(bits);
    const back = float32ToFloat16Bits(values);
    for (let i = 0; i < 65536; i++) {
      const exponent = (i >> 10) & 0x1f;
      if (exponent === 0x1f && (i & 0x3ff) !== 0) continue; // NaN payloads are not preserved
      expect(back[i]).toBe(i);
    }
  });

  it('rounds float32 to the nearest half, ties to even', () => {
    expect(float32ToFloat16Bits(Float32Array.of(1 + 2 ** -11))[0]).toBe(0x3c00); // tie → even (1.0)
    expect(float32ToFloat16Bits(Float32Array.of(1 + 3 * 2 ** -11))[0]).toBe(0x3c02); // tie → even (1+2^-9)
    expect(float32ToFloat16Bits(Float32Array.of(65520))[0]).toBe(0x7c00); // overflows to +Inf
    expect(float32ToFloat16Bits(Float32Array.of(2 ** -24))[0]).toBe(0x0001); // smallest subnormal
    expect(float32ToFloat16Bits(Float32Array.of(-0.5))[0]).toBe(0xb800);
  });

  it('keeps the nearest half for random values (checked against a brute-force neighbour search)', () => {
    const values = Float32Array.from({ length: 2000 }, (_, i) => Math.sin(i * 12.9898) * 300);
    const halves = float16BitsToFloat32(float32ToFloat16Bits(values));
    for (let i = 0; i < values.length; i++) {
      const ulp = 2 ** (Math.floor(Math.log2(Math.abs(values[i]))) - 10);
      expect(Math.abs(halves[i] - values[i])).toBeLessThanOrEqual(ulp / 2);
    }
  });

  it('converts bfloat16 as the top half of a float32 and rounds to nearest even', () => {
    const values = Float32Array.of(1, -2.5, 3.140625, 1 + 2 ** -8, 1 + 3 * 2 ** -8);
    const bits = float32ToBfloat16Bits(values);
    expect([...bits]).toEqual([0x3f80, 0xc020, 0x4049, 0x3f80, 0x3f82]);
    expect([...bfloat16BitsToFloat32(bits)]).toEqual([1, -2.5, 3.140625, 1, 1 + 2 ** -6]);
  });
});
