// Unit tests: the talker-side tensor list of the 1.7B layouts (CustomVoice and VoiceDesign share it),
// checked against shapes read off the official classes by hand (modeling_qwen3_tts.py, QwenLM/Qwen3-TTS):
// the 0.6B list plus small_to_mtp_projection, every width doubled where the talker width enters.
import { describe, expect, it } from 'vitest';
import { parseCheckpointConfig } from './checkpoint-config';
import { expectedCheckpointTensors, type ExpectedTensor } from './checkpoint-tensors';
import { syntheticCheckpointConfig, syntheticGenerationConfig } from './synthetic-config';

const PROJECTION = ['talker.code_predictor.small_to_mtp_projection.weight', 'talker.code_predictor.small_to_mtp_projection.bias'];

function tensorsOf(size: '0.6b' | '1.7b' | 'tiny' | 'tiny-1.7b', modelType: 'custom_voice' | 'voice_design' = 'custom_voice'): ExpectedTensor[] {
  return expectedCheckpointTensors(parseCheckpointConfig(syntheticCheckpointConfig(size, modelType), syntheticGenerationConfig()));
}

const shapeOf = (tensors: ExpectedTensor[], name: string) => tensors.find((t) => t.name === name)?.shape;

describe('1.7B checkpoint tensors', () => {
  const t17 = tensorsOf('1.7b');

  it('holds the 0.6B names plus the talker→code-predictor projection, last (registered after lm_head)', () => {
    const names06 = tensorsOf('0.6b').map((t) => t.name);
    expect(names06.filter((n) => n.includes('small_to_mtp'))).toEqual([]);
    expect(t17.map((t) => t.name)).toEqual([...names06, ...PROJECTION]);
  });

  it('has the shapes the official constructors give at talker width 2048, MLP 6144, code predictor 1024', () => {
    // Qwen3TTSTalkerAttention: q 16×128 = 2048 outputs, k/v 8×128 = 1024; Qwen3TTSTalkerModel: Embedding(3072, 2048)
    const expected: Record<string, number[]> = {
      'talker.model.layers.27.self_attn.q_proj.weight': [2048, 2048],
      'talker.model.layers.27.self_attn.k_proj.weight': [1024, 2048],
      'talker.model.layers.27.self_attn.o_proj.weight': [2048, 2048],
      'talker.model.layers.27.mlp.gate_proj.weight': [6144, 2048],
      'talker.model.layers.27.mlp.down_proj.weight': [2048, 6144],
      'talker.model.codec_embedding.weight': [3072, 2048],
      'talker.model.text_embedding.weight': [151936, 2048],
      // ResizeMLP(text_hidden 2048 → 2048 → hidden 2048): square at 1.7B, [1024, 2048] at 0.6B
      'talker.text_projection.linear_fc1.weight': [2048, 2048],
      'talker.text_projection.linear_fc2.weight': [2048, 2048],
      'talker.text_projection.linear_fc2.bias': [2048],
      'talker.codec_head.weight': [3072, 2048],
      // code predictor: its own layers stay 1024 wide (q 16×128 = 2048)
      'talker.code_predictor.model.layers.4.self_attn.q_proj.weight': [2048, 1024],
      'talker.code_predictor.model.layers.4.mlp.up_proj.weight': [3072, 1024],
      // Qwen3TTSTalkerCodePredictorModel(config, talker_config.hidden_size): tables are talker-wide
      'talker.code_predictor.model.codec_embedding.14.weight': [2048, 2048],
      'talker.code_predictor.lm_head.14.weight': [2048, 1024],
      // nn.Linear(talker hidden 2048, code predictor hidden 1024, bias=True)
      'talker.code_predictor.small_to_mtp_projection.weight': [1024, 2048],
      'talker.code_predictor.small_to_mtp_projection.bias': [1024],
    };
    for (const [name, shape] of Object.entries(expected)) expect(shapeOf(t17, name), name).toEqual(shape);
  });

  it('counts 1,916,676,352 talker-side parameters', () => {
    // talker layers 28 × 50,336,000 + norm 2,048 = 1,409,410,048; embeddings, text projection and codec_head
    // 332,140,544; code predictor 5 × 15,730,944 + 1,024 + tables 62,914,560 + heads 31,457,280 + projection 2,098,176 = 175,125,760
    const numParams = t17.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
    expect(numParams).toBe(1_916_676_352);
  });

  it('gives VoiceDesign exactly the CustomVoice tensors (the types differ in config and weights only)', () => {
    expect(tensorsOf('1.7b', 'voice_design')).toEqual(t17);
  });
});

describe('tiny-1.7b synthetic layout', () => {
  const config = parseCheckpointConfig(syntheticCheckpointConfig('tiny-1.7b'), syntheticGenerationConfig());

  it('keeps the 1.7B traits: a projection into a narrower code predictor and a square text projection', () => {
    expect(config.ttsModelSize).toBe('1b7');
    expect(config.codePredictor).toMatchObject({ hiddenSize: 32, inputSize: 64, hasInputProjection: true });
    expect(config.talker.textHiddenSize).toBe(config.talker.hiddenSize);
    const tensors = tensorsOf('tiny-1.7b');
    expect(shapeOf(tensors, PROJECTION[0])).toEqual([32, 64]);
    expect(shapeOf(tensors, 'talker.code_predictor.model.codec_embedding.0.weight')).toEqual([2048, 64]);
  });

  it('drops the preset speakers for VoiceDesign and keeps every language', () => {
    const design = parseCheckpointConfig(syntheticCheckpointConfig('tiny-1.7b', 'voice_design'), syntheticGenerationConfig());
    expect(design.ttsModelType).toBe('voice_design');
    expect(design.speakers).toEqual({});
    expect(design.languages).toEqual(config.languages);
  });
});
