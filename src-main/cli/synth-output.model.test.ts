/**
 * `studio synth -o` and the HTTP API write the same WAV for the same request on the tiny model: both
 * get the engine host's result and write it through the one WAV writer (src-main/audio/wav-encode.ts).
 * Before issue 36 the CLI had its own writer, 1 LSB apart on about 5% of samples.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { postJson, serveTiny } from '../headless/testing/serve-tiny';
import { runCli } from './cli';

let modelDir: string;
let dataDir: string;
let served: Awaited<ReturnType<typeof serveTiny>>;

beforeAll(async () => {
  modelDir = (await ensureTinyModel()).builtDir;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-output-'));
  served = await serveTiny(modelDir);
}, 120_000);

afterAll(async () => {
  await served?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('studio synth -o', () => {
  it('writes the bytes POST /api/v1/tts answers for the same request', async () => {
    const text = 'Hello from the studio, once by the CLI and once over HTTP.';
    // maxNewTokens 6 caps both runs at 6 frames whatever engine caps each applies
    const api = await postJson(`${served.server.url}/api/v1/tts`, { text, voice: 'ryan', language: 'english', seed: 7, params: { maxNewTokens: 6 }, response_format: 'wav' });
    expect(api.status).toBe(200);
    const out = path.join(dataDir, 'cli.wav');
    vi.stubEnv('STUDIO_DATA_DIR', dataDir); // no saved voices of the user's library
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['synth', text, '--voice', 'ryan', '--language', 'english', '--seed', '7', '--max-new-tokens', '6', '--model', modelDir, '--provider', 'cpu', '-o', out])).toBe(0);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
    const cli = fs.readFileSync(out);
    expect(cli.length).toBe(api.bytes.length);
    const firstDiff = cli.findIndex((b, i) => b !== api.bytes[i]);
    expect(firstDiff, `first differing byte at ${firstDiff}`).toBe(-1);
  });
});
