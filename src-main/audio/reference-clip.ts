/**
 * Prepares a reference clip for voice cloning: resamples to the speaker encoder's rate with our
 * resampler, trims leading and trailing silence (and anything past 30 s), and checks it (too short or silent → an error naming
 * the fix; clipped or short-but-usable → a warning). Pure; mono float PCM in, mono float PCM out.
 */
import { StudioError } from '../../src-shared/errors';
import { resample } from './resample';

/** Below this after trimming the x-vector is unreliable: refused. */
export const MIN_REFERENCE_MS = 1000;
/** Below this it works but clones less faithfully: a warning (peers ask for 3–10 s). */
export const SHORT_REFERENCE_MS = 3000;
/** Longer clips add nothing to the x-vector but time: the first 30 s of sound are used, with a warning. */
export const MAX_REFERENCE_MS = 30_000;
const SILENCE_DBFS = -50;
const SILENT_CLIP_DBFS = -60;
const TRIM_WINDOW_MS = 10;
const CLIP_LEVEL = 0.999;
/** More than this share of samples at full scale means the clip was clipped. */
const MAX_CLIPPED_SHARE = 0.001;

export interface PreparedReference {
  pcm: Float32Array;
  sampleRateHz: number;
  durationMs: number;
  warnings: string[];
}

const dbfs = (rms: number) => 20 * Math.log10(Math.max(rms, 1e-12));

function rmsOf(x: Float32Array, start = 0, end = x.length): number {
  let s = 0;
  for (let i = start; i < end; i++) s += x[i] * x[i];
  return Math.sqrt(s / Math.max(1, end - start));
}

/** Drops 10 ms windows below -50 dBFS at both ends. */
function trimSilence(x: Float32Array, sampleRateHz: number): Float32Array {
  const w = Math.max(1, Math.round((sampleRateHz * TRIM_WINDOW_MS) / 1000));
  const loud = (start: number) => dbfs(rmsOf(x, start, Math.min(x.length, start + w))) > SILENCE_DBFS;
  let first = 0;
  while (first < x.length && !loud(first)) first += w;
  let last = x.length;
  while (last > first && !loud(Math.max(first, last - w))) last -= w;
  return x.subarray(first, Math.max(first, last));
}

export function prepareReferenceClip(pcm: Float32Array, sampleRateHz: number, targetRateHz = 24000): PreparedReference {
  if (pcm.length === 0) throw new StudioError('invalid-argument', 'the reference clip is empty; record or import 5–15 s of one person speaking', { field: 'referenceAudio' });
  const warnings: string[] = [];
  const clipped = pcm.reduce((n, v) => n + (Math.abs(v) >= CLIP_LEVEL ? 1 : 0), 0);
  if (clipped / pcm.length > MAX_CLIPPED_SHARE) {
    warnings.push(`the reference clip is clipped (${((100 * clipped) / pcm.length).toFixed(2)} % of samples at full scale), which distorts the cloned timbre; record it again at a lower input gain`);
  }
  if (dbfs(rmsOf(pcm)) < SILENT_CLIP_DBFS) {
    throw new StudioError('invalid-argument', `the reference clip is silent (level ${dbfs(rmsOf(pcm)).toFixed(0)} dBFS, below ${SILENT_CLIP_DBFS} dBFS); check the microphone or pick another file`, { field: 'referenceAudio' });
  }
  const atRate = sampleRateHz === targetRateHz ? pcm : resample(pcm, sampleRateHz, targetRateHz);
  const whole = trimSilence(atRate, targetRateHz);
  const maxSamples = Math.round((MAX_REFERENCE_MS / 1000) * targetRateHz);
  const trimmed = whole.length > maxSamples ? whole.subarray(0, maxSamples) : whole;
  if (trimmed !== whole) warnings.push(`the reference clip holds ${(whole.length / targetRateHz).toFixed(0)} s of sound; only its first ${MAX_REFERENCE_MS / 1000} s are used (5–15 s is enough)`);
  const durationMs = (trimmed.length / targetRateHz) * 1000;
  if (durationMs < MIN_REFERENCE_MS) {
    throw new StudioError('invalid-argument', `the reference clip holds ${(durationMs / 1000).toFixed(1)} s of sound after trimming silence but at least ${MIN_REFERENCE_MS / 1000} s is needed; give 5–15 s of one person speaking`, {
      field: 'referenceAudio',
      durationMs: Math.round(durationMs),
    });
  }
  if (durationMs < SHORT_REFERENCE_MS) warnings.push(`the reference clip is only ${(durationMs / 1000).toFixed(1)} s long; 5–15 s clones the voice more faithfully`);
  return { pcm: Float32Array.from(trimmed), sampleRateHz: targetRateHz, durationMs, warnings };
}
