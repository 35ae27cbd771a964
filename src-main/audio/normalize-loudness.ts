/**
 * Whole-recording loudness normalisation: one linear gain that moves the integrated loudness
 * (BS.1770-4) to the target, lowered where needed so that the true peak (true-peak.ts, oversampled
 * to ≥ 192 kHz) stays under the ceiling. No limiter: a gain keeps the dynamics; when the ceiling
 * wins, the final loudness is below the target and the result says so in `warning`, in LU.
 */
import { StudioError } from '../../src-shared/errors';
import { OUTPUT_LOUDNESS_LIMITS, outputLoudnessProblem } from '../../src-shared/audio-format';
import { checkSampleRate } from './check-args';
import { applyGainDb } from './gain';
import { ABSOLUTE_GATE_LUFS, measureIntegratedLoudness } from './loudness';
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
  /** How far (LU) the final loudness falls below the target; 0 when it is within TARGET_TOLERANCE_LU, or for silence. */
  shortfallLu: number;
  /** Why and by how much the target was missed (for the request's warnings); null when it was met. */
  warning: string | null;
}

/** Margin below the ceiling that absorbs float32 rounding of the scaled samples. */
const CEILING_MARGIN_DB = 0.01;
/** A final loudness this close to the target counts as on target (the meter's own rounding is far smaller). */
export const TARGET_TOLERANCE_LU = 0.1;

export function normalizeLoudness(pcm: Float32Array, sampleRateHz: number, target: LoudnessTarget): LoudnessResult {
  checkSampleRate(sampleRateHz);
  checkTarget(target);
  checkFiniteSamples(pcm, sampleRateHz);
  const measured = measureIntegratedLoudness(pcm, sampleRateHz);
  const peak = measureTruePeak(pcm, sampleRateHz);
  const measuredPeakDb = peak > 0 ? 20 * Math.log10(peak) : null;
  if (!Number.isFinite(measured)) {
    return { pcm: pcm.slice(), measuredLufs: null, finalLufs: null, measuredTruePeakDbtp: measuredPeakDb, finalTruePeakDbtp: measuredPeakDb, appliedGainDb: 0, limitedByTruePeak: false, shortfallLu: 0, warning: null };
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
  // Loudness is homogeneous in gain; re-measuring only differs if blocks cross the −70 gate.
  const finalLufs = measureIntegratedLoudness(out, sampleRateHz);
  const shortfallLu = Number.isFinite(finalLufs) && target.targetLufs - finalLufs > TARGET_TOLERANCE_LU ? target.targetLufs - finalLufs : 0;
  return {
    pcm: out,
    measuredLufs: measured,
    finalLufs,
    measuredTruePeakDbtp: measuredPeakDb,
    finalTruePeakDbtp: finalPeakDb,
    appliedGainDb: gainDb,
    limitedByTruePeak,
    shortfallLu,
    warning: shortfallLu > 0 ? missedTargetWarning(target, finalLufs, shortfallLu, limitedByTruePeak ? gainDb : null) : null,
  };
}

/** "loudness target missed: … LU below …", naming what held the gain back and the fix. */
function missedTargetWarning(target: LoudnessTarget, finalLufs: number, shortfallLu: number, ceilingGainDb: number | null): string {
  const reached = `loudness target missed: the recording reaches ${finalLufs.toFixed(1)} LUFS, ${shortfallLu.toFixed(1)} LU below the ${target.targetLufs} LUFS target`;
  if (ceilingGainDb === null) return `${reached}: quiet passages the gain lifted over the ${ABSOLUTE_GATE_LUFS} LUFS gate now count and pull the measure down, which one gain cannot fix`;
  const gain = `${ceilingGainDb >= 0 ? '+' : ''}${ceilingGainDb.toFixed(1)} dB`;
  return `${reached}, because the ${target.truePeakCeilingDbtp} dBTP true-peak ceiling held the gain to ${gain} (one gain, no limiter); lower the target, raise the ceiling, or tame the peaks before normalising`;
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
