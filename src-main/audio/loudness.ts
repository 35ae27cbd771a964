/**
 * Integrated loudness of mono PCM per ITU-R BS.1770-4 / EBU R128: K-weighting, 400 ms blocks
 * with 75 % overlap, absolute gate at −70 LUFS, relative gate 10 LU below the mean of the
 * blocks that passed it. Pure measurement; normalise-loudness.ts applies the gain.
 */
import { kWeightedSquares } from './k-weighting';

export const ABSOLUTE_GATE_LUFS = -70;
export const RELATIVE_GATE_LU = -10;
const BLOCK_SECONDS = 0.4;
const STEP_SECONDS = 0.1; // 75 % overlap

/** −0.691 + 10·log10(meanSquare): the BS.1770 loudness of one block (mono, channel weight 1). */
function blockLoudness(meanSquare: number): number {
  return -0.691 + 10 * Math.log10(meanSquare);
}

/**
 * Integrated loudness in LUFS, or -Infinity when nothing passes the absolute gate (silence).
 * A clip shorter than one block is measured as a single block over its whole length.
 */
export function measureIntegratedLoudness(pcm: Float32Array, sampleRateHz: number): number {
  if (pcm.length === 0) return -Infinity;
  const squares = kWeightedSquares(pcm, sampleRateHz);
  const prefix = new Float64Array(squares.length + 1);
  for (let i = 0; i < squares.length; i++) prefix[i + 1] = prefix[i] + squares[i];

  const blockLen = Math.round(BLOCK_SECONDS * sampleRateHz);
  const blockPowers: number[] = [];
  if (pcm.length < blockLen) {
    blockPowers.push(prefix[pcm.length] / pcm.length);
  } else {
    for (let j = 0; ; j++) {
      const start = Math.round(j * STEP_SECONDS * sampleRateHz);
      if (start + blockLen > pcm.length) break;
      blockPowers.push((prefix[start + blockLen] - prefix[start]) / blockLen);
    }
  }

  const aboveAbsolute = blockPowers.filter((p) => blockLoudness(p) > ABSOLUTE_GATE_LUFS);
  if (aboveAbsolute.length === 0) return -Infinity;
  const relativeGate = blockLoudness(mean(aboveAbsolute)) + RELATIVE_GATE_LU;
  const gated = aboveAbsolute.filter((p) => blockLoudness(p) > relativeGate);
  return blockLoudness(mean(gated));
}

function mean(values: number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
