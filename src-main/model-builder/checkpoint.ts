/**
 * Reads a Qwen3-TTS checkpoint folder as users' folders come: config.json, model.safetensors,
 * speech_tokenizer/{config.json, model.safetensors} and a text tokenizer (vocab.json + merges.txt, or
 * tokenizer.json) are required; generation_config.json and tokenizer_config.json are optional, exactly
 * as the runtime treats them (see OPTIONAL_CHECKPOINT_FILES). Checks every talker and code-predictor
 * tensor against the config and computes the fingerprint the build cache is keyed by. Build time only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { parseCheckpointConfig, type CheckpointConfig } from './checkpoint-config';
import { expectedCheckpointTensors } from './checkpoint-tensors';
import { SafetensorsFile } from './safetensors';
import { expectedSpeakerEncoderTensors, parseSpeakerEncoderConfig, type SpeakerEncoderConfig } from './speaker-encoder/speaker-encoder-config';
import { parseSpeechEncoderConfig, usedSpeechEncoderTensors, type SpeechEncoderConfig } from './speech-encoder/speech-encoder-config';

export const CHECKPOINT_FILES = {
  config: 'config.json',
  generationConfig: 'generation_config.json',
  weights: 'model.safetensors',
  vocab: 'vocab.json',
  merges: 'merges.txt',
  tokenizerConfig: 'tokenizer_config.json',
  speechTokenizerConfig: 'speech_tokenizer/config.json',
  speechTokenizerWeights: 'speech_tokenizer/model.safetensors',
} as const;

/**
 * Files a folder may lack, and what stands in for them. generation_config.json: the official wrapper's
 * hard defaults (checkpoint-config.ts), key by key as for a partial file. tokenizer_config.json: it only
 * declares the added tokens (<|im_start|>, <tts_pad>, …); the studio inserts every special token by the id
 * config.json gives, so without it the spoken text tokenizes the same except that a literal "<|im_end|>"
 * in the user's text stays plain text (which is safer). Builder and runtime both treat these as optional.
 */
export const OPTIONAL_CHECKPOINT_FILES: ReadonlySet<keyof typeof CHECKPOINT_FILES> = new Set(['generationConfig', 'tokenizerConfig']);

/** A tokenizer.json may stand in for vocab.json + merges.txt (the runtime reads either, tokenizer.json first). */
export const TOKENIZER_JSON_FILE = 'tokenizer.json';

/** The manifest `files` key of each tokenizer file a build copies. */
export const TOKENIZER_FILE_KEYS: Readonly<Record<string, 'vocab' | 'merges' | 'tokenizerJson' | 'tokenizerConfig'>> = {
  [CHECKPOINT_FILES.vocab]: 'vocab',
  [CHECKPOINT_FILES.merges]: 'merges',
  [TOKENIZER_JSON_FILE]: 'tokenizerJson',
  [CHECKPOINT_FILES.tokenizerConfig]: 'tokenizerConfig',
};

export interface Checkpoint {
  dir: string;
  config: CheckpointConfig;
  /** config.json as parsed JSON (kept for fields the typed config does not name). */
  rawConfig: Record<string, unknown>;
  speechTokenizerConfig: Record<string, unknown>;
  /** Base checkpoints: the speaker encoder's config (its tensors are checked too); null for the other types. */
  speakerEncoder: SpeakerEncoderConfig | null;
  /** Base checkpoints: the speech tokenizer encoder's config (its tensors in speech_tokenizer/model.safetensors are checked too); null for the other types. */
  speechEncoder: SpeechEncoderConfig | null;
  /** Open reader over model.safetensors; call close() when done. */
  weights: SafetensorsFile;
  /** Absolute paths of every checkpoint file (optional ones included: check `present` before reading). */
  paths: Record<keyof typeof CHECKPOINT_FILES, string>;
  /** Which of the files exist (every required one does, or openCheckpoint threw). */
  present: Record<keyof typeof CHECKPOINT_FILES, boolean>;
  /** The tokenizer files to copy into a build, relative to dir: tokenizer.json and/or vocab.json + merges.txt, plus tokenizer_config.json when present. */
  tokenizerFiles: string[];
  close(): void;
}

