import { describe, expect, it } from 'vitest';
import { harmonicTone, referenceTruePeak, sine } from './dsp-test-helpers';
import { applyGainDb } from './gain';
import { measureIntegratedLoudness } from './loudness';
import { normalizeLoudness } from './normalize-loudness';
import { measureTruePeakDbtp } from './true-peak';

const RATE_HZ = 24000;

/** A quiet speech-like tone with one 20 ms burst at 0.4 × the rate whose crests fall 1/8 sample off the samples: the burst sets the true peak. */
function quietToneWithBurst(rateHz: number): Float32Array {
  const x = harmonicTone(150, rateHz, 1, 0.02);
  const burstLength = Math.round(0.02 * rateHz);
  const at = Math.round(0.5 * rateHz);
  for (let i = 0; i < burstLength; i++) {
    const envelope = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / burstLength);
    x[at + i] += 0.3 * envelope * Math.cos(2 * Math.PI * 0.4 * (i - 1 / 8));
  }
  return x;
}

describe('normalizeLoudness', () => {
  it.each([-16, -23])('brings speech-like audio to %i LUFS within 0.1 LU', (targetLufs) => {
    const x = harmonicTone(150, RATE_HZ, 6, 0.05);
    const result = normalizeLoudness(x, RATE_HZ, { targetLufs, truePeakCeilingDbtp: -1 });
    expect(result.limitedByTruePeak).toBe(false);
    expect(Math.abs(measureIntegratedLoudness(result.pcm, RATE_HZ) - targetLufs)).toBeLessThan(0.1);
    expect(Math.abs((result.finalLufs ?? 0) - targetLufs)).toBeLessThan(0.1);
    expect(result.appliedGainDb).toBeCloseTo(targetLufs - (result.measuredLufs ?? 0), 9);
  });

  it('lowers the gain so that the true peak stays under the ceiling, and says so', () => {
    // Quiet tone plus rare clicks: high crest factor, so -16 LUFS would push the clicks past -1 dBTP.
    const x = harmonicTone(150, RATE_HZ, 6, 0.02);
    for (let i = RATE_HZ; i < x.length; i += RATE_HZ) x[i] = 0.5;
    const result = normalizeLoudness(x, RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    expect(result.limitedByTruePeak).toBe(true);
    expect(measureTruePeakDbtp(result.pcm, RATE_HZ)).toBeLessThanOrEqual(-1);
    expect(result.finalTruePeakDbtp!).toBeLessThanOrEqual(-1);
    expect(result.finalLufs!).toBeLessThan(-16);
    let samplePeak = 0;
    for (const v of result.pcm) samplePeak = Math.max(samplePeak, Math.abs(v));
    expect(20 * Math.log10(samplePeak)).toBeLessThanOrEqual(-1);
  });

  it.each([24000, 44100, 48000])('keeps the output under a -1 dBTP ceiling as a slow 32× reference measures it, where the ceiling sets the gain (%i Hz)', (rateHz) => {
    // The old 4× meter read this burst 0.4 dB low, so the file measured about -0.6 dBTP elsewhere.
    const result = normalizeLoudness(quietToneWithBurst(rateHz), rateHz, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    expect(result.limitedByTruePeak).toBe(true);
    const burst = result.pcm.subarray(Math.round(0.45 * rateHz), Math.round(0.6 * rateHz)); // the peak is in the burst
    const referenceDbtp = 20 * Math.log10(referenceTruePeak(burst));
    expect(referenceDbtp).toBeLessThanOrEqual(-1);
    expect(referenceDbtp).toBeGreaterThan(-1.05); // and the gain was not given away
    expect(Math.abs(result.finalTruePeakDbtp! - referenceDbtp)).toBeLessThan(0.02);
  });

  it('warns with the shortfall in LU when the ceiling holds the recording under the target, and not when it is met', () => {
    const limited = normalizeLoudness(quietToneWithBurst(RATE_HZ), RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    const shortfall = -16 - limited.finalLufs!;
    expect(shortfall).toBeGreaterThan(1);
    expect(limited.shortfallLu).toBeCloseTo(shortfall, 9);
    expect(limited.warning).toContain(`loudness target missed: the recording reaches ${limited.finalLufs!.toFixed(1)} LUFS, ${shortfall.toFixed(1)} LU below the -16 LUFS target`);
    expect(limited.warning).toMatch(/the -1 dBTP true-peak ceiling held the gain to [+-]\d+\.\d dB .*lower the target, raise the ceiling/);
    const met = normalizeLoudness(harmonicTone(150, RATE_HZ, 2, 0.05), RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 });
    expect(met).toMatchObject({ limitedByTruePeak: false, shortfallLu: 0, warning: null });
    expect(normalizeLoudness(new Float32Array(RATE_HZ), RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 })).toMatchObject({ shortfallLu: 0, warning: null });
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
