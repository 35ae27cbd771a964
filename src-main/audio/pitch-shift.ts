/**
 * Pitch shift without tempo change: WSOLA-stretch by the pitch factor, then resample back to
 * the original length (the resample raises or lowers the pitch; the stretch undid its tempo
 * change). Formants move with the pitch, so keep shifts small (a few semitones) on speech.
 */
import { checkRange, checkSampleRate } from './check-args';
import { resampleByStep } from './resample';
import { defaultTimeStretchOptions, timeStretch, type TimeStretchOptions } from './time-stretch';

export const MAX_PITCH_SHIFT_SEMITONES = 12;

/** Shifts pitch by `pitchSemitones` (±12); the output has exactly pcm.length samples. */
export function pitchShift(pcm: Float32Array, sampleRateHz: number, pitchSemitones: number, options: TimeStretchOptions = defaultTimeStretchOptions()): Float32Array {
  checkSampleRate(sampleRateHz);
  checkRange('pitchSemitones', pitchSemitones, -MAX_PITCH_SHIFT_SEMITONES, MAX_PITCH_SHIFT_SEMITONES, 'larger shifts distort speech; pick another voice instead');
  if (pitchSemitones === 0 || pcm.length === 0) return pcm.slice();
  const factor = Math.pow(2, pitchSemitones / 12);
  // factor > 1: make the audio factor× longer at the same pitch, then read it factor× faster.
  const stretched = timeStretch(pcm, sampleRateHz, 1 / factor, options);
  return resampleByStep(stretched, stretched.length / pcm.length, pcm.length);
}
