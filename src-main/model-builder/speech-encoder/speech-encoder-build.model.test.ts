// Model tier: opening a Base checkpoint for a build checks its speech tokenizer's encoder before any
// graph is written: no encoder_config, encoder tensors missing or of the wrong shape are refused,
// naming the file and the fix; other model types never need it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpoint } from '../checkpoint';
import { syntheticCodecTensors } from '../codec/synthetic-codec';
import { writeSafetensors } from '../safetensors';
import { ensureTinyVariant } from '../tiny-model';
import { syntheticSpeechEncoderTensors } from './synthetic-speech-encoder';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-encoder-build-'));
let baseCheckpoint: string;

beforeAll(async () => {
  ({ checkpointDir: baseCheckpoint } = await ensureTinyVariant({ size: 'tiny', modelType: 'base' }));
}, 240_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the tiny Base checkpoint whose speech tokenizer is rewritten by `edit`. */
function copyWith(name: string, edit: (tokenizerDir: string, config: Record<string, unknown>) => void): string {
  const dir = path.join(tmp, name);
  fs.cpSync(baseCheckpoint, dir, { recursive: true });
  const tokenizerDir = path.join(dir, 'speech_tokenizer');
  const config = JSON.parse(fs.readFileSync(path.join(tokenizerDir, 'config.json'), 'utf8')) as Record<string, unknown>;
  edit(tokenizerDir, config);
  fs.writeFileSync(path.join(tokenizerDir, 'config.json'), JSON.stringify(config));
  return dir;
}

describe('Base checkpoint and its speech tokenizer encoder', () => {
  it('refuses a speech tokenizer config without encoder_config', () => {
    const dir = copyWith('no-config', (_, config) => delete config.encoder_config);
    expect(() => openCheckpoint(dir)).toThrow(/has no encoder_config; voice cloning in context needs the speech tokenizer's encoder/);
  });

  it('refuses a speech tokenizer whose weights hold the decoder only, naming the first missing tensor', () => {
    const dir = copyWith('decoder-only', (tokenizerDir) => writeSafetensors(path.join(tokenizerDir, 'model.safetensors'), syntheticCodecTensors('tiny', 1), 'F32'));
    expect(() => openCheckpoint(dir)).toThrow(/lacks \d+ encoder tensors \(first: encoder\.encoder\.layers\.0\.conv\.weight\).*download the full speech_tokenizer folder/);
  });

  it('refuses encoder tensors whose shapes do not match the config', () => {
    const dir = copyWith('wrong-width', (tokenizerDir, config) => {
      const encoder = { ...(config.encoder_config as Record<string, unknown>), num_filters: 8 };
      writeSafetensors(path.join(tokenizerDir, 'model.safetensors'), [...syntheticCodecTensors('tiny', 1), ...syntheticSpeechEncoderTensors(encoder, 1)], 'F32');
    });
    expect(() => openCheckpoint(dir)).toThrow(/encoder\.encoder\.layers\.0\.conv\.weight is \[8, 1, 7\] but speech_tokenizer\/config\.json implies \[4, 1, 7\]/);
  });

  it('opens the intact Base checkpoint with the encoder config (16 of 20 tiny quantizers, 1920 samples a frame)', () => {
    const checkpoint = openCheckpoint(baseCheckpoint);
    try {
      expect(checkpoint.speechEncoder).toMatchObject({ numValidQuantizers: 16, numQuantizers: 20, samplesPerFrame: 1920, codebookSize: 2048 });
    } finally {
      checkpoint.close();
    }
  });
});