/** Opens and validates a checkpoint folder; throws model-missing / model-invalid with the file and the fix. */
export function openCheckpoint(dir: string): Checkpoint {
  const absDir = path.resolve(dir);
  if (!fs.existsSync(absDir) || !fs.statSync(absDir).isDirectory()) {
    throw new StudioError('model-missing', `checkpoint folder ${absDir} does not exist; pass the folder that holds config.json and model.safetensors`, { dir: absDir });
  }
  const paths = Object.fromEntries(Object.entries(CHECKPOINT_FILES).map(([k, rel]) => [k, path.join(absDir, rel)])) as Checkpoint['paths'];
  const present = Object.fromEntries(Object.entries(paths).map(([k, p]) => [k, fs.existsSync(p)])) as Checkpoint['present'];
  const hasTokenizerJson = fs.existsSync(path.join(absDir, TOKENIZER_JSON_FILE));
  const missing = (Object.keys(CHECKPOINT_FILES) as (keyof typeof CHECKPOINT_FILES)[]).filter((key) => {
    if (present[key] || OPTIONAL_CHECKPOINT_FILES.has(key)) return false;
    return !((key === 'vocab' || key === 'merges') && hasTokenizerJson);
  });
  if (missing.length > 0) {
    const names = missing.map((key) => CHECKPOINT_FILES[key]);
    const tokenizerHint = missing.some((k) => k === 'vocab' || k === 'merges') ? ' (vocab.json + merges.txt, or a tokenizer.json)' : '';
    throw new StudioError('model-missing', `checkpoint ${absDir} has no ${names.join(', ')}${tokenizerHint}; download the full checkpoint folder (or write one with 'studio model synth')`, {
      dir: absDir,
      file: names[0],
      missing: names.join(','),
    });
  }
  const tokenizerFiles = [
    ...(hasTokenizerJson ? [TOKENIZER_JSON_FILE] : []),
    ...(present.vocab && present.merges ? [CHECKPOINT_FILES.vocab, CHECKPOINT_FILES.merges] : []),
    ...(present.tokenizerConfig ? [CHECKPOINT_FILES.tokenizerConfig] : []),
  ];
  const rawConfig = readJson(paths.config);
  const config = parseCheckpointConfig(rawConfig, present.generationConfig ? readJson(paths.generationConfig) : {}, paths.config);
  const speechTokenizerConfig = readJson(paths.speechTokenizerConfig);
  const speakerEncoder = config.ttsModelType === 'base' ? parseSpeakerEncoderConfig(readObject(rawConfig, 'speaker_encoder_config', paths.config)) : null;
  if (speakerEncoder && speakerEncoder.encDim !== config.talker.hiddenSize) {
    throw new StudioError('model-invalid', `speaker_encoder_config.enc_dim is ${speakerEncoder.encDim} but the talker is ${config.talker.hiddenSize} wide; the x-vector must match talker_config.hidden_size`, {
      key: 'speaker_encoder_config.enc_dim',
    });
  }
  const speechEncoder = config.ttsModelType === 'base' ? checkSpeechEncoder(speechTokenizerConfig, paths) : null;
  const weights = SafetensorsFile.open(paths.weights);
  try {
    checkTensorShapes(config, weights, speakerEncoder);
  } catch (err) {
    weights.close();
    throw err;
  }
  return { dir: absDir, config, rawConfig, speechTokenizerConfig, speakerEncoder, speechEncoder, weights, paths, present, tokenizerFiles, close: () => weights.close() };
}

/** Base: the speech tokenizer must ship its encoder (in-context cloning): config, and every tensor the encode path reads with the implied shape. */
function checkSpeechEncoder(tokenizerConfig: Record<string, unknown>, paths: Checkpoint['paths']): SpeechEncoderConfig {
  const config = parseSpeechEncoderConfig(tokenizerConfig, paths.speechTokenizerConfig);
  const file = SafetensorsFile.open(paths.speechTokenizerWeights);
  try {
    const stored = new Set(file.names());
    const missing = usedSpeechEncoderTensors(config).filter((t) => !stored.has(t.name));
    if (missing.length > 0) {
      throw new StudioError('model-invalid', `${paths.speechTokenizerWeights} lacks ${missing.length} encoder tensors (first: ${missing[0].name}); a Base checkpoint's speech tokenizer ships its encoder for voice cloning, download the full speech_tokenizer folder`, {
        file: paths.speechTokenizerWeights,
        tensor: missing[0].name,
      });
    }
    for (const t of usedSpeechEncoderTensors(config)) {
      const shape = file.info(t.name).shape;
      if (shape.join(',') !== t.shape.join(',')) {
        throw new StudioError('model-invalid', `${t.name} is [${shape.join(', ')}] but speech_tokenizer/config.json implies [${t.shape.join(', ')}]; the speech tokenizer's files do not match`, { file: paths.speechTokenizerWeights, tensor: t.name });
      }
    }
  } finally {
    file.close();
  }
  return config;
}

