/**
 * config.json and generation_config.json contents of the synthetic checkpoints. All sizes start from
 * the official 0.6B config (so every special, speaker and language id is real) and change only dims:
 * tiny is a 2-layer, 64-wide talker with a 16-wide text embedding over the full 151,936-id vocabulary;
 * 1.7b uses the published 1.7B widths (talker 2048 / MLP 6144, code predictor 1024 with a projection);
 * tiny-1.7b is tiny with the 1.7B *layout*: text width = talker width (a square text_projection.fc2) and
 * a code predictor narrower than the talker, so small_to_mtp_projection exists (64 → 32).
 * The model type is independent of the size; VoiceDesign and Base have no speakers, and Base carries a
 * speaker encoder whose x-vector is as wide as the talker.
 */
import officialConfig from './fixtures/official-0.6b-config.json';
import { syntheticSpeakerEncoderConfig } from './speaker-encoder/synthetic-speaker-encoder';

export type SyntheticSize = 'tiny' | 'tiny-1.7b' | '0.6b' | '1.7b';
export const SYNTHETIC_SIZES: readonly SyntheticSize[] = ['tiny', 'tiny-1.7b', '0.6b', '1.7b'];

/** The checkpoint types a synthetic folder can imitate (config.json tts_model_type). */
export type SyntheticModelType = 'custom_voice' | 'voice_design' | 'base';
export const SYNTHETIC_MODEL_TYPES: readonly SyntheticModelType[] = ['custom_voice', 'voice_design', 'base'];

/** config.json key that marks a synthetic checkpoint; the official code ignores unknown keys. */
export const SYNTHETIC_MARKER_KEY = 'studio_synthetic';

export function syntheticCheckpointConfig(size: SyntheticSize, modelType: SyntheticModelType = 'custom_voice'): Record<string, unknown> {
  const config = structuredClone(officialConfig) as Record<string, unknown> & {
    talker_config: Record<string, unknown> & { code_predictor_config: Record<string, unknown> };
  };
  const talker = config.talker_config;
  const cp = talker.code_predictor_config;
  switch (size) {
    case '0.6b':
      break;
    case '1.7b':
      Object.assign(talker, { hidden_size: 2048, intermediate_size: 6144 });
      config.tts_model_size = '1b7';
      break;
    case 'tiny': {
      const dims = { hidden_size: 64, intermediate_size: 128, num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 16 };
      Object.assign(talker, dims, { text_hidden_size: 16 });
      Object.assign(cp, dims, { layer_types: ['full_attention', 'full_attention'] });
      break;
    }
    case 'tiny-1.7b': {
      // the 1.7B ratios: MLP 3× the talker width, text width = talker width, code predictor half as wide
      const attention = { num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 16 };
      Object.assign(talker, attention, { hidden_size: 64, intermediate_size: 192, text_hidden_size: 64 });
      Object.assign(cp, attention, { hidden_size: 32, intermediate_size: 96, layer_types: ['full_attention', 'full_attention'] });
      config.tts_model_size = '1b7';
      break;
    }
  }
  if (modelType !== 'custom_voice') {
    // VoiceDesign takes its timbre from the description, Base from a reference clip: no preset speakers (spec §1 model table)
    config.tts_model_type = modelType;
    talker.spk_id = {};
    talker.spk_is_dialect = {};
  }
  if (modelType === 'base') {
    const isTiny = size === 'tiny' || size === 'tiny-1.7b';
    config.speaker_encoder_config = syntheticSpeakerEncoderConfig(isTiny ? 'tiny' : 'full', talker.hidden_size as number);
  }
  // Marks the folder as synthetic (random weights, noise) so every UI can say so plainly.
  config[SYNTHETIC_MARKER_KEY] = true;
  return config;
}

/** Sampling defaults as reported for the official checkpoints (spec §3.1). */
export function syntheticGenerationConfig(): Record<string, unknown> {
  return {
    do_sample: true,
    temperature: 0.9,
    top_k: 50,
    top_p: 1.0,
    repetition_penalty: 1.05,
    subtalker_dosample: true,
    subtalker_temperature: 0.9,
    subtalker_top_k: 50,
    subtalker_top_p: 1.0,
    max_new_tokens: 8192,
  };
}
