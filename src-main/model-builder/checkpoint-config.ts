/**
 * Typed view of a checkpoint's config.json and generation_config.json. Pure: takes parsed JSON,
 * returns CheckpointConfig; every dim and id comes from the JSON, and a missing or mistyped key
 * throws model-invalid naming its key path. Only sampling defaults fall back to the official wrapper's.
 */
import { StudioError } from '../../src-shared/errors';
import type { CodePredictorDims, GenerationDefaults, ModelManifest, SpeakerSpec, TalkerDims } from '../model-format/manifest';

/** What config.json says, in the manifest's own shapes (the manifest copies these fields verbatim). */
export type CheckpointConfig = Pick<
  ModelManifest,
  'ttsModelType' | 'ttsModelSize' | 'numCodeGroups' | 'talker' | 'codePredictor' | 'textTokens' | 'codecTokens' | 'speakers' | 'languages' | 'generation'
>;

type Json = Record<string, unknown>;

/** Official wrapper defaults (qwen3_tts_model.py _merge_generate_kwargs), used only for keys generation_config.json lacks. */
export function defaultGenerationDefaults(): GenerationDefaults {
  return {
    doSample: true,
    temperature: 0.9,
    topK: 50,
    topP: 1.0,
    repetitionPenalty: 1.05,
    subtalkerDoSample: true,
    subtalkerTemperature: 0.9,
    subtalkerTopK: 50,
    subtalkerTopP: 1.0,
    maxNewTokens: 2048,
    minNewTokens: 2,
  };
}

export function parseCheckpointConfig(config: Json, generationConfig: Json, source = 'config.json'): CheckpointConfig {
  const read = new KeyReader(source);
  const talkerJson = read.object(config, 'talker_config');
  const cpJson = read.object(talkerJson, 'code_predictor_config', 'talker_config.');
  const talkerBase = readDims(read, talkerJson, 'talker_config.');
  const talker: TalkerDims = {
    ...talkerBase,
    textVocabSize: read.int(talkerJson, 'text_vocab_size', 'talker_config.'),
    textHiddenSize: read.int(talkerJson, 'text_hidden_size', 'talker_config.'),
  };
  const cpBase = readDims(read, cpJson, 'talker_config.code_predictor_config.');
  const codePredictor: CodePredictorDims = { ...cpBase, inputSize: talker.hiddenSize, hasInputProjection: talker.hiddenSize !== cpBase.hiddenSize };
  const speakerIds = read.object(talkerJson, 'spk_id', 'talker_config.');
  const dialects = (talkerJson.spk_is_dialect ?? {}) as Json;
  const speakers: Record<string, SpeakerSpec> = {};
  for (const name of Object.keys(speakerIds)) {
    const dialect = dialects[name];
    speakers[name.toLowerCase()] = { codecId: read.int(speakerIds, name, 'talker_config.spk_id.'), dialect: typeof dialect === 'string' ? dialect : null };
  }
  const languageIds = read.object(talkerJson, 'codec_language_id', 'talker_config.');
  const languages: Record<string, number> = {};
  for (const name of Object.keys(languageIds)) languages[name.toLowerCase()] = read.int(languageIds, name, 'talker_config.codec_language_id.');
  const t = 'talker_config.';
  return {
    ttsModelType: read.string(config, 'tts_model_type'),
    ttsModelSize: read.string(config, 'tts_model_size'),
    numCodeGroups: read.int(talkerJson, 'num_code_groups', t),
    talker,
    codePredictor,
    textTokens: {
      imStart: read.int(config, 'im_start_token_id'),
      imEnd: read.int(config, 'im_end_token_id'),
      ttsPad: read.int(config, 'tts_pad_token_id'),
      ttsBos: read.int(config, 'tts_bos_token_id'),
      ttsEos: read.int(config, 'tts_eos_token_id'),
    },
    codecTokens: {
      eos: read.int(talkerJson, 'codec_eos_token_id', t),
      think: read.int(talkerJson, 'codec_think_id', t),
      nothink: read.int(talkerJson, 'codec_nothink_id', t),
      thinkBos: read.int(talkerJson, 'codec_think_bos_id', t),
      thinkEos: read.int(talkerJson, 'codec_think_eos_id', t),
      pad: read.int(talkerJson, 'codec_pad_id', t),
      bos: read.int(talkerJson, 'codec_bos_id', t),
    },
    speakers,
    languages,
    generation: parseGenerationDefaults(generationConfig),
  };
}

