/**
 * Writes synthetic checkpoints in the official folder layout with seeded random weights: config.json,
 * generation_config.json, model.safetensors (bf16 like the official, or fp32), the real Qwen2 tokenizer
 * files and speech_tokenizer/ from the synthetic decoder (and, for Base, encoder). Tensors stream to disk in
 * chunks, so even 1.7B needs little memory. The weights produce noise, not speech.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { syntheticCodecConfig, syntheticCodecTensors } from './codec/synthetic-codec';
import { parseCheckpointConfig } from './checkpoint-config';
import { expectedCheckpointTensors, type ExpectedTensor } from './checkpoint-tensors';
import type { OnProgress } from './progress';
import { SafetensorsWriter, writeSafetensors, type FloatStorage } from './safetensors';
import { fillUniform, streamKey } from './seeded-random';
import { syntheticSpeakerEncoderTensors } from './speaker-encoder/synthetic-speaker-encoder';
import { syntheticSpeechEncoderConfig, syntheticSpeechEncoderTensors } from './speech-encoder/synthetic-speech-encoder';
import { syntheticCheckpointConfig, syntheticGenerationConfig, type SyntheticModelType, type SyntheticSize } from './synthetic-config';
import { writeTokenizerFiles } from './tokenizer-files';

export type { OnProgress, ProgressEvent } from './progress';

export interface SyntheticCheckpointOptions {
  size: SyntheticSize;
  /** config.json tts_model_type; default custom_voice. */
  modelType?: SyntheticModelType;
  seed: number;
  outDir: string;
  /** Storage of model.safetensors; default BF16 (as the official files). */
  dtype?: FloatStorage;
  onProgress?: OnProgress;
}

const CHUNK_ELEMENTS = 1 << 22;

/**
 * Amplitude and offset of the uniform weights, chosen so activations stay O(1) at any depth and
 * length: linear weights have variance 1/fanIn, norms sit near 1, embeddings are O(1) (RMSNorm rescales).
 */
function weightScale(t: ExpectedTensor): { amplitude: number; offset: number } {
  switch (t.role) {
    case 'linear':
      return { amplitude: Math.sqrt(3 / t.shape[1]), offset: 0 };
    case 'norm':
      return { amplitude: 0.1, offset: 1 };
    case 'bias':
      return { amplitude: 0.02, offset: 0 };
    case 'embedding':
      return { amplitude: 1, offset: 0 };
  }
}

export async function writeSyntheticCheckpoint(options: SyntheticCheckpointOptions): Promise<{ checkpointDir: string }> {
  const { size, seed, outDir } = options;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new StudioError('invalid-argument', `seed must be an integer in [0, 2^32) but is ${seed}; pass a 32-bit seed`, { seed });
  }
  const report = options.onProgress ?? (() => {});
  fs.mkdirSync(path.join(outDir, 'speech_tokenizer'), { recursive: true });
  const modelType = options.modelType ?? 'custom_voice';
  const rawConfig = syntheticCheckpointConfig(size, modelType);
  const codecSize = size === 'tiny-1.7b' ? 'tiny' : size;
  const generationConfig = syntheticGenerationConfig();
  fs.writeFileSync(path.join(outDir, 'config.json'), JSON.stringify(rawConfig, null, 2));
  fs.writeFileSync(path.join(outDir, 'generation_config.json'), JSON.stringify(generationConfig, null, 2));
  writeTokenizerFiles(outDir);

  const config = parseCheckpointConfig(rawConfig, generationConfig);
  const tensors = expectedCheckpointTensors(config);
  const dtype = options.dtype ?? 'BF16';
  const totalElements = tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
  const weightsPath = path.join(outDir, 'model.safetensors');
  const partialPath = `${weightsPath}.partial`;
  // Base: the speaker encoder's tensors follow the talker's (small: 48 MB at full size, generated whole)
  const speakerTensors = modelType === 'base' ? [...syntheticSpeakerEncoderTensors(rawConfig.speaker_encoder_config as Record<string, unknown>, seed)] : [];
  const header = [...tensors, ...speakerTensors].map((t) => ({ name: t.name, shape: t.shape, dtype }));
  const writer = SafetensorsWriter.create(partialPath, header, {
    format: 'pt',
    synthetic: `qwen3-tts-studio size=${size}${modelType === 'custom_voice' ? '' : ` type=${modelType}`} seed=${seed}`,
  });
  let doneElements = 0;
  const chunk = new Float32Array(CHUNK_ELEMENTS);
  for (const t of tensors) {
    const numElements = t.shape.reduce((a, b) => a * b, 1);
    const key = streamKey(seed, t.name);
    const { amplitude, offset } = weightScale(t);
    for (let first = 0; first < numElements; first += CHUNK_ELEMENTS) {
      const part = chunk.subarray(0, Math.min(CHUNK_ELEMENTS, numElements - first));
      fillUniform(part, key, first, amplitude, offset);
      writer.write(part);
      doneElements += part.length;
      report({ phase: 'talker-weights', done: doneElements, total: totalElements });
      if (numElements > CHUNK_ELEMENTS) await yieldToEventLoop();
    }
  }
  for (const t of speakerTensors) writer.write(t.data);
  writer.close();
  fs.renameSync(partialPath, weightsPath);

  report({ phase: 'speech-tokenizer', done: 0, total: 1 });
  // Base: the speech tokenizer also ships its encoder (in-context cloning), after the decoder's tensors
  const tokenizerConfig = syntheticCodecConfig(codecSize);
  const encoderConfig = modelType === 'base' ? syntheticSpeechEncoderConfig(codecSize === 'tiny' ? 'tiny' : 'full') : null;
  if (encoderConfig) tokenizerConfig.encoder_config = encoderConfig;
  fs.writeFileSync(path.join(outDir, 'speech_tokenizer', 'config.json'), JSON.stringify(tokenizerConfig, null, 2));
  const tokenizerTensors = encoderConfig ? chain(syntheticCodecTensors(codecSize, seed), syntheticSpeechEncoderTensors(encoderConfig, seed)) : syntheticCodecTensors(codecSize, seed);
  writeSafetensors(path.join(outDir, 'speech_tokenizer', 'model.safetensors'), tokenizerTensors, 'F32', { format: 'pt' });
  report({ phase: 'speech-tokenizer', done: 1, total: 1 });
  return { checkpointDir: outDir };
}

function* chain<T>(...parts: Iterable<T>[]): Iterable<T> {
  for (const part of parts) yield* part;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
