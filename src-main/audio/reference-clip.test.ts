// Bad and good reference clips for voice cloning: resampled to 24 kHz, silence trimmed, and too
// short / silent → an error naming the fix, clipped / short-but-usable → a warning.
import { describe, expect, it } from 'vitest';
import { MIN_REFERENCE_MS, prepareReferenceClip } from './reference-clip';

function voiced(seconds: number, rateHz: number, amplitude = 0.3): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * rateHz) }, (_, i) => amplitude * Math.sin((2 * Math.PI * 180 * i) / rateHz) * (1 + 0.3 * Math.sin((2 * Math.PI * 3 * i) / rateHz)));
}

function withSilence(core: Float32Array, rateHz: number, seconds: number): Float32Array {
  const pad = Math.round(seconds * rateHz);
  const out = new Float32Array(core.length + 2 * pad);
  out.set(core, pad);
  return out;
}

describe('reference clip', () => {
  it('resamples 44.1 kHz to 24 kHz and trims the silence around the speech', () => {
    const clip = prepareReferenceClip(withSilence(voiced(6, 44100), 44100, 1), 44100);
    expect(clip.sampleRateHz).toBe(24000);
    expect(clip.durationMs).toBeGreaterThan(5950);
    expect(clip.durationMs).toBeLessThan(6050);
    expect(clip.warnings).toEqual([]);
  });

  it('refuses a clip with less than 1 s of sound, naming the length and the fix', () => {
    expect(() => prepareReferenceClip(withSilence(voiced(0.6, 24000), 24000, 2), 24000)).toThrow(/0\.6 s of sound after trimming silence but at least 1 s is needed; give 5–15 s/);
    expect(MIN_REFERENCE_MS).toBe(1000);
  });

  it('refuses a silent or empty clip', () => {
    expect(() => prepareReferenceClip(new Float32Array(48000), 24000)).toThrow(/silent .*check the microphone/);
    expect(() => prepareReferenceClip(voiced(5, 24000, 1e-5), 24000)).toThrow(/silent/);
    expect(() => prepareReferenceClip(new Float32Array(0), 24000)).toThrow(/empty/);
  });

  it('keeps the first 30 s of a long clip, with a warning', () => {
    const clip = prepareReferenceClip(voiced(40, 16000), 16000);
    expect(clip.durationMs).toBe(30_000);
    expect(clip.pcm.length).toBe(30 * 24000);
    expect(clip.warnings.join(' ')).toMatch(/holds 40 s of sound; only its first 30 s are used/);
  });

  it('warns about a clipped clip and a short one, and still prepares them', () => {
    const loud = voiced(5, 24000, 2).map((v) => Math.max(-1, Math.min(1, v)));
    expect(prepareReferenceClip(loud, 24000).warnings.join(' ')).toMatch(/clipped .* lower input gain/);
    expect(prepareReferenceClip(voiced(2, 24000), 24000).warnings.join(' ')).toMatch(/only 2\.0 s long/);
  });
});
