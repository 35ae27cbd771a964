import { describe, expect, it } from 'vitest';
import { harmonicTone, seededRandom, sine } from './dsp-test-helpers';
import { applyGainDb } from './gain';
import { measureIntegratedLoudness } from './loudness';
import { normalizeLoudness } from './normalize-loudness';
import { measureTruePeak, measureTruePeakDbtp } from './true-peak';

const RATE_HZ = 24000;

/** Brute-force reference: 16× oversampling with a long (64-zero-crossing) windowed sinc. */
function slowTruePeak(x: Float32Array): number {
  let best = 0;
  for (let i = 0; i < x.length; i++) {
    for (let p = 0; p < 16; p++) {
      const t = i + p / 16;
      let acc = 0;
      for (let k = Math.max(0, Math.ceil(t - 64)); k <= Math.min(x.length - 1, Math.floor(t + 64)); k++) {
        const d = t - k;
        acc += x[k] * (d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d)) * (0.5 + 0.5 * Math.cos((Math.PI * d) / 64));
      }
      best = Math.max(best, Math.abs(acc));
    }
  }
  return best;
}

/** A tone with a smooth 20 ms fade-in, so an abrupt start adds no overshoot of its own. */
function faded(x: Float32Array): Float32Array {
  const n = Math.round(0.02 * RATE_HZ);
  for (let i = 0; i < n; i++) {
    const g = 0.5 - 0.5 * Math.cos((Math.PI * i) / n);
    x[i] *= g;
    x[x.length - 1 - i] *= g;
  }
  return x;
}

describe('measureTruePeak', () => {
  it('finds the inter-sample peak of a quarter-rate sine that the samples miss by 3 dB', () => {
    const x = faded(sine(RATE_HZ / 4, RATE_HZ, 0.2, 0.5, Math.PI / 4)); // samples sit at ±0.354
    let samplePeak = 0;
    for (const v of x) samplePeak = Math.max(samplePeak, Math.abs(v));
    expect(20 * Math.log10(samplePeak)).toBeCloseTo(-9.03, 1);
    expect(Math.abs(measureTruePeakDbtp(x) - 20 * Math.log10(0.5))).toBeLessThan(0.2);
  });

  it('agrees with a brute-force 16× reference within 0.2 dB on random speech-band signals', () => {
    // Content up to a quarter of the rate (6 kHz at 24 kHz), where a 4× meter is accurate.
    const random = seededRandom(3);
    for (let trial = 0; trial < 3; trial++) {
      const x = new Float32Array(1200);
      for (let k = 0; k < 8; k++) {
        const f = random() * 0.25;
        const a = random() * 0.2;
        const phase = random() * 2 * Math.PI;
        for (let i = 0; i < x.length; i++) x[i] += a * Math.sin(2 * Math.PI * f * i + phase);
      }
      faded(x);
      expect(Math.abs(20 * Math.log10(measureTruePeak(x) / slowTruePeak(x)))).toBeLessThan(0.2);
    }
  });
});

describe('normalizeLoudness', () => {
  it.each([-16, -23])('brings speech-like audio to %i LUFS within 0.1 LU', (targetLufs) => {
    const x = harmonicTone(150, RATE_HZ, 6, 0.05);
    const result = normalizeLoudness(x, RATE_HZ, { targetLufs, truePeakCeilingDbtp: -1 });
    expect(result.limitedByTruePeak).toBe(false);
    expect(Math.abs(measureIntegratedLoudness(result.pcm, RATE_HZ) - targetLufs)).toBeLessThan(0.1);
    expect(Math.abs((result.finalLufs ?? 0) - targetLufs)).toBeLessThan(0.1);
    expect(result.appliedGainDb).toBeCloseTo(targetLufs - (result.measuredLufs ?? 0), 9);
  });

  it('lowers the gain so that no 4×-oversampled sample exceeds the ceiling, and says so', () => {
    // Quiet tone plus rare clicks: high crest factor, so -16 LUFS would push the clicks past -1 dBTP.
    const x = harmonicTone(150, RATE_HZ, 6, 0.02);
    for (let i = RATE_HZ; i < x.length; i += RATE_HZ) x[i] = 0.5;
    const result = normalizeLoudness(x, RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    expect(result.limitedByTruePeak).toBe(true);
    expect(measureTruePeakDbtp(result.pcm)).toBeLessThanOrEqual(-1);
    expect(result.finalTruePeakDbtp!).toBeLessThanOrEqual(-1);
    expect(result.finalLufs!).toBeLessThan(-16);
    let samplePeak = 0;
    for (const v of result.pcm) samplePeak = Math.max(samplePeak, Math.abs(v));
    expect(20 * Math.log10(samplePeak)).toBeLessThanOrEqual(-1);
  });

  it('leaves silence alone and reports null loudness', () => {
    const result = normalizeLoudness(new Float32Array(RATE_HZ), RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    expect(result).toMatchObject({ measuredLufs: null, finalLufs: null, appliedGainDb: 0 });
  });

  it('rejects targets outside the documented ranges', () => {
    expect(() => normalizeLoudness(new Float32Array(10), RATE_HZ, { targetLufs: 0, truePeakCeilingDbtp: -1 })).toThrow(/targetLufs is 0/);
    expect(() => normalizeLoudness(new Float32Array(10), RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: 3 })).toThrow(/truePeakCeilingDbtp is 3/);
  });
});

describe('applyGainDb', () => {
  it('multiplies every sample by exactly 10^(gainDb/20)', () => {
    const x = new Float32Array([0, 0.1, -0.25, 0.5, -1]);
    const out = applyGainDb(x, -6);
    const g = 10 ** (-6 / 20);
    expect(Array.from(out)).toEqual(Array.from(x, (v) => Math.fround(v * g)));
    expect(applyGainDb(x, 0)).toEqual(x);
  });
});

describe('normalizeLoudness with broken samples', () => {
  it('fails with the sample index and time when one sample is NaN, instead of passing it through', () => {
    const pcm = sine(440, RATE_HZ, 1, 0.25);
    pcm[12_000] = Number.NaN;
    expect(() => normalizeLoudness(pcm, RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 })).toThrowError(/sample 12000 \(at 500 ms\) is NaN before loudness normalisation/);
    pcm[12_000] = Number.POSITIVE_INFINITY;
    expect(() => normalizeLoudness(pcm, RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 })).toThrowError(/is Infinity/);
  });
});
