import { describe, expect, it } from 'vitest';
import { samplingParamsFromFlags } from './sampling-flags';

describe('samplingParamsFromFlags', () => {
  it('gives nothing when no flag is set, so the model defaults apply', () => {
    expect(samplingParamsFromFlags({})).toBeUndefined();
  });

  it('turns flags into the contract params, greedy into both doSample switches', () => {
    expect(samplingParamsFromFlags({ temperature: '0.7', topK: '30', topP: '0.9', repetitionPenalty: '1.1', maxNewTokens: '200', greedy: true })).toEqual({
      temperature: 0.7,
      topK: 30,
      topP: 0.9,
      repetitionPenalty: 1.1,
      maxNewTokens: 200,
      doSample: false,
      subtalkerDoSample: false,
    });
  });

  it('refuses what the HTTP API refuses, naming the flag', () => {
    expect(() => samplingParamsFromFlags({ temperature: '-1' })).toThrow(/--temperature/);
    expect(() => samplingParamsFromFlags({ topP: '1.5' })).toThrow(/--top-p/);
    expect(() => samplingParamsFromFlags({ topK: '2.5' })).toThrow(/--top-k/);
    expect(() => samplingParamsFromFlags({ temperature: 'hot' })).toThrow(/--temperature must be a number/);
  });
});
