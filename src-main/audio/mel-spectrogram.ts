/**
 * Log-mel spectrogram, the speaker encoder's front end (Base checkpoints, voice cloning): the official
 * `mel_spectrogram` of modeling_qwen3_tts.py, i.e. reflect padding (nFft − hop)/2 on both sides, frames
 * every hop without centring, a periodic Hann window, |STFT| = sqrt(re² + im² + 1e-9), a librosa Slaney
 * mel filterbank (Slaney scale, area-normalised), then ln(max(x, 1e-5)). Pure; PCM in, rows out.
 */
import { StudioError } from '../../src-shared/errors';

export interface MelParams {
  sampleRateHz: number;
  nFft: number;
  hopSamples: number;
  windowSamples: number;
  numMels: number;
  fminHz: number;
  fmaxHz: number;
}

/** The values extract_speaker_embedding passes (24 kHz input only). */
export function speakerEncoderMelParams(): MelParams {
  return { sampleRateHz: 24000, nFft: 1024, hopSamples: 256, windowSamples: 1024, numMels: 128, fminHz: 0, fmaxHz: 12000 };
}

const MAGNITUDE_EPS = 1e-9;
const LOG_CLIP = 1e-5;

// Slaney mel scale (librosa htk=False): linear below 1 kHz (200/3 Hz per mel), logarithmic above
const F_SP = 200 / 3;
const MIN_LOG_HZ = 1000;
const MIN_LOG_MEL = MIN_LOG_HZ / F_SP; // 15
const LOG_STEP = Math.log(6.4) / 27;

export function hzToMel(hz: number): number {
  return hz < MIN_LOG_HZ ? hz / F_SP : MIN_LOG_MEL + Math.log(hz / MIN_LOG_HZ) / LOG_STEP;
}

export function melToHz(mel: number): number {
  return mel < MIN_LOG_MEL ? mel * F_SP : MIN_LOG_HZ * Math.exp(LOG_STEP * (mel - MIN_LOG_MEL));
}

/** librosa.filters.mel(sr, n_fft, n_mels, fmin, fmax) with norm='slaney': [numMels, nFft/2 + 1] row-major. */
export function melFilterbank(p: MelParams): Float32Array {
  const numBins = p.nFft / 2 + 1;
  const fftHz = Array.from({ length: numBins }, (_, k) => (k * p.sampleRateHz) / p.nFft);
  const minMel = hzToMel(p.fminHz);
  const maxMel = hzToMel(p.fmaxHz);
  const edgesHz = Array.from({ length: p.numMels + 2 }, (_, i) => melToHz(minMel + ((maxMel - minMel) * i) / (p.numMels + 1)));
  const out = new Float32Array(p.numMels * numBins);
  for (let m = 0; m < p.numMels; m++) {
    const [lo, centre, hi] = [edgesHz[m], edgesHz[m + 1], edgesHz[m + 2]];
    const enorm = 2 / (hi - lo); // Slaney: each triangle has unit area in Hz
    for (let k = 0; k < numBins; k++) {
      const rising = (fftHz[k] - lo) / (centre - lo);
      const falling = (hi - fftHz[k]) / (hi - centre);
      out[m * numBins + k] = Math.max(0, Math.min(rising, falling)) * enorm;
    }
  }
  return out;
}

/** torch.hann_window(n) (periodic): 0.5 − 0.5·cos(2πi/n). */
export function periodicHann(n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n));
}

/** In-place iterative radix-2 FFT of (re, im); length a power of two. */
export function fftInPlace(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const step = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const wr = Math.cos(step * k);
        const wi = Math.sin(step * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b] * wr - im[b] * wi;
        const ti = re[b] * wi + im[b] * wr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
    }
  }
}

/** Reflect padding (torch 'reflect': the edge sample is not repeated). */
function reflectPad(x: Float32Array, pad: number): Float32Array {
  if (pad >= x.length) {
    throw new StudioError('invalid-argument', `audio of ${x.length} samples is too short for reflect padding of ${pad}; give at least ${pad + 1} samples`, { numSamples: x.length });
  }
  const out = new Float32Array(x.length + 2 * pad);
  out.set(x, pad);
  for (let i = 0; i < pad; i++) {
    out[pad - 1 - i] = x[i + 1];
    out[pad + x.length + i] = x[x.length - 2 - i];
  }
  return out;
}

/** Magnitude spectra |STFT| of the padded signal: [numFrames, nFft/2 + 1] row-major, numFrames = 1 + ⌊(N + 2·pad − nFft) / hop⌋. */
export function magnitudeSpectrogram(pcm: Float32Array, p: MelParams): { data: Float64Array; numFrames: number } {
  if ((p.nFft & (p.nFft - 1)) !== 0 || p.windowSamples !== p.nFft) {
    throw new StudioError('invalid-argument', `nFft ${p.nFft} must be a power of two equal to windowSamples ${p.windowSamples}`, { nFft: p.nFft });
  }
  const padded = reflectPad(pcm, (p.nFft - p.hopSamples) >> 1);
  if (padded.length < p.nFft) {
    throw new StudioError('invalid-argument', `audio of ${pcm.length} samples gives no ${p.nFft}-sample frame; give a longer clip`, { numSamples: pcm.length });
  }
  const numFrames = 1 + Math.floor((padded.length - p.nFft) / p.hopSamples);
  const numBins = p.nFft / 2 + 1;
  const window = periodicHann(p.windowSamples);
  const data = new Float64Array(numFrames * numBins);
  const re = new Float64Array(p.nFft);
  const im = new Float64Array(p.nFft);
  for (let f = 0; f < numFrames; f++) {
    const offset = f * p.hopSamples;
    for (let i = 0; i < p.nFft; i++) re[i] = padded[offset + i] * window[i];
    im.fill(0);
    fftInPlace(re, im);
    for (let k = 0; k < numBins; k++) data[f * numBins + k] = Math.sqrt(re[k] * re[k] + im[k] * im[k] + MAGNITUDE_EPS);
  }
  return { data, numFrames };
}

/** Log-mel rows: [numFrames, numMels] row-major (time-major, as the speaker encoder takes them). */
export function logMelSpectrogram(pcm: Float32Array, p: MelParams = speakerEncoderMelParams()): { data: Float32Array; numFrames: number } {
  const { data: spec, numFrames } = magnitudeSpectrogram(pcm, p);
  const filters = melFilterbank(p);
  const numBins = p.nFft / 2 + 1;
  const out = new Float32Array(numFrames * p.numMels);
  for (let f = 0; f < numFrames; f++) {
    for (let m = 0; m < p.numMels; m++) {
      let sum = 0;
      for (let k = 0; k < numBins; k++) sum += filters[m * numBins + k] * spec[f * numBins + k];
      out[f * p.numMels + m] = Math.log(Math.max(sum, LOG_CLIP));
    }
  }
  return { data: out, numFrames };
}