/** Every expected tensor (the speaker encoder's too, for Base) must exist with exactly the shape the config implies. */
export function checkTensorShapes(config: CheckpointConfig, weights: SafetensorsFile, speakerEncoder: SpeakerEncoderConfig | null = null): void {
  const expected = [...expectedCheckpointTensors(config), ...(speakerEncoder ? expectedSpeakerEncoderTensors(speakerEncoder) : [])];
  for (const t of expected) {
    if (!weights.has(t.name)) {
      throw new StudioError('model-invalid', `${weights.filePath} lacks tensor '${t.name}' (expected shape [${t.shape.join(', ')}]); the weights do not match config.json`, {
        tensor: t.name,
        expectedShape: t.shape,
      });
    }
    const actual = weights.info(t.name).shape;
    if (actual.length !== t.shape.length || actual.some((d, i) => d !== t.shape[i])) {
      throw new StudioError('model-invalid', `tensor '${t.name}' has shape [${actual.join(', ')}] but config.json implies [${t.shape.join(', ')}]; the weights and config.json come from different models`, {
        tensor: t.name,
        expectedShape: t.shape,
        actualShape: actual,
      });
    }
  }
}

const NUM_SAMPLE_WINDOWS = 64;
const SAMPLE_WINDOW_BYTES = 64 * 1024;

/**
 * sha256 fingerprint of a checkpoint: the config, generation config and tokenizer files in full, plus
 * for each safetensors file its size, header and 64 windows of 64 KiB spread evenly over the data.
 * Reads ~8 MB instead of gigabytes; any retrained weights change the sampled bytes. An absent optional
 * file hashes as absent (a folder with every file keeps the fingerprint it had before they were optional).
 */
export function checkpointFingerprint(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const rel of Object.values(CHECKPOINT_FILES)) {
    const p = path.join(dir, rel);
    if (!fs.existsSync(p)) {
      hash.update(`absent:${rel}\n`);
      continue;
    }
    hash.update(`file:${rel}\n`);
    if (rel.endsWith('.safetensors')) hashSampled(hash, p);
    else hash.update(fs.readFileSync(p));
  }
  const tokenizerJson = path.join(dir, TOKENIZER_JSON_FILE);
  if (fs.existsSync(tokenizerJson)) hash.update(`file:${TOKENIZER_JSON_FILE}\n`).update(fs.readFileSync(tokenizerJson));
  return hash.digest('hex');
}

function hashSampled(hash: crypto.Hash, filePath: string): void {
  const fd = fs.openSync(filePath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    hash.update(`size:${size}\n`);
    const buffer = Buffer.alloc(SAMPLE_WINDOW_BYTES);
    const read = (position: number) => hash.update(buffer.subarray(0, fs.readSync(fd, buffer, 0, SAMPLE_WINDOW_BYTES, position)));
    read(0);
    for (let i = 1; i <= NUM_SAMPLE_WINDOWS; i++) read(Math.max(0, Math.floor((size * i) / (NUM_SAMPLE_WINDOWS + 1)) - SAMPLE_WINDOW_BYTES / 2));
    read(Math.max(0, size - SAMPLE_WINDOW_BYTES));
  } finally {
    fs.closeSync(fd);
  }
}

function readObject(json: Record<string, unknown>, key: string, source: string): Record<string, unknown> {
  const v = json[key];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new StudioError('model-invalid', `${source}: key '${key}' is missing or not an object; a Base checkpoint needs it for its speaker encoder`, { key });
  }
  return v as Record<string, unknown>;
}

function readJson(filePath: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(filePath, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new StudioError('model-invalid', `${filePath} is not valid JSON (${(err as Error).message}); download the file again`, { path: filePath });
  }
}
