/**
 * The live gain a stream plays at: from the first chunk on it is the target minus the loudness of
 * the audio so far, capped by the true peak seen so far (minus a margin) and by ±24 dB; silence
 * gives no estimate; a louder peak arriving later lowers it at once.
 */
import { describe, expect, it } from 'vitest';
import { measureIntegratedLoudness } from '../../src-main/audio/loudness';
import { normalizeLoudness } from '../../src-main/audio/normalize-loudness';
import { StreamGainPredictor, STREAM_PEAK_MARGIN_DB } from './stream-gain';

const RATE = 24000;
const target = { targetLufs: -16, truePeakCeilingDbtp: -1 };

function speechLike(seconds: number, amplitude: number, seed = 1): Float32Array {
  let s = seed;
  const pcm = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < pcm.length; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * 3 * i) / RATE); // syllable-rate envelope
    pcm[i] = amplitude * envelope * (Math.sin((2 * Math.PI * 180 * i) / RATE) + 0.3 * (s / 2 ** 31 - 0.5));
  }
  return pcm;
}

function stream(pcm: Float32Array, chunkSamples: number, predictor: StreamGainPredictor): number[] {
  const estimates: number[] = [];
  for (let at = 0; at < pcm.length; at += chunkSamples) {
    const next = predictor.add(pcm.subarray(at, at + chunkSamples));
    if (next !== null) estimates.push(next);
  }
  return estimates;
}

describe('StreamGainPredictor', () => {
  it('ends within 0.5 dB of the gain the final clip gets (steady speech)', () => {
    const pcm = speechLike(6, 0.05);
    const predictor = new StreamGainPredictor(target, RATE);
    const estimates = stream(pcm, 1920, predictor); // 80 ms chunks
    const final = normalizeLoudness(pcm, RATE, target);
    expect(estimates.length).toBeGreaterThan(1);
    expect(Math.abs(estimates[0] - final.appliedGainDb)).toBeLessThan(3); // the first 80 ms alone
    expect(Math.abs(predictor.gainDb! - final.appliedGainDb)).toBeLessThan(0.5);
    expect(measureIntegratedLoudness(pcm.map((x) => x * 10 ** (predictor.gainDb! / 20)), RATE)).toBeCloseTo(-16, 0);
  });

  it('keeps the true peak seen so far under the ceiling minus the margin', () => {
    const pcm = speechLike(3, 0.05);
    pcm[RATE * 2] = 0.9; // a spike two seconds in
    const predictor = new StreamGainPredictor(target, RATE);
    const estimates = stream(pcm, 2400, predictor);
    const gain = predictor.gainDb!;
    expect(20 * Math.log10(0.9) + gain).toBeLessThanOrEqual(target.truePeakCeilingDbtp - STREAM_PEAK_MARGIN_DB + 0.01);
    expect(estimates.at(-1)).toBe(gain);
    expect(Math.max(...estimates)).toBeGreaterThan(gain); // it was higher before the spike
  });

  it('gives no estimate for silence, and at most +24 dB for near-silence', () => {
    const silent = new StreamGainPredictor(target, RATE);
    expect(silent.add(new Float32Array(4800))).toBeNull();
    expect(silent.gainDb).toBeNull();
    const faint = new StreamGainPredictor(target, RATE);
    expect(faint.add(speechLike(0.5, 0.003))).toBe(24);
  });
});
