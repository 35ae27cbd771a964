/**
 * The valid range of each numeric sampling parameter, and the one sentence that states it: the
 * request schemas (HTTP API, IPC/WebSocket contract, CLI flags) and the engine's own check share them.
 * Also the seed's range and the one default seed every entry point (HTTP API, CLI, the UI) gives.
 * Temperatures stop at 0.01 (vLLM's _MIN_TEMP): below it logits / temperature overflow float32 and
 * sampling has no finite distribution. Constants and pure functions only.
 */
import type { SamplingParams } from './synthesis';

/** The seed of a request that names none: the HTTP API, `studio synth` / `studio render` and the UI's first value. */
export const DEFAULT_SEED = 42;
/** Seeds are 32-bit unsigned in every request schema (the engine itself takes any safe integer). */
export const MAX_SEED = 2 ** 32 - 1;
/** A seed's valid values, in the shape the UI's number fields take. */
export const SEED_LIMIT = Object.freeze({ min: 0, max: MAX_SEED, integer: true });

export interface SamplingParamLimit {
  min: number;
  max: number;
  /** min itself is not allowed. */
  minExclusive: boolean;
  integer: boolean;
  /** What to do instead, appended to the range. */
  hint: string;
}

const temperature: SamplingParamLimit = { min: 0.01, max: 10, minExclusive: false, integer: false, hint: 'lower is more deterministic; for greedy decoding set doSample false' };
const topK: SamplingParamLimit = { min: 0, max: 4096, minExclusive: false, integer: true, hint: '0 keeps every token' };
const topP: SamplingParamLimit = { min: 0, max: 1, minExclusive: true, integer: false, hint: '1 keeps every token' };

export type NumericSamplingParam = Exclude<keyof SamplingParams, 'doSample' | 'subtalkerDoSample'>;

export const SAMPLING_PARAM_LIMITS: Readonly<Record<NumericSamplingParam, SamplingParamLimit>> = Object.freeze({
  temperature,
  topK,
  topP,
  repetitionPenalty: { min: 1, max: 10, minExclusive: false, integer: false, hint: '1 turns it off' },
  subtalkerTemperature: { ...temperature, hint: 'lower is more deterministic; for greedy decoding set subtalkerDoSample false' },
  subtalkerTopK: topK,
  subtalkerTopP: topP,
  maxNewTokens: { min: 1, max: 8192, minExclusive: false, integer: true, hint: 'one token is one 80 ms frame' },
});

/** "must be a number from 0.01 to 10 (…)": the rule for `key`, without the field's name. */
export function samplingParamRule(key: NumericSamplingParam): string {
  const l = SAMPLING_PARAM_LIMITS[key];
  const from = l.minExclusive ? `above ${l.min} up to` : `from ${l.min} to`;
  return `must be ${l.integer ? 'an integer' : 'a number'} ${from} ${l.max} (${l.hint})`;
}

/** Whether `value` is a valid `key`. */
export function isValidSamplingParam(key: NumericSamplingParam, value: unknown): boolean {
  const l = SAMPLING_PARAM_LIMITS[key];
  if (typeof value !== 'number' || !Number.isFinite(value) || (l.integer && !Number.isInteger(value))) return false;
  return (l.minExclusive ? value > l.min : value >= l.min) && value <= l.max;
}
