/**
 * One closed-loop measurement: N clients, each sending the next request as soon as the previous
 * answer is complete. Fill (until every client has completed a request) → steady window of
 * windowMs → drain (stop issuing, wait for outstanding). Every loop is bounded: requests per client,
 * fill timeout, drain timeout, and the run's abort signal.
 */
import { formatCountOf } from '../../src-shared/format-count';
import type { RequestPhase, RequestSample } from './run-record';
import { sendRequest } from './send-request';
import { drainWithin, sendContextOf, startMeasurement, type MeasurementParams } from './measurement';
import { sleep } from './sleep';

export interface ClosedLoopParams extends MeasurementParams {
  numClients: number;
  windowMs: number;
  fillTimeoutMs: number;
  drainTimeoutMs: number;
  maxRequestsPerClient: number;
  rejectionBackoffMs: number;
  /** Called after each completion and every 500 ms, for progress. */
  onDidUpdate?(state: { phase: 'fill' | 'window' | 'drain'; windowLeftMs: number | null; numCompleted: number }): void;
}

export interface ClosedLoopRun {
  samples: RequestSample[];
  fillStartMs: number;
  windowStartMs: number | null;
  windowEndMs: number | null;
  drainEndMs: number;
  notes: string[];
}

const PROGRESS_TICK_MS = 500;

/** fill: completed at or before the window opened; window: in (start, end]; drain: after end. */
export function phaseOfCompletion(endMs: number, windowStartMs: number | null, windowEndMs: number | null): RequestPhase {
  if (windowStartMs === null || endMs <= windowStartMs) return 'fill';
  if (windowEndMs !== null && endMs > windowEndMs) return 'drain';
  return 'window';
}

export async function runClosedLoop(p: ClosedLoopParams): Promise<ClosedLoopRun> {
  const { controller, samples, notes, finish } = startMeasurement(p);
  const completedClients = new Set<number>();
  const fillStartMs = p.clock();
  let windowStartMs: number | null = null;
  let windowEndMs: number | null = null;
  let stopIssuing = false;
  let numRequestsSent = 0;
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  const stop = () => {
    stopIssuing = true;
    resolveStopped();
  };
  const timers: NodeJS.Timeout[] = [];

  const phaseNow = (): 'fill' | 'window' | 'drain' => (windowStartMs === null ? 'fill' : stopIssuing ? 'drain' : 'window');
  const update = () =>
    p.onDidUpdate?.({
      phase: phaseNow(),
      windowLeftMs: windowEndMs === null ? null : Math.max(0, windowEndMs - p.clock()),
      numCompleted: samples.length,
    });

  const ctx = sendContextOf(p, controller.signal, (endMs) => phaseOfCompletion(endMs, windowStartMs, windowEndMs));

  const openWindow = (atMs: number) => {
    windowStartMs = atMs;
    windowEndMs = atMs + p.windowMs;
    timers.push(setTimeout(stop, Math.max(0, windowEndMs - p.clock())));
  };

  const runClient = async (clientIndex: number) => {
    for (let n = 0; n < p.maxRequestsPerClient; n++) {
      if (stopIssuing || controller.signal.aborted) return;
      if (windowEndMs !== null && p.clock() >= windowEndMs) return;
      const { sample } = await sendRequest(ctx, numRequestsSent++, clientIndex);
      samples.push(sample);
      if (windowStartMs === null && !completedClients.has(clientIndex)) {
        completedClients.add(clientIndex);
        if (completedClients.size === p.numClients) openWindow(sample.endMs);
      }
      update();
      const answered = sample.outcome === 'ok' || sample.outcome === 'mismatch';
      if (!answered && p.rejectionBackoffMs > 0) await sleep(p.rejectionBackoffMs, controller.signal);
    }
    notes.push(`client ${clientIndex} reached maxRequestsPerClient ${p.maxRequestsPerClient}`);
  };

  timers.push(
    setTimeout(() => {
      if (windowStartMs !== null) return;
      notes.push(`fill did not complete within fillTimeoutMs ${p.fillTimeoutMs}: ${completedClients.size} of ${formatCountOf(p.numClients, 'client')} finished a request`);
      stop();
    }, p.fillTimeoutMs),
  );
  const ticker = setInterval(update, PROGRESS_TICK_MS);
  const clients = Promise.all(Array.from({ length: p.numClients }, (_, i) => runClient(i)));
  const onRunAbort = () => stop();
  controller.signal.addEventListener('abort', onRunAbort, { once: true });

  await Promise.race([clients, stopped]);
  stop();
  await drainWithin(clients, p.drainTimeoutMs, controller, notes);
  clearInterval(ticker);
  for (const timer of timers) clearTimeout(timer);
  finish();
  return { samples, fillStartMs, windowStartMs, windowEndMs, drainEndMs: p.clock(), notes };
}
