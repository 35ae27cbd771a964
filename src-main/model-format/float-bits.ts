/**
 * Bit-level conversions between float32 and the 16-bit float formats the checkpoints and graphs use
 * (IEEE half, bfloat16). Pure TypeScript, no I/O; round-to-nearest-even on the way down so that
 * converted weights match what numpy/torch would store.
 */

const scratchF32 = new Float32Array(1);
const scratchU32 = new Uint32Array(scratchF32.buffer);

/** bfloat16 bits → float32 values (exact: bf16 is the top half of a float32). */
export function bfloat16BitsToFloat32(bits: Uint16Array, out = new Float32Array(bits.length)): Float32Array {
  const outBits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < bits.length; i++) outBits[i] = bits[i] << 16;
  return out;
}

/** float32 → bfloat16 bits, round to nearest even; NaN stays NaN. */
export function float32ToBfloat16Bits(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const inBits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; i++) {
    const x = inBits[i];
    if ((x & 0x7f800000) === 0x7f800000 && (x & 0x007fffff) !== 0) {
      out[i] = (x >>> 16) | 0x0040;
      continue;
    }
    const roundingBias = 0x7fff + ((x >>> 16) & 1);
    out[i] = ((x + roundingBias) >>> 16) & 0xffff;
  }
  return out;
}

/** IEEE half bits → float32 values (exact). */
export function float16BitsToFloat32(bits: Uint16Array, out = new Float32Array(bits.length)): Float32Array {
  for (let i = 0; i < bits.length; i++) out[i] = halfToFloat(bits[i]);
  return out;
}

/** float32 → IEEE half bits, round to nearest even, overflow to ±Inf, subnormals kept. */
export function float32ToFloat16Bits(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  for (let i = 0; i < values.length; i++) out[i] = floatToHalf(values[i]);
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function floatToHalf(value: number): number {
  scratchF32[0] = value;
  const x = scratchU32[0];
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    mantissa |= 0x800000; // implicit leading one
    const shift = 14 - halfExponent;
    const halfMantissa = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const roundUp = remainder > halfway || (remainder === halfway && (halfMantissa & 1) === 1);
    return sign | (halfMantissa + (roundUp ? 1 : 0));
  }
  const halfMantissa = mantissa >>> 13;
  const remainder = mantissa & 0x1fff;
  const roundUp = remainder > 0x1000 || (remainder === 0x1000 && (halfMantissa & 1) === 1);
  // a carry out of the mantissa bumps the exponent, which is the right result (up to Inf)
  return (sign | (halfExponent << 10) | halfMantissa) + (roundUp ? 1 : 0);
}
