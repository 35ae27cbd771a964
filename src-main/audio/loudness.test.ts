import { describe, expect, it } from 'vitest';
import { harmonicTone, referenceLoudness48k, seededRandom, sine } from './dsp-test-helpers';
import { BS1770_HIGHPASS_48K, BS1770_SHELF_48K, designKWeighting, kWeightingPrototypes } from './k-weighting';
import { measureIntegratedLoudness } from './loudness';

describe('K-weighting design', () => {
  it('reproduces the published 48 kHz coefficients from the recovered analog prototypes', () => {
    const [shelf, highpass] = designKWeighting(48000);
    for (const key of ['b0', 'b1', 'b2', 'a1', 'a2'] as const) {
      expect(shelf[key]).toBeCloseTo(BS1770_SHELF_48K[key], 12);
      expect(highpass[key]).toBeCloseTo(BS1770_HIGHPASS_48K[key], 12);
    }
    const { shelf: s, highpass: h } = kWeightingPrototypes();
    expect(s.f0Hz).toBeCloseTo(1681.97, 1); // the shelf's corner, about +4 dB above it
    expect(20 * Math.log10(s.gHigh)).toBeCloseTo(4.0, 1);
    expect(h.f0Hz).toBeCloseTo(38.14, 1); // RLB high-pass corner
  });

  it('designs a different filter at 24 kHz whose response matches 48 kHz below 8 kHz within 0.1 dB', () => {
    const response = (c: { b0: number; b1: number; b2: number; a1: number; a2: number }, f: number, fs: number) => {
      const w = (2 * Math.PI * f) / fs;
      const num = [c.b0 + c.b1 * Math.cos(w) + c.b2 * Math.cos(2 * w), -(c.b1 * Math.sin(w) + c.b2 * Math.sin(2 * w))];
      const den = [1 + c.a1 * Math.cos(w) + c.a2 * Math.cos(2 * w), -(c.a1 * Math.sin(w) + c.a2 * Math.sin(2 * w))];
      return Math.hypot(num[0], num[1]) / Math.hypot(den[0], den[1]);
    };
    const at48 = designKWeighting(48000);
    const at24 = designKWeighting(24000);
    expect(at24[0].a1).not.toBeCloseTo(at48[0].a1, 3);
    for (const f of [20, 50, 100, 500, 1000, 2000, 4000, 8000]) {
      const g48 = 20 * Math.log10(response(at48[0], f, 48000) * response(at48[1], f, 48000));
      const g24 = 20 * Math.log10(response(at24[0], f, 24000) * response(at24[1], f, 24000));
      expect(Math.abs(g48 - g24)).toBeLessThan(0.1);
    }
  });
});

describe('measureIntegratedLoudness', () => {
  it.each([48000, 24000, 44100, 16000])('reads a 1 kHz sine at -20 dBFS as -23.0 LUFS ±0.1 at %i Hz', (rateHz) => {
    expect(Math.abs(measureIntegratedLoudness(sine(1000, rateHz, 10, 0.1), rateHz) - -23)).toBeLessThan(0.1);
  });

  it('gates out silence with the absolute gate', () => {
    const x = new Float32Array(48000 * 20);
    x.set(sine(1000, 48000, 10, 0.1));
    expect(Math.abs(measureIntegratedLoudness(x, 48000) - -23)).toBeLessThan(0.1);
    expect(measureIntegratedLoudness(new Float32Array(48000), 48000)).toBe(-Infinity);
  });

  it('gates out a part 20 LU quieter with the relative gate', () => {
    const x = new Float32Array(48000 * 20);
    x.set(sine(1000, 48000, 10, 0.1));
    x.set(sine(1000, 48000, 10, 0.01), 48000 * 10); // -43 LUFS: below -23 + (-10 relative) after gating
    // Without the relative gate the mean power would give about -25.6 LUFS.
    expect(Math.abs(measureIntegratedLoudness(x, 48000) - -23)).toBeLessThan(0.1);
  });

  it('agrees with a slow independent meter within 0.1 LU on varied signals, at 48 kHz and 24 kHz', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 4; trial++) {
      // The same continuous signal sampled at both rates: a few sines in bursts with levels 0-30 dB apart.
      const parts = Array.from({ length: 4 }, () => ({ f: 80 + random() * 7000, a: 0.02 + random() * 0.3, on: random() * 4, len: 1 + random() * 3 }));
      const render = (fs: number) => {
        const x = new Float32Array(fs * 8);
        for (const p of parts) for (let i = Math.round(p.on * fs); i < Math.min(x.length, Math.round((p.on + p.len) * fs)); i++) x[i] += p.a * Math.sin((2 * Math.PI * p.f * i) / fs);
        return x;
      };
      const reference = referenceLoudness48k(render(48000));
      expect(Math.abs(measureIntegratedLoudness(render(48000), 48000) - reference)).toBeLessThan(0.1);
      expect(Math.abs(measureIntegratedLoudness(render(24000), 24000) - reference)).toBeLessThan(0.1);
    }
  });

  it('measures a clip shorter than one block as a single block', () => {
    const short = harmonicTone(200, 24000, 0.3, 0.2);
    expect(Number.isFinite(measureIntegratedLoudness(short, 24000))).toBe(true);
  });
});
