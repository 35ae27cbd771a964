/**
 * Silence for SSML breaks. Breaks are generated, never stretched, so their length is
 * exactly what the document asked for (rounded to whole samples).
 */
import { msToSamples } from '../../src-shared/units';
import { StudioError } from '../../src-shared/errors';
import { checkSampleRate } from './check-args';

/** A buffer of zeros lasting durationMs at sampleRateHz. */
export function createSilence(durationMs: number, sampleRateHz: number): Float32Array {
  checkSampleRate(sampleRateHz);
  if (!Number.isFinite(durationMs) || durationMs < 0) {
    throw new StudioError('invalid-argument', `break durationMs is ${durationMs} but must be a finite number >= 0`, { field: 'durationMs', value: String(durationMs) });
  }
  return new Float32Array(msToSamples(durationMs, sampleRateHz));
}
