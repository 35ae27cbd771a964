/**
 * Open-loop load: requests are sent by the arrival clock (seeded Poisson), never by completions,
 * so a slow server cannot slow its own load (no coordinated omission). Latency is measured from
 * the scheduled send time. Arrivals beyond maxOutstanding are dropped and counted; the drain is bounded.
 */
import type { OpenLoopConfig } from './bench-config';
import type { RequestSample } from './run-record';
import { poissonArrivalOffsetsMs } from './arrival-schedule';
import { sendRequest } from './send-request';
import { drainWithin, sendContextOf, startMeasurement, type MeasurementParams } from './measurement';
import { sleep } from './sleep';

export interface OpenLoopParams extends MeasurementParams {
  open: OpenLoopConfig;
  durationMs: number;
  drainTimeoutMs: number;
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
  const { controller, samples, notes, finish } = startMeasurement(p);
  const offsetsMs = poissonArrivalOffsetsMs(p.open.ratePerS, p.durationMs, p.open.arrivalSeed);
  const inFlight = new Set<Promise<void>>();
  const ctx = sendContextOf(p, controller.signal, () => 'open');
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
  await drainWithin(Promise.all([...inFlight]), p.drainTimeoutMs, controller, notes);
  finish();
  return { samples, startMs, endMs: p.clock(), numArrivals: offsetsMs.length, notes };
}
