/**
 * The same render without a queue: the parts run on this machine's engine pool, `concurrency` at
 * a time, with the same files, skips and permanent failures as queued jobs; a part whose engine
 * crashed is tried again (the pool restarts the engine) up to `attempts` times.
 */
import { toStudioError } from '../../src-shared/errors';
import type { EngineHostApi } from '../services/studio-services';
import type { RenderPlan } from './render-plan';
import { isPermanentFailure, renderPart } from './render-parts';
import { progressOf, type PartFailure, type RenderProgress } from './render-progress';

export async function renderLocally(
  host: Pick<EngineHostApi, 'call'>,
  plan: RenderPlan,
  outputDir: string,
  onProgress: (p: RenderProgress) => void,
  options: { concurrency: number; attempts?: number },
): Promise<{ failures: PartFailure[] }> {
  const done = new Set<string>();
  const failed = new Map<string, string>();
  const unique = [...new Map(plan.parts.map((p) => [p.id, p])).values()];
  let next = 0;
  onProgress(progressOf(plan, done, failed));
  const runOne = async () => {
    while (next < unique.length) {
      const part = unique[next++];
      for (let attempt = 1; ; attempt++) {
        try {
          await renderPart(host, part, plan.settings, outputDir, `render-${part.id}-${attempt}`);
          done.add(part.id);
          break;
        } catch (err) {
          const error = toStudioError(err);
          if (isPermanentFailure(error) || attempt >= (options.attempts ?? 3)) {
            failed.set(part.id, `${error.code}: ${error.message}`);
            break;
          }
        }
      }
      onProgress(progressOf(plan, done, failed));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, runOne));
  return { failures: plan.parts.filter((p) => failed.has(p.id)).map((part) => ({ part, reason: failed.get(part.id)! })) };
}
