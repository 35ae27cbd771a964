/**
 * Polls a target's status() every statusIntervalMs while a measurement runs and stamps each
 * answer with the run clock. Never overlaps polls (a slow /status skips ticks instead of piling up);
 * stops on stop() or abort. A target without status() yields no samples.
 */
import type { BenchTarget } from './target';
import type { StatusSample } from './run-record';

export interface StatusSampler {
  readonly samples: StatusSample[];
  stop(): Promise<void>;
}

export function startStatusSampler(target: BenchTarget, measurementId: string, intervalMs: number, clock: () => number, signal: AbortSignal): StatusSampler {
  const samples: StatusSample[] = [];
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  const poll = async () => {
    try {
      const status = await target.status?.();
      if (status && !stopped) samples.push({ measurementId, tMs: clock(), ...status });
    } catch {
      // a failed poll is a missing sample, not a failed benchmark
    }
  };
  const timer = target.status
    ? setInterval(() => {
        if (stopped || inFlight || signal.aborted) return;
        inFlight = poll().finally(() => {
          inFlight = null;
        });
      }, intervalMs)
    : null;
  if (target.status) inFlight = poll().finally(() => (inFlight = null));
  return {
    samples,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await inFlight;
    },
  };
}
