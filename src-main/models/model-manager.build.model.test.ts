// End to end with the real model builder: a tiny synthetic checkpoint served by the fake hub is
// pulled, verified and built; the folder resolve() returns is a complete built model.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectModel } from '../model-builder/build';
import { writeSyntheticCheckpoint } from '../model-builder/synthetic-checkpoint';
import { listFilesRecursive } from './model-store';
import { ModelManager } from './model-manager';
import type { PullProgress } from './model-types';
import { FakeHub } from './testing/fake-hub';
import { plentyOfSpace } from './testing/manager-fixture';

const REPO = 'Qwen/Tiny-Synthetic-TTS';
let hub: FakeHub;
let workDir: string;
let files: Record<string, Uint8Array>;

beforeAll(async () => {
  hub = await FakeHub.start();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'studio-models-build-'));
  const checkpointDir = path.join(workDir, 'synthetic');
  await writeSyntheticCheckpoint({ size: 'tiny', seed: 11, outDir: checkpointDir });
  files = {};
  for (const rel of await listFilesRecursive(checkpointDir)) files[rel] = await readFile(path.join(checkpointDir, rel));
  hub.addRepo(REPO, { files });
});

afterAll(async () => {
  await hub.dispose();
  await rm(workDir, { recursive: true, force: true });
});

describe('ModelManager with the real model builder', () => {
  it('pulls a synthetic checkpoint from the hub, then the pulled model builds and resolves to a complete built folder', async () => {
    const manager = new ModelManager({ rootDir: path.join(workDir, 'models'), endpoint: hub.endpoint, token: null, offline: false, statfs: plentyOfSpace, env: {} });
    const events: PullProgress[] = [];
    const entry = await manager.pull(REPO, { onProgress: (p) => events.push(p) });
    expect(entry.status).toBe('ready');
    expect(Object.keys(files)).toContain('model.safetensors');

    const builtDir = await manager.resolve(REPO);
    expect(builtDir).toBe(entry.buildDir);
    // buildModel writes into a cache sub-folder <fingerprint16>-v<version>-<dtype>.
    expect(path.basename(builtDir)).toMatch(/^[0-9a-f]{16}-v\d+-fp32$/);
    const inspected = inspectModel(builtDir);
    expect(inspected.manifest.checkpointDir).toBe(entry.checkpointDir);
    expect(inspected.totalBytes).toBeGreaterThan(0);

    const building = events.filter((e) => e.phase === 'building');
    expect(building.length).toBeGreaterThan(2);
    expect(building.at(-1)?.buildFraction).toBe(1);
    expect((await manager.verify(REPO)).ok).toBe(true);
  });
});
