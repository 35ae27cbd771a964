// `studio model pull` against a hub on loopback: STUDIO_OFFLINE=1 is honoured (no request reaches the
// hub, the error names the fix), and without it the same command downloads the checkpoint.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli';
import { FakeHub } from '../models/testing/fake-hub';
import { makeSyntheticHubFiles } from '../models/testing/synthetic-hub-files';
import { TEST_REPO } from '../models/testing/manager-fixture';

let hub: FakeHub;
let dataDir: string;
const savedEnv = { ...process.env };

beforeEach(async () => {
  hub = await FakeHub.start();
  hub.addRepo(TEST_REPO, { files: makeSyntheticHubFiles({ seed: 3 }) });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'studio-cli-pull-'));
  process.env.HF_ENDPOINT = hub.endpoint;
  process.env.STUDIO_DATA_DIR = dataDir;
  delete process.env.HF_HUB_OFFLINE;
  delete process.env.STUDIO_OFFLINE;
});

afterEach(async () => {
  vi.restoreAllMocks();
  process.env = { ...savedEnv };
  await hub.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

function capture(): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
  return { out, err };
}

describe('studio model pull', () => {
  it('honours STUDIO_OFFLINE=1: exits 1 without a single hub request and names the fix', async () => {
    process.env.STUDIO_OFFLINE = '1';
    const { err } = capture();
    expect(await runCli(['model', 'pull', TEST_REPO, '--no-build'])).toBe(1);
    const text = err.join('');
    expect(text).toContain('offline mode');
    expect(text).toContain('STUDIO_OFFLINE');
    expect(text).toContain(`studio model pull ${TEST_REPO}`);
    expect(hub.requests).toHaveLength(0);
  });

  it('downloads the same repo when offline mode is off', async () => {
    const { out } = capture();
    expect(await runCli(['model', 'pull', TEST_REPO, '--no-build'])).toBe(0);
    expect(out.join('')).toContain('Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice: downloaded');
    expect(hub.requestsFor('/resolve/').length).toBeGreaterThan(0);
    const manifest = JSON.parse(await readFile(path.join(dataDir, 'models', 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', 'studio-model.json'), 'utf8'));
    expect(manifest.status).toBe('downloaded');
  });
});
