/**
 * The same render without a queue: the parts run on this machine's engine pool, `concurrency` at
 * a time, with the same files, skips and permanent failures as queued jobs; a part whose engine
 * crashed is tried again (the pool restarts the engine) up to `attempts` times. `signal` cancels:
 * no new part starts and the parts in flight are cancelled on their engines (finished parts stay).
 * `savedVoicesFor`: the saved voices each part speaks in (the CLI's; the studio's host attaches its own).
 */
import { toStudioError } from '../../src-shared/errors';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import type { RenderPart, RenderPlan } from './render-plan';
import { isPermanentFailure, renderPart, type SavedVoicesForPart } from './render-parts';
import { progressOf, type PartFailure, type RenderProgress } from './render-progress';

export async function renderLocally(
  host: Pick<EngineHostApi, 'call'>,
  plan: RenderPlan,
  outputDir: string,
  onProgress: (p: RenderProgress) => void,
  options: { concurrency: number; attempts?: number; signal?: AbortSignal; onRetry?: (part: RenderPart, attempt: number, reason: string) => void; savedVoicesFor?: SavedVoicesForPart },
): Promise<{ failures: PartFailure[]; cancelled: boolean }> {
  const { signal } = options;
  const inFlight = new Set<string>();
  const cancelInFlight = () => {
    for (const requestId of inFlight) void host.call('cancel', { requestId }).catch(() => {});
  };
  signal?.addEventListener('abort', cancelInFlight, { once: true });
  const done = new Set<string>();
  const failed = new Map<string, string>();
  const unique = [...new Map(plan.parts.map((p) => [p.id, p])).values()];
  let next = 0;
  onProgress(progressOf(plan, done, failed));
  const runOne = async () => {
    while (next < unique.length && !signal?.aborted) {
      const part = unique[next++];
      for (let attempt = 1; !signal?.aborted; attempt++) {
        const requestId = `render-${part.id}-${attempt}`;
        inFlight.add(requestId);
        try {
          await renderPart(host, part, plan.settings, outputDir, requestId, options.savedVoicesFor?.(part));
          done.add(part.id);
          break;
        } catch (err) {
          const error = toStudioError(err);
          if (signal?.aborted) break;
          if (isPermanentFailure(error) || attempt >= (options.attempts ?? 3)) {
            failed.set(part.id, `${error.code}: ${error.message}`);
            break;
          }
          options.onRetry?.(part, attempt, `${error.code}: ${error.message}`);
        } finally {
          inFlight.delete(requestId);
        }
      }
      onProgress(progressOf(plan, done, failed));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, runOne));
  signal?.removeEventListener('abort', cancelInFlight);
  return { cancelled: signal?.aborted ?? false, failures: plan.parts.filter((p) => failed.has(p.id)).map((part) => ({ part, reason: failed.get(part.id)! })) };
}
