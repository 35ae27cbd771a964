/**
 * How the model manager calls the model builder: the request it passes, the progress it
 * understands, and the default builder (src-main/model-builder/build.ts, loaded lazily so that
 * listing or downloading models never loads the graph builder). Tests inject their own.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';

export interface ModelBuildRequest {
  checkpointDir: string;
  outDir: string;
  dtype: string;
  onProgress?: (progress: unknown) => void;
}

/**
 * Builds into `outDir`. A builder that keeps a cache under outDir (as buildModel does: it writes
 * `<outDir>/<fingerprint>-v<version>-<dtype>/`) returns `{ builtDir }`; the engine then loads that
 * sub-folder. Returning nothing means the graphs are in outDir itself.
 */
export type ModelBuilder = (request: ModelBuildRequest) => Promise<{ builtDir?: string } | void | unknown>;

/** Loads buildModel from the model builder on first use (never loaded by list/remove/download). */
export const defaultModelBuilder: ModelBuilder = async (request) => {
  const { buildModel } = await import('../model-builder/build');
  if (request.dtype !== 'fp32' && request.dtype !== 'fp16') {
    throw new StudioError('invalid-argument', `build dtype must be fp32 or fp16, got ${JSON.stringify(request.dtype)}; set modelManager.dtype`, { dtype: request.dtype });
  }
  return buildModel({ ...request, dtype: request.dtype, onProgress: request.onProgress });
};

/** The folder inside outDir the builder says it built into, relative ('' for outDir itself). */
export function builtSubdirOf(result: unknown, outDir: string): string {
  const builtDir = result && typeof result === 'object' ? (result as { builtDir?: unknown }).builtDir : undefined;
  if (typeof builtDir !== 'string') return '';
  const rel = path.relative(path.resolve(outDir), path.resolve(builtDir));
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new StudioError('internal', `the model builder wrote to ${builtDir}, outside the folder it was given (${outDir})`, { builtDir, outDir });
  }
  return rel.split(path.sep).join('/');
}

/**
 * Reads a fraction 0..1 and a message out of whatever the builder reports: a number, or an object
 * with `fraction`, or with done/total style counters (numDone/numTotal, done/total, current/total).
 */
export function buildFractionOf(progress: unknown): { fraction: number | null; message: string } {
  if (typeof progress === 'number') return { fraction: clamp01(progress), message: '' };
  if (!progress || typeof progress !== 'object') return { fraction: null, message: String(progress ?? '') };
  const p = progress as Record<string, unknown>;
  const message = typeof p.message === 'string' ? p.message : typeof p.stage === 'string' ? p.stage : typeof p.phase === 'string' ? p.phase : '';
  if (typeof p.fraction === 'number') return { fraction: clamp01(p.fraction), message };
  for (const [done, total] of [['numDone', 'numTotal'], ['done', 'total'], ['current', 'total'], ['numStepsDone', 'numSteps']]) {
    if (typeof p[done] === 'number' && typeof p[total] === 'number' && (p[total] as number) > 0) {
      return { fraction: clamp01((p[done] as number) / (p[total] as number)), message };
    }
  }
  return { fraction: null, message };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
