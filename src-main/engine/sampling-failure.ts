/**
 * The error of one sequence whose sampling gave no usable token (sampler.ts's NO_TOKEN, or an id
 * outside the codebook). When one of its sampling params is out of range (a caller that skipped the
 * request schema), the params are to blame: 'invalid-argument' naming the field; otherwise the
 * model's logits were not finite: 'internal'. The engine fails that sequence alone (frame-steps.ts).
 */
import { StudioError } from '../../src-shared/errors';
import { isValidSamplingParam, samplingParamRule, type NumericSamplingParam } from '../../src-shared/sampling-limits';
import type { SamplingParams } from '../../src-shared/synthesis';
import { NO_TOKEN } from './sampling/sampler';

export type SamplingStage = 'talker' | 'code predictor';

/** The params each stage's sampler reads (its warpers only while it samples). */
function paramsOf(stage: SamplingStage, params: SamplingParams): NumericSamplingParam[] {
  if (stage === 'talker') return params.doSample ? ['temperature', 'topK', 'topP', 'repetitionPenalty'] : ['repetitionPenalty'];
  return params.subtalkerDoSample ? ['subtalkerTemperature', 'subtalkerTopK', 'subtalkerTopP'] : [];
}

export function samplingFailure(stage: SamplingStage, params: SamplingParams, at: { frame: number; codebook: number }, id: number, codebookSize: number): StudioError {
  const where = `codebook ${at.codebook} at frame ${at.frame}`;
  const alone = 'this request failed, the others in its batch go on';
  const bad = paramsOf(stage, params).find((key) => !isValidSamplingParam(key, params[key]));
  if (bad !== undefined) {
    return new StudioError('invalid-argument', `sampling ${where} found no token with a finite probability: params.${bad} is ${params[bad]} but ${samplingParamRule(bad)}; ${alone}`, {
      field: `params.${bad}`,
      frame: at.frame,
      codebook: at.codebook,
    });
  }
  const what = id === NO_TOKEN ? 'logits with no finite distribution (NaN or infinity)' : `token id ${id}, outside the codebook [0, ${codebookSize})`;
  return new StudioError('internal', `the ${stage} gave ${what} for ${where}; ${alone}. The model or device produced non-finite values: run studio model verify, and report it if it happens again`, {
    stage,
    frame: at.frame,
    codebook: at.codebook,
  });
}
