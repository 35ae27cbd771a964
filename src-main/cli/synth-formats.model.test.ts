/**
 * `studio synth -o clip.<ext>` on the tiny model writes the format its extension names (it used to
 * write WAV bytes into clip.mp3): an MP3 led by its Info frame that mpg123 decodes to exactly the
 * WAV's samples from the same seed (output-format.test.ts covers the other extensions).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { decodeIndependently } from '../audio/testing/decode-independently';
import { readMp3InfoTag } from '../audio/mp3-info-tag';
import { runCli } from './cli';

let modelDir: string;
let dataDir: string;

beforeAll(async () => {
  modelDir = (await ensureTinyModel()).builtDir;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-formats-'));
}, 120_000);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function synth(file: string): Promise<Uint8Array> {
  const out = path.join(dataDir, file);
  vi.stubEnv('STUDIO_DATA_DIR', dataDir);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    // maxNewTokens 6 caps the run at 6 frames: a short clip, the same for every format
    expect(await runCli(['synth', 'Formats follow the extension.', '--voice', 'ryan', '--language', 'english', '--seed', '3', '--max-new-tokens', '6', '--model', modelDir, '--provider', 'cpu', '-o', out])).toBe(0);
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
  return new Uint8Array(fs.readFileSync(out));
}

describe('studio synth -o follows the extension', () => {
  it('writes MP3 to clip.mp3 that decodes to the WAV\'s sample count', async () => {
    const wav = await decodeIndependently('wav', await synth('clip.wav'), 0);
    const mp3Bytes = await synth('clip.mp3');
    expect([mp3Bytes[0], mp3Bytes[1] & 0xe0]).toEqual([0xff, 0xe0]); // an MPEG frame sync, not 'RIFF'
    expect(readMp3InfoTag(mp3Bytes)).toMatchObject({ kind: 'Info', encoderDelaySamples: 576, tagCrcValid: true });
    const mp3 = await decodeIndependently('mp3', mp3Bytes, 0);
    expect(mp3.sampleRateHz).toBe(wav.sampleRateHz);
    expect(mp3.pcm.length).toBe(wav.pcm.length);
  }, 120_000);
});
