/**
 * Shared set-up for the model manager's tests: a fake hub serving a synthetic checkpoint, a
 * temporary models folder, a recording fake builder and a statfs that reports plenty of space.
 * Test-only.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StatfsLike } from '../disk-space';
import { ModelManager, type ModelManagerOptions } from '../model-manager';
import type { ModelBuildRequest } from '../model-builder-port';
import { FakeHub } from './fake-hub';
import { makeSyntheticHubFiles } from './synthetic-hub-files';

export const TEST_REPO = 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice';

export interface ManagerFixture {
  hub: FakeHub;
  rootDir: string;
  files: Record<string, Uint8Array>;
  commitSha: string;
  builds: ModelBuildRequest[];
  manager: (overrides?: ModelManagerOptions) => ModelManager;
  dispose: () => Promise<void>;
}

export const plentyOfSpace: StatfsLike = async () => ({ bavail: 1_000_000_000, bsize: 4096 });

/** Writes two small "graphs" and reports progress the way a builder would. */
export function recordingBuilder(builds: ModelBuildRequest[]) {
  return async (request: ModelBuildRequest) => {
    builds.push(request);
    await mkdir(request.outDir, { recursive: true });
    request.onProgress?.({ numDone: 0, numTotal: 2, message: 'talker' });
    await writeFile(path.join(request.outDir, 'talker.onnx'), `graph from ${request.checkpointDir}`);
    request.onProgress?.({ numDone: 1, numTotal: 2, message: 'codec' });
    await writeFile(path.join(request.outDir, 'manifest.json'), JSON.stringify({ dtype: request.dtype }));
    request.onProgress?.({ numDone: 2, numTotal: 2, message: 'done' });
  };
}

export async function createManagerFixture(seed = 1): Promise<ManagerFixture> {
  const hub = await FakeHub.start();
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'studio-models-'));
  const files = makeSyntheticHubFiles({ seed });
  const { commitSha } = hub.addRepo(TEST_REPO, { files });
  const builds: ModelBuildRequest[] = [];
  return {
    hub,
    rootDir,
    files,
    commitSha,
    builds,
    manager: (overrides = {}) =>
      new ModelManager({
        rootDir,
        endpoint: hub.endpoint,
        token: null,
        offline: false,
        statfs: plentyOfSpace,
        builder: recordingBuilder(builds),
        retryDelayMs: 1,
        env: {},
        ...overrides,
      }),
    dispose: async () => {
      await hub.dispose();
      await rm(rootDir, { recursive: true, force: true });
    },
  };
}
