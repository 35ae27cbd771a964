/**
 * Reads an official Qwen3-TTS checkpoint folder: config.json, generation_config.json, model.safetensors,
 * vocab.json + merges.txt + tokenizer_config.json, speech_tokenizer/{config.json, model.safetensors}.
 * Checks every talker and code-predictor tensor against the config (name, expected and actual shape)
 * and computes the checkpoint fingerprint the build cache is keyed by. Build time only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { parseCheckpointConfig, type CheckpointConfig } from './checkpoint-config';
import { expectedCheckpointTensors } from './checkpoint-tensors';
import { SafetensorsFile } from './safetensors';

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

export interface Checkpoint {
  dir: string;
  config: CheckpointConfig;
  /** config.json as parsed JSON (kept for fields the typed config does not name). */
  rawConfig: Record<string, unknown>;
  speechTokenizerConfig: Record<string, unknown>;
  /** Open reader over model.safetensors; call close() when done. */
  weights: SafetensorsFile;
  /** Absolute paths of every checkpoint file. */
  paths: Record<keyof typeof CHECKPOINT_FILES, string>;
  close(): void;
}

/** Opens and validates a checkpoint folder; throws model-missing / model-invalid with the file and the fix. */
export function openCheckpoint(dir: string): Checkpoint {
  const absDir = path.resolve(dir);
  const paths = Object.fromEntries(Object.entries(CHECKPOINT_FILES).map(([k, rel]) => [k, path.join(absDir, rel)])) as Checkpoint['paths'];
  for (const [key, p] of Object.entries(paths)) {
    if (!fs.existsSync(p)) {
      throw new StudioError('model-missing', `checkpoint ${absDir} has no ${CHECKPOINT_FILES[key as keyof typeof CHECKPOINT_FILES]}; download the full checkpoint folder (or write one with 'studio model synth')`, {
        dir: absDir,
        file: CHECKPOINT_FILES[key as keyof typeof CHECKPOINT_FILES],
      });
    }
  }
  const rawConfig = readJson(paths.config);
  const config = parseCheckpointConfig(rawConfig, readJson(paths.generationConfig), paths.config);
  const speechTokenizerConfig = readJson(paths.speechTokenizerConfig);
  const weights = SafetensorsFile.open(paths.weights);
  try {
    checkTensorShapes(config, weights);
  } catch (err) {
    weights.close();
    throw err;
  }
  return { dir: absDir, config, rawConfig, speechTokenizerConfig, weights, paths, close: () => weights.close() };
}

/** Every expected tensor must exist with exactly the shape the config implies. */
export function checkTensorShapes(config: CheckpointConfig, weights: SafetensorsFile): void {
  for (const t of expectedCheckpointTensors(config)) {
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
 * Reads ~8 MB instead of gigabytes; any retrained weights change the sampled bytes.
 */
export function checkpointFingerprint(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const rel of Object.values(CHECKPOINT_FILES)) {
    const p = path.join(dir, rel);
    hash.update(`file:${rel}\n`);
    if (rel.endsWith('.safetensors')) hashSampled(hash, p);
    else hash.update(fs.readFileSync(p));
  }
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

function readJson(filePath: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(filePath, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new StudioError('model-invalid', `${filePath} is not valid JSON (${(err as Error).message}); download the file again`, { path: filePath });
  }
}
