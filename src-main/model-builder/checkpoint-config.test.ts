// Unit tests: the typed config read from the official 0.6B config.json (fixture copied from the
// shared checkpoint docs) gives the spec's dims and ids, and implies exactly the official tensor list.
import { describe, expect, it } from 'vitest';
import { parseCheckpointConfig } from './checkpoint-config';
import { expectedCheckpointTensors } from './checkpoint-tensors';
import officialConfig from './fixtures/official-0.6b-config.json';
import officialTensors from './fixtures/official-0.6b-talker-tensors.json';

describe('checkpoint config', () => {
  const config = parseCheckpointConfig(officialConfig as Record<string, unknown>, {});

  it('reads the 0.6B talker and code-predictor dims from config.json', () => {
    expect(config.talker).toMatchObject({ numLayers: 28, hiddenSize: 1024, numHeads: 16, numKvHeads: 8, headDim: 128, intermediateSize: 3072, vocabSize: 3072, textVocabSize: 151936, textHiddenSize: 2048, ropeTheta: 1e6, rmsNormEps: 1e-6 });
    expect(config.codePredictor).toMatchObject({ numLayers: 5, hiddenSize: 1024, vocabSize: 2048, ropeTheta: 1e6, hasInputProjection: false });
    expect(config.numCodeGroups).toBe(16);
  });

  it('reads the special, speaker and language ids', () => {
    expect(config.textTokens).toEqual({ imStart: 151644, imEnd: 151645, ttsPad: 151671, ttsBos: 151672, ttsEos: 151673 });
    expect(config.codecTokens).toEqual({ eos: 2150, think: 2154, nothink: 2155, thinkBos: 2156, thinkEos: 2157, pad: 2148, bos: 2149 });
    expect(config.speakers.dylan).toEqual({ codecId: 2878, dialect: 'beijing_dialect' });
    expect(config.speakers.vivian).toEqual({ codecId: 3065, dialect: null });
    expect(config.languages.german).toBe(2053);
  });

  it('falls back to the wrapper sampling defaults only for keys generation_config.json lacks', () => {
    const c = parseCheckpointConfig(officialConfig as Record<string, unknown>, { top_k: 30, max_new_tokens: 8192 });
    expect(c.generation).toMatchObject({ topK: 30, maxNewTokens: 8192, temperature: 0.9, subtalkerTopK: 50, repetitionPenalty: 1.05, minNewTokens: 2 });
  });

  it('implies exactly the 402 official talker-side tensors with their shapes, in order', () => {
    const expected = expectedCheckpointTensors(config).map((t) => [t.name, t.shape]);
    expect(expected).toEqual(officialTensors);
  });

  it('names the key path of a missing dim', () => {
    const broken = structuredClone(officialConfig) as { talker_config: { code_predictor_config: Record<string, unknown> } };
    delete broken.talker_config.code_predictor_config.num_key_value_heads;
    expect(() => parseCheckpointConfig(broken as unknown as Record<string, unknown>, {})).toThrow(/talker_config\.code_predictor_config\.num_key_value_heads' is missing/);
  });

  it('rejects a mistyped generation default naming the key', () => {
    expect(() => parseCheckpointConfig(officialConfig as Record<string, unknown>, { temperature: 'hot' })).toThrow(/'temperature'/);
  });
});
