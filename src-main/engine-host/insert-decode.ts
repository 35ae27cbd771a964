/**
 * Decodes one <audio src> WAV for the engine host: the decoded size (samples once resampled to the
 * output rate, and frames at the file's own rate) is checked from the header before a sample is
 * converted (decodedSizeOf, on the host), then the file is decoded, checked for non-finite samples
 * and resampled to the output rate by decodeInsertAtRate, which is synchronous and runs on an insert
 * worker thread (insert-worker.ts), never on the host's event loop. Errors here are the request's (HTTP 400).
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { StudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';
import { MAX_SAMPLE_RATE_HZ, MIN_SAMPLE_RATE_HZ } from '../audio/check-args';
import { resample } from '../audio/resample';
import { decodeWavFrames, type WavLayout } from '../audio/wav-read';

/**
 * Samples all <audio> files of one request may decode to, counted at the output rate: 10 minutes at
 * 24 kHz (57.6 MB as float32). A 49 MiB 8-bit 8 kHz WAV (107 minutes, 154 M samples at 24 kHz) grew
 * the host past 3 GB before this limit.
 */
export const AUDIO_INSERT_MAX_DECODED_SAMPLES = 14_400_000;

export interface DecodedInsert {
  pcm: Float32Array;
  sampleRateHz: number;
}

/** Longest src quoted in an error (an attribute may be up to the SSML size limit). */
const MAX_SRC_SHOWN = 200;
const shown = (src: string) => (src.length > MAX_SRC_SHOWN ? `${src.slice(0, MAX_SRC_SHOWN)}…` : src);

/** Samples the file has once resampled to the output rate, as resample() counts them: round(n · to / from). */
export function numSamplesAtRate(numFrames: number, fromSampleRateHz: number, toSampleRateHz: number): number {
  return Math.round((numFrames * toSampleRateHz) / fromSampleRateHz);
}

/**
 * How many samples decoding this file costs: its samples at the output rate, or its frames at its
 * own rate when that is higher (decoding holds those first), times the number of times the request
 * inserts it (each copy is its own stretch of the rendered recording). Throws the request's error
 * when the rate cannot be resampled or the cost is over `numSamplesLeft`.
 */
export function decodedSizeOf(src: string, layout: WavLayout, budget: { outputSampleRateHz: number; numSamplesLeft: number; maxDecodedSamples: number; numUses?: number }): number {
  const { outputSampleRateHz, numSamplesLeft, maxDecodedSamples } = budget;
  const numUses = budget.numUses ?? 1;
  const rateHz = layout.sampleRateHz;
  if (rateHz < MIN_SAMPLE_RATE_HZ || rateHz > MAX_SAMPLE_RATE_HZ) {
    throw new StudioError('invalid-argument', `<audio src="${shown(src)}"> is sampled at ${formatCount(rateHz)} Hz but inserted audio must be from ${formatCount(MIN_SAMPLE_RATE_HZ)} to ${formatCount(MAX_SAMPLE_RATE_HZ)} Hz; resample the file (e.g. to 24,000 Hz)`, {
      field: 'input',
      src: shown(src),
      sampleRateHz: rateHz,
    });
  }
  const numOutput = numSamplesAtRate(layout.numFrames, rateHz, outputSampleRateHz);
  const cost = Math.max(numOutput, layout.numFrames) * numUses;
  if (cost > numSamplesLeft) {
    const minutes = (n: number) => (n / outputSampleRateHz / 60).toFixed(1);
    const times = numUses > 1 ? `, inserted ${formatCount(numUses)} times` : '';
    throw new StudioError(
      'input-too-long',
      `<audio src="${shown(src)}"> decodes to ${formatCount(numOutput)} samples at ${formatCount(outputSampleRateHz)} Hz (${minutes(numOutput)} min; ${formatCount(layout.numFrames)} frames at ${formatCount(rateHz)} Hz in the file${times}), but the <audio> files of one request may decode to at most ${formatCount(maxDecodedSamples)} samples (${minutes(maxDecodedSamples)} min)${numSamplesLeft < maxDecodedSamples ? `, of which ${formatCount(Math.max(0, numSamplesLeft))} are left` : ''}; cut the clip, or split the document into several requests`,
      { field: 'input', src: shown(src), numDecodedSamples: cost, maxDecodedSamples, numUses },
    );
  }
  return cost;
}

/**
 * Decodes the file, refuses the first non-finite sample, and resamples it to the output rate into
 * the array `allocate` gives (a SharedArrayBuffer's, on a worker, so the host shares it without a
 * copy). Synchronous and O(file): run it on an insert worker (insert-worker.ts), not on the host's loop.
 */
export function decodeInsertAtRate(src: string, bytes: Uint8Array, layout: WavLayout, outputSampleRateHz: number, allocate: (numSamples: number) => Float32Array = (n) => new Float32Array(n)): DecodedInsert {
  const frames = new Float32Array(layout.numFrames);
  decodeWavFrames(bytes, layout, frames, 0, layout.numFrames);
  for (let i = 0; i < frames.length; i++) {
    if (Number.isFinite(frames[i])) continue;
    throw new StudioError(
      'invalid-argument',
      `<audio src="${shown(src)}"> has a ${frames[i]} sample at ${((i / layout.sampleRateHz) * 1000).toFixed(0)} ms (frame ${formatCount(i)}); inserted audio must hold finite samples, so re-export the clip (float WAVs with NaN or infinity come from a broken effect or converter)`,
      { field: 'input', src: shown(src), frame: i, value: String(frames[i]) },
    );
  }
  const atRate = layout.sampleRateHz === outputSampleRateHz ? frames : resample(frames, layout.sampleRateHz, outputSampleRateHz);
  const pcm = allocate(atRate.length);
  pcm.set(atRate);
  return { pcm, sampleRateHz: outputSampleRateHz };
}
