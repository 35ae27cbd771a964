// The speaker encoder's log-mel front end against published values (Slaney mel scale anchors, the
// periodic Hann window's DFT of a bin-centred tone: N/4 at the bin, N/8 beside it) and against a
// second implementation (a direct O(N²) DFT and a direct filterbank sum).
import { describe, expect, it } from 'vitest';
import { fftInPlace, hzToMel, logMelSpectrogram, magnitudeSpectrogram, melFilterbank, melToHz, periodicHann, speakerEncoderMelParams } from './mel-spectrogram';

const P = speakerEncoderMelParams();
const NUM_BINS = P.nFft / 2 + 1;
const BIN_HZ = P.sampleRateHz / P.nFft; // 23.4375 Hz

function tone(frequencyHz: number, amplitude: number, numSamples: number): Float32Array {
  return Float32Array.from({ length: numSamples }, (_, i) => amplitude * Math.sin((2 * Math.PI * frequencyHz * i) / P.sampleRateHz));
}

describe('mel spectrogram (speaker encoder front end)', () => {
  it('uses the official parameters: 24 kHz, FFT 1024, hop 256, Hann 1024, 128 mels over 0–12 kHz', () => {
    expect(P).toEqual({ sampleRateHz: 24000, nFft: 1024, hopSamples: 256, windowSamples: 1024, numMels: 128, fminHz: 0, fmaxHz: 12000 });
  });

  it('follows the Slaney mel scale: 1 kHz = 15 mel, 6.4 kHz = 42 mel, linear below 1 kHz', () => {
    expect(hzToMel(1000)).toBeCloseTo(15, 12);
    expect(hzToMel(6400)).toBeCloseTo(42, 12);
    expect(hzToMel(500)).toBeCloseTo(7.5, 12);
    for (const hz of [0, 123, 999, 1000, 4321, 12000]) expect(melToHz(hzToMel(hz))).toBeCloseTo(hz, 9);
  });

  it('normalises each filter to unit area in Hz (Slaney), checked where filters span many bins', () => {
    const filters = melFilterbank(P);
    for (let m = 100; m < P.numMels; m++) {
      let area = 0;
      for (let k = 0; k < NUM_BINS; k++) area += filters[m * NUM_BINS + k] * BIN_HZ;
      expect(area, `band ${m}`).toBeGreaterThan(0.97);
      expect(area, `band ${m}`).toBeLessThan(1.03);
    }
  });

  it('matches a direct DFT on noise within 1e-9', () => {
    const n = 1024;
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898) * 43758.5453 % 1);
    const re = Float64Array.from(x);
    const im = new Float64Array(n);
    fftInPlace(re, im);
    let maxDiff = 0;
    for (const k of [0, 1, 17, 128, 511, 512]) {
      let dr = 0;
      let di = 0;
      for (let t = 0; t < n; t++) {
        dr += x[t] * Math.cos((2 * Math.PI * k * t) / n);
        di -= x[t] * Math.sin((2 * Math.PI * k * t) / n);
      }
      maxDiff = Math.max(maxDiff, Math.abs(dr - re[k]), Math.abs(di - im[k]));
    }
    expect(maxDiff).toBeLessThan(1e-9);
  });

  it("puts a bin-centred tone's energy in its bin (A·N/4) and the two beside it (A·N/8), as the periodic Hann DFT says", () => {
    const amplitude = 0.5;
    const { data, numFrames } = magnitudeSpectrogram(tone(128 * BIN_HZ, amplitude, 24000), P); // 3 kHz = bin 128
    // 24,000 + 2 × 384 reflect padding = 24,768 samples → 1 + ⌊(24,768 − 1,024) / 256⌋ = 93 frames
    expect(numFrames).toBe(93);
    const row = data.subarray(40 * NUM_BINS, 41 * NUM_BINS); // an interior frame
    expect(row[128]).toBeCloseTo((amplitude * P.nFft) / 4, 3);
    expect(row[127]).toBeCloseTo((amplitude * P.nFft) / 8, 3);
    expect(row[129]).toBeCloseTo((amplitude * P.nFft) / 8, 3);
    expect(Math.max(...row.subarray(0, 126), ...row.subarray(131))).toBeLessThan(1e-3);
    [0, 0.5, 1, 0.5].forEach((w, i) => expect(periodicHann(4)[i]).toBeCloseTo(w, 12)); // periodic: no repeated end point
  });

  it('gives the log-mel rows of the direct filterbank sum over those three bins, peaking in the band around 3 kHz', () => {
    const amplitude = 0.5;
    const { data, numFrames } = logMelSpectrogram(tone(128 * BIN_HZ, amplitude, 24000), P);
    expect(data.length).toBe(numFrames * P.numMels);
    const filters = melFilterbank(P);
    const row = data.subarray(40 * P.numMels, 41 * P.numMels);
    const bins: [number, number][] = [[127, (amplitude * P.nFft) / 8], [128, (amplitude * P.nFft) / 4], [129, (amplitude * P.nFft) / 8]];
    let peak = 0;
    for (let m = 0; m < P.numMels; m++) {
      const energy = bins.reduce((s, [k, mag]) => s + filters[m * NUM_BINS + k] * mag, 0);
      if (energy > 1e-3) expect(row[m], `band ${m}`).toBeCloseTo(Math.log(energy), 3);
      if (row[m] > row[peak]) peak = m;
    }
    const centresHz = Array.from({ length: P.numMels + 2 }, (_, i) => melToHz((hzToMel(P.fmaxHz) * i) / (P.numMels + 1)));
    expect(Math.abs(centresHz[peak + 1] - 3000)).toBeLessThan(centresHz[peak + 2] - centresHz[peak + 1]);
  });

  it('clips silence at ln(1e-5) and refuses a clip shorter than the padding', () => {
    const { data } = logMelSpectrogram(new Float32Array(4096), P);
    for (const v of data) expect(v).toBeCloseTo(Math.log(1e-5), 5);
    expect(() => logMelSpectrogram(new Float32Array(100), P)).toThrow(/too short/);
  });
});
