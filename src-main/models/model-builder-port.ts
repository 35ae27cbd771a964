/**
 * How the model manager calls the model builder: the request it passes, the progress it
 * understands, and the default builder (src-main/model-builder/build.ts, loaded lazily so that
 * listing or downloading models never loads the graph builder). Tests inject their own.
 */

export interface ModelBuildRequest {
  checkpointDir: string;
  outDir: string;
  dtype: string;
  onProgress?: (progress: unknown) => void;
}

export type ModelBuilder = (request: ModelBuildRequest) => Promise<unknown>;

/** Loads buildModel from the model builder on first use. */
export const defaultModelBuilder: ModelBuilder = async (request) => {
  const { buildModel } = (await import('../model-builder/build')) as unknown as { buildModel: ModelBuilder };
  return buildModel(request);
};

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
