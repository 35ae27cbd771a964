import { describe, expect, it } from 'vitest';
import { estimatePitchHz, harmonicTone, sine } from './dsp-test-helpers';
import { resample } from './resample';

const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);

describe('resample', () => {
  it('converts 48 kHz to 24 kHz keeping frequency and level', () => {
    const out = resample(harmonicTone(220, 48000, 1, 0.3, 4), 48000, 24000);
    expect(out.length).toBe(24000);
    expect(Math.abs(estimatePitchHz(out, 24000) - 220) / 220).toBeLessThan(0.005);
    const tone = resample(sine(1000, 48000, 1, 0.5), 48000, 24000);
    expect(rms(tone.subarray(1000, 23000))).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it('removes content above the new Nyquist instead of aliasing it', () => {
    const out = resample(sine(15000, 48000, 1, 0.5), 48000, 24000); // 15 kHz would alias to 9 kHz
    expect(20 * Math.log10(rms(out.subarray(1000, 23000)) / (0.5 / Math.SQRT2))).toBeLessThan(-40);
  });

  it('upsamples 22.05 kHz to 24 kHz with the expected length', () => {
    const out = resample(sine(440, 22050, 2, 0.5), 22050, 24000);
    expect(out.length).toBe(Math.round((2 * 22050 * 24000) / 22050));
    expect(Math.abs(estimatePitchHz(out, 24000) - 440) / 440).toBeLessThan(0.005);
  });
});
