/**
 * Picks one token per row: the talker's codebook-0 token (processors, then warpers when sampling)
 * and the code predictor's codebooks 1..15 (warpers only, no penalty or suppression, spec §3.3).
 * Greedy mode runs the processors and then argmax, as HF `generate` with do_sample=False does.
 * The random number is passed in (counter-rng.ts), so a row's choice depends on its own inputs only.
 * A row with no finite distribution after its processors gives NO_TOKEN instead of a token.
 */
import {
  applyMinNewTokens,
  applyRepetitionPenalty,
  applySuppressRange,
  applyTemperature,
  applyTopK,
  applyTopP,
  softmax,
} from './logits-processors';

export interface WarperParams {
  doSample: boolean;
  temperature: number;
  topK: number;
  topP: number;
}

/** Model facts the talker's processors need, read from the manifest. */
export interface TalkerRules {
  eosId: number;
  /** Codec ids in [controlStartId, controlEndId) are control/speaker/language rows: suppressed except EOS. */
  controlStartId: number;
  controlEndId: number;
  minNewTokens: number;
}

export interface TalkerRowState {
  /** Codebook-0 tokens generated so far by this sequence (the repetition penalty's set). */
  pastTokens: readonly number[];
  numGenerated: number;
}

/** Index of the largest value; ties go to the lowest id (torch.argmax's first occurrence). */
export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** Inverse-CDF draw over softmax(logits) in id order with one uniform number in [0, 1). */
export function drawFromLogits(logits: Float32Array, uniform: number): number {
  const probs = softmax(logits);
  let cumulative = 0;
  let last = argmax(probs);
  for (let id = 0; id < probs.length; id++) {
    if (probs[id] === 0) continue;
    cumulative += probs[id];
    last = id;
    if (uniform < cumulative) return id;
  }
  return last; // rounding left the cumulative sum just below 1: take the last candidate
}

/**
 * What the samplers return for a row without a distribution to draw from: its processed logits hold
 * NaN or +∞ (a broken model, or params that overflow float32) or nothing above −∞. Never a token id;
 * the engine fails that sequence alone (frame-steps.ts).
 */
export const NO_TOKEN = -1;

/** Whether a row of logits is a distribution: no NaN, no +∞, and at least one finite value. */
export function hasFiniteDistribution(logits: Float32Array): boolean {
  let anyFinite = false;
  for (let i = 0; i < logits.length; i++) {
    const v = logits[i];
    if (v !== v || v === Infinity) return false;
    if (v !== -Infinity) anyFinite = true;
  }
  return anyFinite;
}

function warpAndPick(logits: Float32Array, params: WarperParams, uniform: number): number {
  if (params.doSample) {
    applyTemperature(logits, params.temperature);
    applyTopK(logits, params.topK);
    applyTopP(logits, params.topP);
  }
  if (!hasFiniteDistribution(logits)) return NO_TOKEN;
  return params.doSample ? drawFromLogits(logits, uniform) : argmax(logits);
}

/** Codebook-0 token for one talker row, or NO_TOKEN; `logits` is a private copy and is modified. */
export function sampleTalkerToken(
  logits: Float32Array,
  row: TalkerRowState,
  params: WarperParams & { repetitionPenalty: number },
  rules: TalkerRules,
  uniform: number,
): number {
  applyRepetitionPenalty(logits, row.pastTokens, params.repetitionPenalty);
  applyMinNewTokens(logits, row.numGenerated, rules.minNewTokens, rules.eosId);
  applySuppressRange(logits, rules.controlStartId, rules.controlEndId, [rules.eosId]);
  return warpAndPick(logits, params, uniform);
}

/** Codebook 1..15 token for one code-predictor row, or NO_TOKEN; `logits` is a private copy and is modified. */
export function sampleCodePredictorToken(logits: Float32Array, params: WarperParams, uniform: number): number {
  return warpAndPick(logits, params, uniform);
}
