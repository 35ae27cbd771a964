/**
 * Adapts the model manager (src-main/models) to the Models page's service port, so pulls, verifies
 * and removals from the UI run the same code as `studio model pull|verify|remove`, in the user
 * data folder's models/ directory.
 */
import path from 'node:path';
import { createModelManager, type ModelManagerOptions } from '../models/model-manager';
import type { ModelManagerPort } from '../services/models-service';
import type { PullPhase, PullProgress } from '../models/model-types';
import type { PullProgress as ContractPullProgress } from '../../src-shared/contract/models';

const PHASES: Record<PullPhase, ContractPullProgress['phase']> = { listing: 'download', downloading: 'download', verifying: 'verify', building: 'build', done: 'done' };

/** The manager's detailed progress → the Models page's bar (bytes, or the build fraction as 0…1000). */
export function toContractProgress(p: PullProgress): ContractPullProgress {
  const building = p.phase === 'building' && p.buildFraction !== null;
  return {
    modelId: p.modelId,
    phase: PHASES[p.phase],
    numBytesDone: building ? Math.round(p.buildFraction! * 1000) : p.receivedBytes,
    numBytesTotal: building ? 1000 : p.totalBytes,
    message: p.message,
  };
}

export interface StudioModelManagerPort extends ModelManagerPort {
  /** The built folder of an installed, ready model (what the engine host loads). */
  resolve(modelId: string): Promise<string>;
}

export function createModelManagerPort(userDataDir: string, options: Omit<ModelManagerOptions, 'rootDir'> = {}): StudioModelManagerPort {
  const manager = createModelManager({ ...options, rootDir: path.join(userDataDir, 'models') });
  return {
    async pull(target, onProgress, options = {}) {
      const entry = await manager.pull(target, { onProgress: (p) => onProgress(toContractProgress(p)), skipBuild: options.build === false, signal: options.signal });
      return { id: entry.id };
    },
    plan: (target) => manager.planPull(target),
    state: async () => ({ offline: manager.config.offline, endpoint: manager.config.endpoint, modelsDir: manager.config.rootDir, freeBytes: await manager.freeBytes() }),
    async verify(modelId) {
      const report = await manager.verify(modelId);
      return { ok: report.ok, problems: report.files.filter((f) => f.status !== 'ok').map((f) => `${f.area} ${f.path}: ${f.status}`) };
    },
    remove: (modelId) => manager.remove(modelId),
    resolve: (modelId) => manager.resolve(modelId),
  };
}