function readDims(read: KeyReader, json: Json, prefix: string) {
  return {
    numLayers: read.int(json, 'num_hidden_layers', prefix),
    hiddenSize: read.int(json, 'hidden_size', prefix),
    intermediateSize: read.int(json, 'intermediate_size', prefix),
    numHeads: read.int(json, 'num_attention_heads', prefix),
    numKvHeads: read.int(json, 'num_key_value_heads', prefix),
    headDim: read.int(json, 'head_dim', prefix),
    rmsNormEps: read.number(json, 'rms_norm_eps', prefix),
    ropeTheta: readRopeTheta(read, json, prefix),
    maxPositionEmbeddings: read.int(json, 'max_position_embeddings', prefix),
    vocabSize: read.int(json, 'vocab_size', prefix),
  };
}

/** rope_theta sits at the top level in some transformers versions and inside rope_parameters / rope_scaling in others. */
function readRopeTheta(read: KeyReader, json: Json, prefix: string): number {
  if (typeof json.rope_theta === 'number') return json.rope_theta;
  for (const key of ['rope_parameters', 'rope_scaling']) {
    const nested = json[key] as Json | undefined;
    if (nested && typeof nested.rope_theta === 'number') return nested.rope_theta;
  }
  return read.number(json, 'rope_theta', prefix);
}

function parseGenerationDefaults(json: Json): GenerationDefaults {
  const d = defaultGenerationDefaults();
  const pick = <T>(key: string, fallback: T, kind: 'number' | 'boolean'): T => {
    const v = json[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== kind) {
      throw new StudioError('model-invalid', `generation_config.json key '${key}' is ${JSON.stringify(v)}, expected a ${kind}; fix or delete the key`, { key });
    }
    return v as T;
  };
  return {
    doSample: pick('do_sample', d.doSample, 'boolean'),
    temperature: pick('temperature', d.temperature, 'number'),
    topK: pick('top_k', d.topK, 'number'),
    topP: pick('top_p', d.topP, 'number'),
    repetitionPenalty: pick('repetition_penalty', d.repetitionPenalty, 'number'),
    subtalkerDoSample: pick('subtalker_dosample', d.subtalkerDoSample, 'boolean'),
    subtalkerTemperature: pick('subtalker_temperature', d.subtalkerTemperature, 'number'),
    subtalkerTopK: pick('subtalker_top_k', d.subtalkerTopK, 'number'),
    subtalkerTopP: pick('subtalker_top_p', d.subtalkerTopP, 'number'),
    maxNewTokens: pick('max_new_tokens', d.maxNewTokens, 'number'),
    minNewTokens: pick('min_new_tokens', d.minNewTokens, 'number'),
  };
}

class KeyReader {
  constructor(private readonly source: string) {}

  private fail(path: string, value: unknown, expected: string): never {
    const found = value === undefined ? 'missing' : `${JSON.stringify(value)}`;
    throw new StudioError('model-invalid', `${this.source}: key '${path}' is ${found}, expected ${expected}; the checkpoint config is incomplete or not a Qwen3-TTS config`, {
      file: this.source,
      key: path,
    });
  }

  object(json: Json, key: string, prefix = ''): Json {
    const v = json[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(prefix + key, v, 'an object');
    return v as Json;
  }

  int(json: Json, key: string, prefix = ''): number {
    const v = json[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) this.fail(prefix + key, v, 'a non-negative integer');
    return v as number;
  }

  number(json: Json, key: string, prefix = ''): number {
    const v = json[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(prefix + key, v, 'a number');
    return v as number;
  }

  string(json: Json, key: string, prefix = ''): string {
    const v = json[key];
    if (typeof v !== 'string') this.fail(prefix + key, v, 'a string');
    return v as string;
  }
}
