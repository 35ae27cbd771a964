/**
 * Cumulative request counters owned by the supervisor (HostClient), so they survive engine host
 * restarts: the host's own EngineStatus counts reset with every process and count turns, not
 * requests. Pure bookkeeping; HostClient notes each synthesize call's start and end here.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import type { ErrorCode } from '../../src-shared/errors';

/**
 * The shape served under /status as `requests` (and over IPC as is). Invariant:
 * numStarted = numCompleted + numFailed + numCancelled + numInFlight; numCrashed ⊆ numFailed.
 */
export interface HostRequestCounters {
  /** synthesize calls accepted by the supervisor since the studio started. */
  numStarted: number;
  /** Answered with audio. */
  numCompleted: number;
  /** Answered with an error other than 'cancelled' (rejections such as busy or input-too-long included). */
  numFailed: number;
  numCancelled: number;
  /** Failed because the engine host died or was killed by the watchdog while they were in flight. */
  numCrashed: number;
  numInFlight: number;
  /** Engine host restarts after a crash or a stall (not model switches). */
  numRestarts: number;
  /** Times the watchdog found the host unresponsive and killed it. */
  numStalls: number;
  /** numFailed by error code. */
  numFailedByCode: Partial<Record<ErrorCode, number>>;
}

export class RequestCounters {
  private readonly counts = { numStarted: 0, numCompleted: 0, numFailed: 0, numCancelled: 0, numCrashed: 0, numInFlight: 0, numRestarts: 0, numStalls: 0 };
  private readonly failedByCode: Partial<Record<ErrorCode, number>> = {};

  noteStarted(): void {
    this.counts.numStarted++;
    this.counts.numInFlight++;
  }

  noteCompleted(): void {
    this.counts.numInFlight--;
    this.counts.numCompleted++;
  }

  /** A started request ended with an error; `crashed` when its host died under it. */
  noteFailed(code: ErrorCode, crashed: boolean): void {
    this.counts.numInFlight--;
    if (code === 'cancelled') {
      this.counts.numCancelled++;
      return;
    }
    this.counts.numFailed++;
    this.failedByCode[code] = (this.failedByCode[code] ?? 0) + 1;
    if (crashed) this.counts.numCrashed++;
  }

  noteRestart(): void {
    this.counts.numRestarts++;
  }

  noteStall(): void {
    this.counts.numStalls++;
  }

  get numRestarts(): number {
    return this.counts.numRestarts;
  }

  snapshot(): HostRequestCounters {
    return { ...this.counts, numFailedByCode: { ...this.failedByCode } };
  }
}
