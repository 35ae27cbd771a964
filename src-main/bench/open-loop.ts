/**
 * Open-loop load: requests are sent by the arrival clock (seeded Poisson), never by completions,
 * so a slow server cannot slow its own load (no coordinated omission). Latency is measured from
 * the scheduled send time. Arrivals beyond maxOutstanding are dropped and counted; the drain is bounded.
 */
import type { OpenLoopConfig } from './bench-config';
import type { BenchSynthesisRequest, BenchTarget } from './target';
import type { RequestSample } from './run-record';
import { poissonArrivalOffsetsMs } from './arrival-schedule';
import { sendRequest, type SendContext } from './send-request';
import { sleep } from './sleep';

export interface OpenLoopParams {
  measurementId: string;
  target: BenchTarget;
  request: BenchSynthesisRequest;
  golden: Uint8Array;
  open: OpenLoopConfig;
  durationMs: number;
  requestTimeoutMs: number;
  drainTimeoutMs: number;
  clock: () => number;
  signal: AbortSignal;
  onDidUpdate?(state: { numSent: number; numArrivals: number; numCompleted: number }): void;
}

export interface OpenLoopRun {
  samples: RequestSample[];
  startMs: number;
  endMs: number;
  numArrivals: number;
  notes: string[];
}

export async function runOpenLoop(p: OpenLoopParams): Promise<OpenLoopRun> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  p.signal.addEventListener('abort', onAbort, { once: true });
  const offsetsMs = poissonArrivalOffsetsMs(p.open.ratePerS, p.durationMs, p.open.arrivalSeed);
  const samples: RequestSample[] = [];
  const notes: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const ctx: SendContext = {
    measurementId: p.measurementId,
    target: p.target,
    request: p.request,
    golden: p.golden,
    clock: p.clock,
    requestTimeoutMs: p.requestTimeoutMs,
    signal: controller.signal,
    phaseAt: () => 'open',
  };
  const startMs = p.clock();
  for (let i = 0; i < offsetsMs.length && !controller.signal.aborted; i++) {
    const scheduledMs = startMs + offsetsMs[i];
    await sleep(scheduledMs - p.clock(), controller.signal);
    if (controller.signal.aborted) break;
    if (inFlight.size >= p.open.maxOutstanding) {
      const nowMs = p.clock();
      samples.push({
        measurementId: p.measurementId, requestIndex: i, clientIndex: -1, phase: 'open', scheduledMs, sendMs: nowMs, firstByteMs: null,
        endMs: nowMs, status: 0, outcome: 'dropped', numBytes: 0, audioDurationMs: null, mismatch: null,
        errorMessage: `dropped: ${inFlight.size} requests outstanding (open.maxOutstanding ${p.open.maxOutstanding})`,
      });
      continue;
    }
    const pending: Promise<void> = sendRequest(ctx, i, -1, scheduledMs).then(({ sample }) => {
      samples.push(sample);
      inFlight.delete(pending);
      p.onDidUpdate?.({ numSent: i + 1, numArrivals: offsetsMs.length, numCompleted: samples.length });
    });
    inFlight.add(pending);
  }
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = Promise.all([...inFlight]).then(() => 'done' as const);
  const deadline = new Promise<'timeout'>((resolve) => (drainTimer = setTimeout(() => resolve('timeout'), p.drainTimeoutMs)));
  if ((await Promise.race([drained, deadline])) === 'timeout') {
    notes.push(`drain did not finish within drainTimeoutMs ${p.drainTimeoutMs}; outstanding requests were aborted`);
    controller.abort();
    await drained;
  }
  clearTimeout(drainTimer);
  p.signal.removeEventListener('abort', onAbort);
  if (p.signal.aborted) notes.push('the run was cancelled during this measurement');
  samples.sort((a, b) => a.requestIndex - b.requestIndex);
  return { samples, startMs, endMs: p.clock(), numArrivals: offsetsMs.length, notes };
}
