/**
 * Whole-recording loudness normalisation: one linear gain that moves the integrated loudness
 * (BS.1770-4) to the target, lowered where needed so that no oversampled point (true-peak.ts) exceeds the
 * true-peak ceiling. No limiter: a gain keeps the dynamics; when the ceiling wins, the final
 * loudness is below the target and the result says so.
 */
import { StudioError } from '../../src-shared/errors';
import { OUTPUT_LOUDNESS_LIMITS, outputLoudnessProblem } from '../../src-shared/audio-format';
import { checkSampleRate } from './check-args';
import { applyGainDb } from './gain';
import { measureIntegratedLoudness } from './loudness';
import { measureTruePeak } from './true-peak';

export interface LoudnessTarget {
  targetLufs: number;
  truePeakCeilingDbtp: number;
}

export interface LoudnessResult {
  pcm: Float32Array;
  /** Integrated loudness before and after; null for silence (nothing passes the gate). */
  measuredLufs: number | null;
  finalLufs: number | null;
  measuredTruePeakDbtp: number | null;
  finalTruePeakDbtp: number | null;
  appliedGainDb: number;
  /** True when the true-peak ceiling, not the loudness target, set the gain. */
  limitedByTruePeak: boolean;
}

/** Margin below the ceiling that absorbs float32 rounding of the scaled samples. */
const CEILING_MARGIN_DB = 0.01;

export function normalizeLoudness(pcm: Float32Array, sampleRateHz: number, target: LoudnessTarget): LoudnessResult {
  checkSampleRate(sampleRateHz);
  checkTarget(target);
  checkFiniteSamples(pcm, sampleRateHz);
  const measured = measureIntegratedLoudness(pcm, sampleRateHz);
  const peak = measureTruePeak(pcm, sampleRateHz);
  const measuredPeakDb = peak > 0 ? 20 * Math.log10(peak) : null;
  if (!Number.isFinite(measured)) {
    return { pcm: pcm.slice(), measuredLufs: null, finalLufs: null, measuredTruePeakDbtp: measuredPeakDb, finalTruePeakDbtp: measuredPeakDb, appliedGainDb: 0, limitedByTruePeak: false };
  }
  let gainDb = target.targetLufs - measured;
  let limitedByTruePeak = false;
  if (measuredPeakDb !== null && measuredPeakDb + gainDb > target.truePeakCeilingDbtp - CEILING_MARGIN_DB) {
    gainDb = target.truePeakCeilingDbtp - CEILING_MARGIN_DB - measuredPeakDb;
    limitedByTruePeak = true;
  }
  const out = applyGainDb(pcm, gainDb);
  // The true-peak meter is linear, so the scaled signal's peak is the measured one plus the gain.
  const finalPeakDb = measuredPeakDb === null ? null : measuredPeakDb + gainDb;
  return {
    pcm: out,
    measuredLufs: measured,
    // Loudness is homogeneous in gain; re-measuring only differs if blocks cross the −70 gate.
    finalLufs: measureIntegratedLoudness(out, sampleRateHz),
    measuredTruePeakDbtp: measuredPeakDb,
    finalTruePeakDbtp: finalPeakDb,
    appliedGainDb: gainDb,
    limitedByTruePeak,
  };
}

/**
 * One NaN or infinity makes the measured loudness NaN, and the gain with it, which used to pass
 * the recording through silently. It means an earlier stage produced a broken sample: say where.
 */
function checkFiniteSamples(pcm: Float32Array, sampleRateHz: number): void {
  for (let i = 0; i < pcm.length; i++) {
    if (Number.isFinite(pcm[i])) continue;
    const timeMs = Math.round((i / sampleRateHz) * 1000);
    throw new StudioError('internal', `sample ${i} (at ${timeMs} ms) is ${pcm[i]} before loudness normalisation, so the loudness cannot be measured; an earlier stage (model output, prosody DSP or an inserted clip) produced it — please report this with the request`, { sampleIndex: i, timeMs, value: String(pcm[i]) });
  }
}

function checkTarget(target: LoudnessTarget): void {
  const problem = outputLoudnessProblem(target, { targetLufs: 'loudness.targetLufs', truePeakCeilingDbtp: 'loudness.truePeakCeilingDbtp' });
  if (!problem) return;
  const field = problem.startsWith('loudness.targetLufs') ? 'targetLufs' : 'truePeakCeilingDbtp';
  const { min, max } = OUTPUT_LOUDNESS_LIMITS[field];
  throw new StudioError('invalid-argument', problem, { field: `loudness.${field}`, value: String(target[field]), min, max });
}
