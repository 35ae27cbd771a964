// Unit tests for the slow reference decoder: output shape, range, causality, batch independence, ops.
import { describe, expect, it } from 'vitest';
import { parseCodecConfig } from './codec-config';
import { createCodecCodes, type CodecCodes } from '../../model-format/codec/codec-codes';
import { referenceCodecDecode } from './reference-codec';
import { causalConv1d, causalConvTranspose1d, erf, snakeBeta } from './reference-codec-ops';
import { syntheticCodecConfig, syntheticCodecTensors } from './synthetic-codec';

const config = parseCodecConfig(syntheticCodecConfig('tiny'));
const tensors = new Map([...syntheticCodecTensors('tiny', 11)].map((t) => [t.name, t]));
const SAMPLES_PER_FRAME = 1920;

function randomCodes(batchSize: number, numFrames: number, salt: number): CodecCodes {
  return createCodecCodes(Array.from({ length: batchSize * 16 * numFrames }, (_, i) => (i * 7919 + salt * 104729) % 2048), batchSize, 16, numFrames);
}

describe('referenceCodecDecode', () => {
  it('turns T frames into T · 1920 finite samples inside [-1, 1] that are not silent', () => {
    const pcm = referenceCodecDecode(randomCodes(1, 5, 1), tensors, config);
    expect(pcm.length).toBe(5 * SAMPLES_PER_FRAME);
    let sumSquares = 0;
    for (const v of pcm) {
      expect(Math.abs(v)).toBeLessThanOrEqual(1);
      sumSquares += v * v;
    }
    const rms = Math.sqrt(sumSquares / pcm.length);
    expect(rms).toBeGreaterThan(0.05);
    expect(rms).toBeLessThan(0.7);
  });

  it('is causal: changing frame 3 leaves every sample before 3 · 1920 unchanged and changes later ones', () => {
    const a = randomCodes(1, 5, 2);
    const b = { ...a, data: a.data.slice() };
    for (let q = 0; q < 16; q++) b.data[q * 5 + 3] = (b.data[q * 5 + 3] + 1000n) % 2048n;
    const pa = referenceCodecDecode(a, tensors, config);
    const pb = referenceCodecDecode(b, tensors, config);
    for (let i = 0; i < 3 * SAMPLES_PER_FRAME; i++) expect(pb[i]).toBe(pa[i]);
    let maxDiff = 0;
    for (let i = 3 * SAMPLES_PER_FRAME; i < pa.length; i++) maxDiff = Math.max(maxDiff, Math.abs(pa[i] - pb[i]));
    expect(maxDiff).toBeGreaterThan(1e-3);
  });

  it('decodes each batch row as if it were alone', () => {
    const batch = randomCodes(2, 4, 3);
    const rows = [0, 1].map((b) => ({ ...batch, batchSize: 1, data: batch.data.slice(b * 64, (b + 1) * 64) }));
    const together = referenceCodecDecode(batch, tensors, config);
    const apart = rows.map((r) => referenceCodecDecode(r, tensors, config));
    expect(Array.from(together.subarray(0, 4 * SAMPLES_PER_FRAME))).toEqual(Array.from(apart[0]));
    expect(Array.from(together.subarray(4 * SAMPLES_PER_FRAME))).toEqual(Array.from(apart[1]));
  });

  it('rejects codes outside the codebook, such as the -1 padding', () => {
    const codes = randomCodes(1, 2, 4);
    codes.data[5] = -1n;
    expect(() => referenceCodecDecode(codes, tensors, config)).toThrow(/outside \[0, 2048\)/);
  });
});

describe('reference ops', () => {
  it('causalConv1d pads on the left only, with dilation', () => {
    // one channel, kernel [1, 10, 100] at dilation 2: y[t] = x[t−4] + 10·x[t−2] + 100·x[t]
    const x = { data: Float32Array.from([1, 2, 3, 4, 5]), numChannels: 1, numSteps: 5 };
    const y = causalConv1d(x, Float32Array.from([1, 10, 100]), Float32Array.from([0.5]), 1, 3, 2);
    expect(Array.from(y.data)).toEqual([100.5, 200.5, 310.5, 420.5, 531.5]);
  });

  it('causalConvTranspose1d keeps L·s samples and drops the right tail', () => {
    // x = [1, 2], kernel [1, 2, 3, 4], stride 2: full = [1, 2, 3+2, 4+4, 6, 8] → keep the first 4
    const x = { data: Float32Array.from([1, 2]), numChannels: 1, numSteps: 2 };
    const y = causalConvTranspose1d(x, Float32Array.from([1, 2, 3, 4]), Float32Array.from([0]), 1, 4, 2);
    expect(Array.from(y.data)).toEqual([1, 2, 5, 8]);
  });

  it('snakeBeta with zero log-parameters is x + sin²(x)', () => {
    const x = { data: Float32Array.from([0.5, -2]), numChannels: 1, numSteps: 2 };
    const y = snakeBeta(x, Float32Array.from([0]), Float32Array.from([0]));
    expect(y.data[0]).toBeCloseTo(0.5 + Math.sin(0.5) ** 2, 6);
    expect(y.data[1]).toBeCloseTo(-2 + Math.sin(-2) ** 2, 6);
  });

  it('erf matches tabulated values', () => {
    expect(erf(0)).toBe(0);
    expect(erf(0.5)).toBeCloseTo(0.5204998778, 9);
    expect(erf(-1)).toBeCloseTo(-0.8427007929, 9);
    expect(erf(2.5)).toBeCloseTo(0.9995930480, 9);
    expect(erf(3.5)).toBeCloseTo(0.9999992569, 6);
  });
});
