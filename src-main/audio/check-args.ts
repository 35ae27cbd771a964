/**
 * Argument checks shared by the DSP functions, so every bad sample rate or factor is
 * reported the same way: a StudioError 'invalid-argument' naming the field, the value
 * and the valid range.
 */
import { StudioError } from '../../src-shared/errors';

export const MIN_SAMPLE_RATE_HZ = 8000;
export const MAX_SAMPLE_RATE_HZ = 192_000;

export function checkSampleRate(sampleRateHz: number, field = 'sampleRateHz'): void {
  if (!Number.isFinite(sampleRateHz) || sampleRateHz < MIN_SAMPLE_RATE_HZ || sampleRateHz > MAX_SAMPLE_RATE_HZ) {
    throw new StudioError('invalid-argument', `${field} is ${sampleRateHz} but must be from ${MIN_SAMPLE_RATE_HZ} to ${MAX_SAMPLE_RATE_HZ} Hz; pass the PCM's real sample rate`, { field, value: String(sampleRateHz), min: MIN_SAMPLE_RATE_HZ, max: MAX_SAMPLE_RATE_HZ });
  }
}

export function checkRange(field: string, value: number, min: number, max: number, fix: string): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new StudioError('invalid-argument', `${field} is ${value} but must be from ${min} to ${max}; ${fix}`, { field, value: String(value), min, max });
  }
}
