// The sampler's order of operations and its draw, checked on small hand-made rows.
import { describe, expect, it } from 'vitest';
import { NO_TOKEN, argmax, drawFromLogits, hasFiniteDistribution, sampleCodePredictorToken, sampleTalkerToken, type TalkerRules } from './sampler';

const RULES: TalkerRules = { eosId: 6, controlStartId: 5, controlEndId: 8, minNewTokens: 2 };
const GREEDY = { doSample: false, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05 };

describe('sampler', () => {
  it('picks the lowest id among tied maxima in argmax', () => {
    expect(argmax([1, 3, 3, 2])).toBe(1);
  });

  it('draws by inverse CDF in id order', () => {
    const logits = Float32Array.from([Math.log(0.2), Math.log(0.5), Math.log(0.3)]);
    // cumulative 0.2, 0.7, 1.0
    expect(drawFromLogits(logits.slice(), 0.1)).toBe(0);
    expect(drawFromLogits(logits.slice(), 0.69)).toBe(1);
    expect(drawFromLogits(logits.slice(), 0.71)).toBe(2);
    expect(drawFromLogits(logits.slice(), 0.999999999)).toBe(2);
  });

  it('never returns a control id in greedy mode even when it has the top logit', () => {
    // id 7 is a control id (suppressed), id 6 is EOS but blocked for the first 2 frames
    const logits = Float32Array.from([0, 1, 2, 0, 0, 0, 9, 10]);
    expect(sampleTalkerToken(logits, { pastTokens: [], numGenerated: 0 }, GREEDY, RULES, 0.5)).toBe(2);
  });

  it('allows EOS once two tokens were generated', () => {
    const logits = Float32Array.from([0, 1, 2, 0, 0, 0, 9, 10]);
    expect(sampleTalkerToken(logits, { pastTokens: [1, 2], numGenerated: 2 }, GREEDY, RULES, 0.5)).toBe(6);
  });

  it('applies the repetition penalty before picking: a repeated leader can lose', () => {
    // id 2: 2.0 / 1.05 = 1.905 < 1.95 (id 1) → greedy picks 1
    const logits = Float32Array.from([0, 1.95, 2.0, 0, 0, 0, 0, 0]);
    expect(sampleTalkerToken(logits, { pastTokens: [2], numGenerated: 3 }, GREEDY, RULES, 0.5)).toBe(1);
  });

  it('samples only from the top-k survivors', () => {
    const params = { doSample: true, temperature: 1, topK: 1, topP: 1 };
    for (const u of [0, 0.3, 0.99]) {
      expect(sampleCodePredictorToken(Float32Array.from([0.1, 3, 0.2]), params, u)).toBe(1);
    }
  });

  it('sharpens with a low temperature: the top token takes almost all mass', () => {
    // logits 1 and 0 at T = 0.01 → p(id 0) = 1 / (1 + e^-100) ≈ 1
    const params = { doSample: true, temperature: 0.01, topK: 0, topP: 1 };
    expect(sampleCodePredictorToken(Float32Array.from([1, 0]), params, 0.999)).toBe(0);
  });

  it('gives NO_TOKEN, never an id, when the processed row has no finite distribution', () => {
    const sampling = { doSample: true, temperature: 1e-300, topK: 0, topP: 1, repetitionPenalty: 1 };
    // logits / 1e-300 overflow float32 to ±Infinity: softmax would be NaN and the draw an arbitrary (control) id
    expect(sampleTalkerToken(Float32Array.from([0.5, 1, -2, 0, 0, 0, 0, 0]), { pastTokens: [], numGenerated: 3 }, sampling, RULES, 0.5)).toBe(NO_TOKEN);
    expect(sampleCodePredictorToken(Float32Array.from([1, NaN, 0]), { doSample: true, temperature: 1, topK: 0, topP: 1 }, 0.5)).toBe(NO_TOKEN);
    expect(sampleCodePredictorToken(Float32Array.from([NaN, 2, 1]), { doSample: false, temperature: 1, topK: 0, topP: 1 }, 0)).toBe(NO_TOKEN);
    expect(hasFiniteDistribution(Float32Array.from([-Infinity, -Infinity]))).toBe(false);
    expect(hasFiniteDistribution(Float32Array.from([-Infinity, 3]))).toBe(true);
    expect(hasFiniteDistribution(Float32Array.from([Infinity, 3]))).toBe(false);
  });
});
