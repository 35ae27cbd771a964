// Request sampling overrides on top of generation_config defaults, and their validation.
import { describe, expect, it } from 'vitest';
import { resolveSamplingParams } from './sampling-params';

const DEFAULTS = {
  doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05,
  subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1,
  maxNewTokens: 8192, minNewTokens: 2,
};

describe('sampling params', () => {
  it('takes the checkpoint defaults when nothing is overridden', () => {
    const p = resolveSamplingParams(DEFAULTS);
    const { minNewTokens: _engineOnly, ...requestLevel } = DEFAULTS;
    expect(p).toEqual(requestLevel);
    expect('minNewTokens' in p).toBe(false);
  });

  it('applies overrides', () => {
    expect(resolveSamplingParams(DEFAULTS, { temperature: 0.5, doSample: false }).temperature).toBe(0.5);
  });

  it('rejects unknown keys and out-of-range values naming the field', () => {
    expect(() => resolveSamplingParams(DEFAULTS, { topk: 5 } as never)).toThrow(/params\.topk is not a sampling parameter/);
    expect(() => resolveSamplingParams(DEFAULTS, { temperature: 0 })).toThrow(/params\.temperature is 0; it must be a number from 0\.01 to 10/);
    expect(() => resolveSamplingParams(DEFAULTS, { topP: 1.5 })).toThrow(/params\.topP/);
    expect(() => resolveSamplingParams(DEFAULTS, { topK: 2.5 })).toThrow(/params\.topK/);
  });
});
