/**
 * What the load modes (burst, closed loop, open loop) share: the params every measurement carries,
 * the send context made from them, and the measurement's own abort (linked to the run's) with the
 * bounded drain at its end. Pure control flow over sendRequest; no I/O of its own.
 */
import type { BenchSynthesisRequest, BenchTarget } from './target';
import type { RequestSample } from './run-record';
import type { SendContext } from './send-request';

export interface MeasurementParams {
  measurementId: string;
  target: BenchTarget;
  request: BenchSynthesisRequest;
  golden: Uint8Array;
  requestTimeoutMs: number;
  clock: () => number;
  /** The run's signal: cancelling the run aborts the measurement. */
  signal: AbortSignal;
}

/** The send context of a measurement: its requests abort on `signal` and name their phase with `phaseAt`. */
export function sendContextOf(p: MeasurementParams, signal: AbortSignal, phaseAt: SendContext['phaseAt']): SendContext {
  return { measurementId: p.measurementId, target: p.target, request: p.request, golden: p.golden, clock: p.clock, requestTimeoutMs: p.requestTimeoutMs, signal, phaseAt };
}

/** A measurement's own abort, fired by the run's signal too; `finish` unhooks it and sorts what was measured. */
export function startMeasurement(p: Pick<MeasurementParams, 'signal'>): { controller: AbortController; samples: RequestSample[]; notes: string[]; finish(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  p.signal.addEventListener('abort', onAbort, { once: true });
  const samples: RequestSample[] = [];
  const notes: string[] = [];
  const finish = () => {
    p.signal.removeEventListener('abort', onAbort);
    if (p.signal.aborted) notes.push('the run was cancelled during this measurement');
    samples.sort((a, b) => a.requestIndex - b.requestIndex);
  };
  return { controller, samples, notes, finish };
}

/** Waits for `outstanding` at most drainTimeoutMs; past that, aborts what is left (noting it) and waits for it to settle. */
export async function drainWithin(outstanding: Promise<unknown>, drainTimeoutMs: number, controller: AbortController, notes: string[]): Promise<void> {
  let drainTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (drainTimer = setTimeout(() => resolve('timeout'), drainTimeoutMs)));
  if ((await Promise.race([outstanding.then(() => 'done' as const), deadline])) === 'timeout') {
    notes.push(`drain did not finish within drainTimeoutMs ${drainTimeoutMs}; outstanding requests were aborted`);
    controller.abort();
    await outstanding;
  }
  clearTimeout(drainTimer);
}
