/**
 * The model stages with a clock on their asynchronous calls: the ms a step spends awaiting the talker, the
 * code predictor and the codec (their ORT runs and the copies around them), so the engine can report the rest
 * of a step as the host's part (scheduler, sampling, lookups, bookkeeping; issue 42). Each stage object is
 * wrapped in a Proxy that times every method returning a promise; properties and synchronous calls pass through.
 */
import type { ModelStages } from './stages/stages';

/** The ms spent awaiting the stages so far; the engine differences it per step. */
export interface StageClock {
  ms: number;
}

function timed<T extends object>(stage: T, nowMs: () => number, clock: StageClock): T {
  return new Proxy(stage, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const startedMs = nowMs();
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.finally(() => {
          clock.ms += nowMs() - startedMs;
        });
      };
    },
  });
}

/** The same stages (the same objects underneath), with their awaited time added to `clock`. */
export function timedStages(stages: ModelStages, nowMs: () => number, clock: StageClock): ModelStages {
  return { ...stages, talker: timed(stages.talker, nowMs, clock), codePredictor: timed(stages.codePredictor, nowMs, clock), codec: timed(stages.codec, nowMs, clock) };
}
