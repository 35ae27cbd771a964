import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { estimatePitchHz, harmonicTone } from './dsp-test-helpers';
import { pitchShift } from './pitch-shift';
import { timeStretch } from './time-stretch';

const RATE_HZ = 24000;

describe('timeStretch (WSOLA)', () => {
  const tone = harmonicTone(180, RATE_HZ, 2);

  it.each([0.5, 0.8, 1.2, 1.5, 2])('makes a %s× rate last 1/rate as long, within 1 %%, at the same pitch', (rate) => {
    const out = timeStretch(tone, RATE_HZ, rate);
    const targetSamples = tone.length / rate;
    expect(Math.abs(out.length - targetSamples) / targetSamples).toBeLessThan(0.01);
    const pitch = estimatePitchHz(out, RATE_HZ);
    expect(Math.abs(pitch - 180) / 180).toBeLessThan(0.02);
  });

  it('keeps the level of a steady tone (no phasing dips from misaligned frames)', () => {
    const out = timeStretch(tone, RATE_HZ, 1.3);
    const rms = (x: Float32Array, a: number, b: number) => Math.sqrt(x.subarray(a, b).reduce((s, v) => s + v * v, 0) / (b - a));
    const inRms = rms(tone, 4800, 43200);
    for (let start = 2400; start + 2400 < out.length - 2400; start += 2400) {
      expect(Math.abs(20 * Math.log10(rms(out, start, start + 2400) / inRms))).toBeLessThan(1);
    }
  });

  it('moves an onset to onset/rate', () => {
    const x = new Float32Array(RATE_HZ * 2);
    x.set(harmonicTone(200, RATE_HZ, 0.5), RATE_HZ); // silence for 1 s, then 0.5 s of tone
    const out = timeStretch(x, RATE_HZ, 1.25);
    const onset = out.findIndex((v) => Math.abs(v) > 0.01);
    expect(Math.abs(onset - RATE_HZ / 1.25)).toBeLessThan(0.03 * RATE_HZ); // within one 30 ms frame
  });

  it('returns a copy for rate 1 and rejects rates outside 0.25-4', () => {
    const out = timeStretch(tone, RATE_HZ, 1);
    expect(out).toEqual(tone);
    expect(out).not.toBe(tone);
    expect(() => timeStretch(tone, RATE_HZ, 5)).toThrow(StudioError);
    expect(() => timeStretch(tone, RATE_HZ, Number.NaN)).toThrow(/rate is NaN/);
  });
});

describe('pitchShift', () => {
  const tone = harmonicTone(160, RATE_HZ, 1.5);

  it.each([-7, -2, 1, 3, 7, 12])('shifts pitch by %s semitones within 2 %% and keeps the length', (st) => {
    const out = pitchShift(tone, RATE_HZ, st);
    expect(out.length).toBe(tone.length);
    const expected = 160 * 2 ** (st / 12);
    expect(Math.abs(estimatePitchHz(out, RATE_HZ) - expected) / expected).toBeLessThan(0.02);
  });

  it('rejects shifts beyond an octave', () => {
    expect(() => pitchShift(tone, RATE_HZ, 13)).toThrow(/pitchSemitones is 13/);
  });
});
