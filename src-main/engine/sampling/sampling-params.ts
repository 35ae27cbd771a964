/**
 * Effective per-request sampling parameters: the request's overrides on top of the checkpoint's
 * generation_config.json defaults (from the manifest). Rejects unknown keys and out-of-range values
 * naming the field and the valid range.
 */
import { StudioError } from '../../../src-shared/errors';
import type { SamplingParams } from '../../../src-shared/synthesis';
import type { GenerationDefaults } from '../../model-builder/manifest';

type Check = (value: unknown) => boolean;

const positive: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const nonNegativeInt: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const positiveInt: Check = (v) => Number.isInteger(v) && (v as number) >= 1;
const unitInterval: Check = (v) => typeof v === 'number' && v > 0 && v <= 1;
const bool: Check = (v) => typeof v === 'boolean';

const RULES: Record<keyof SamplingParams, [Check, string]> = {
  doSample: [bool, 'true or false'],
  temperature: [positive, 'a number > 0'],
  topK: [nonNegativeInt, 'an integer ≥ 0 (0 disables top-k)'],
  topP: [unitInterval, 'a number in (0, 1]'],
  repetitionPenalty: [positive, 'a number > 0 (1 disables it)'],
  subtalkerDoSample: [bool, 'true or false'],
  subtalkerTemperature: [positive, 'a number > 0'],
  subtalkerTopK: [nonNegativeInt, 'an integer ≥ 0'],
  subtalkerTopP: [unitInterval, 'a number in (0, 1]'],
  maxNewTokens: [positiveInt, 'an integer ≥ 1'],
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
      throw new StudioError('invalid-argument', `params.${key} is ${JSON.stringify(value)}; it must be ${rule[1]}`, { field: `params.${key}` });
    }
    (params as unknown as Record<string, unknown>)[key] = value;
  }
  return params;
}
