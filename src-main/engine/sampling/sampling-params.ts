/**
 * Effective per-request sampling parameters: the request's overrides on top of the checkpoint's
 * generation_config.json defaults (from the manifest). Rejects unknown keys and out-of-range values
 * naming the field and the valid range: the same ranges as the request schemas, so an in-process
 * caller that skips them (CLI, bench, tests) cannot reach the sampler with a value that overflows.
 */
import { StudioError } from '../../../src-shared/errors';
import type { SamplingParams } from '../../../src-shared/synthesis';
import { isValidSamplingParam, samplingParamRule, type NumericSamplingParam } from '../../../src-shared/sampling-limits';
import type { GenerationDefaults } from '../../model-format/manifest';

const bool = (v: unknown) => typeof v === 'boolean';
const numeric = (key: NumericSamplingParam): [(v: unknown) => boolean, string] => [(v) => isValidSamplingParam(key, v), samplingParamRule(key)];

/** Each key's check and rule: the request schemas' ranges (src-shared/sampling-limits.ts), for callers that skip them. */
const RULES: Record<keyof SamplingParams, [(value: unknown) => boolean, string]> = {
  doSample: [bool, 'must be true or false'],
  temperature: numeric('temperature'),
  topK: numeric('topK'),
  topP: numeric('topP'),
  repetitionPenalty: numeric('repetitionPenalty'),
  subtalkerDoSample: [bool, 'must be true or false'],
  subtalkerTemperature: numeric('subtalkerTemperature'),
  subtalkerTopK: numeric('subtalkerTopK'),
  subtalkerTopP: numeric('subtalkerTopP'),
  maxNewTokens: numeric('maxNewTokens'),
};

export function resolveSamplingParams(defaults: GenerationDefaults, overrides: Partial<SamplingParams> = {}): SamplingParams {
  const params: SamplingParams = {
    doSample: defaults.doSample,
    temperature: defaults.temperature,
    topK: defaults.topK,
    topP: defaults.topP,
    repetitionPenalty: defaults.repetitionPenalty,
    subtalkerDoSample: defaults.subtalkerDoSample,
    subtalkerTemperature: defaults.subtalkerTemperature,
    subtalkerTopK: defaults.subtalkerTopK,
    subtalkerTopP: defaults.subtalkerTopP,
    maxNewTokens: defaults.maxNewTokens,
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const rule = RULES[key as keyof SamplingParams];
    if (!rule) {
      throw new StudioError('invalid-argument', `params.${key} is not a sampling parameter; valid keys: ${Object.keys(RULES).join(', ')}`, {
        field: `params.${key}`,
        validValues: Object.keys(RULES),
      });
    }
    if (!rule[0](value)) {
      throw new StudioError('invalid-argument', `params.${key} is ${JSON.stringify(value)}; it ${rule[1]}`, { field: `params.${key}` });
    }
    (params as unknown as Record<string, unknown>)[key] = value;
  }
  return params;
}
