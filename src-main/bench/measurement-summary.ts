/**
 * Turns raw samples into the figures of one measurement: window throughput, audio-s/s, latency
 * percentiles (send → last byte, window completions only), first-audio, RTF, exact client
 * occupancy, time-weighted queue state, GPU over fill+window+drain, outcome counts and validity.
 * Pure: the same samples always give the same numbers.
 */
import { meanOccupancy } from '../telemetry/interval-occupancy';
import type { GpuSample } from '../telemetry/nvidia-smi-parser';
import { percentile } from '../../src-shared/percentile';
import { summariseLatencies } from '../telemetry/percentile';
import { timeWeightedMean } from '../telemetry/time-weighted-mean';
import type { ClosedMeasurement, OutcomeCounts, RequestSample, StatusSample } from './run-record';

export function countOutcomes(samples: readonly RequestSample[]): OutcomeCounts {
  const counts: OutcomeCounts = { numRequests: samples.length, numOk: 0, numMismatches: 0, numErrors: 0, numRejected: 0, numTimeouts: 0, numCancelled: 0, numDropped: 0 };
  for (const s of samples) {
    switch (s.outcome) {
      case 'ok': counts.numOk += 1; break;
      case 'mismatch': counts.numMismatches += 1; break;
      case 'error': counts.numErrors += 1; break;
      case 'rejected': counts.numRejected += 1; break;
      case 'timeout': counts.numTimeouts += 1; break;
      case 'cancelled': counts.numCancelled += 1; break;
      case 'dropped': counts.numDropped += 1; break;
    }
  }
  return counts;
}

/** Reasons a set of responses is not valid against the golden; empty when valid. */
export function invalidReasonsOf(samples: readonly RequestSample[], counts: OutcomeCounts): string[] {
  const reasons: string[] = [];
  const first = samples.find((s) => s.outcome === 'mismatch');
  if (first?.mismatch) {
    const m = first.mismatch;
    reasons.push(
      `${counts.numMismatches} response(s) differ from the golden; first: request ${first.requestIndex} (client ${first.clientIndex}, ${first.phase}) at byte ${m.byteOffset} ` +
        `(expected ${m.expectedByte ?? 'end'}, got ${m.actualByte ?? 'end'}; ${m.numBytes} vs ${m.numGoldenBytes} bytes)`,
    );
  }
  if (counts.numErrors > 0) reasons.push(`${counts.numErrors} request(s) failed`);
  if (counts.numRejected > 0) reasons.push(`${counts.numRejected} request(s) rejected (429/503)`);
  if (counts.numTimeouts > 0) reasons.push(`${counts.numTimeouts} request(s) timed out`);
  if (counts.numCancelled > 0) reasons.push(`${counts.numCancelled} request(s) cancelled`);
  return reasons;
}

export function gpuOver(gpu: readonly GpuSample[], startMs: number, endMs: number): { meanGpuUtilPct: number | null; peakVramMiB: number | null; numGpuSamples: number } {
  const inside = gpu.filter((g) => g.tMs >= startMs && g.tMs <= endMs);
  const utils = inside.map((g) => g.utilizationGpuPct).filter((v): v is number => v !== null);
  const used = inside.map((g) => g.memoryUsedMiB).filter((v): v is number => v !== null);
  return {
    meanGpuUtilPct: utils.length ? utils.reduce((a, b) => a + b, 0) / utils.length : null,
    peakVramMiB: used.length ? Math.max(...used) : null,
    numGpuSamples: inside.length,
  };
}

/**
 * Host ms per engine step between startMs and endMs: the difference of the status's running step totals
 * between the first and the last sample inside that carry them; null where none does or no step ran.
 */
export function hostMsPerStepOver(status: readonly StatusSample[], startMs: number, endMs: number): number | null {
  const inside = status.filter((s) => s.steps && s.tMs >= startMs && s.tMs <= endMs);
  if (inside.length < 2) return null;
  const [first, last] = [inside[0].steps!, inside[inside.length - 1].steps!];
  const numSteps = last.numSteps - first.numSteps;
  return numSteps > 0 ? (last.totalHostMs - first.totalHostMs) / numSteps : null;
}

export interface ClosedSummaryInput {
  id: string;
  kind: ClosedMeasurement['kind'];
  pass: number;
  variant: string;
  workload: string;
  numClients: number;
  windowMs: number;
  fillStartMs: number;
  windowStartMs: number | null;
  windowEndMs: number | null;
  drainEndMs: number;
  samples: readonly RequestSample[];
  status: readonly StatusSample[];
  gpu: readonly GpuSample[];
  goldenSha256: string | null;
  notes: readonly string[];
}

export function summariseClosedMeasurement(input: ClosedSummaryInput): ClosedMeasurement {
  const { samples, windowStartMs, windowEndMs } = input;
  const counts = countOutcomes(samples);
  const completedInWindow = samples.filter((s) => s.phase === 'window' && (s.outcome === 'ok' || s.outcome === 'mismatch'));
  const windowS = input.windowMs / 1000;
  const latenciesMs = completedInWindow.map((s) => s.endMs - s.sendMs);
  const firstAudioMs = completedInWindow.filter((s) => s.firstByteMs !== null).map((s) => (s.firstByteMs as number) - s.sendMs);
  const rtfs = completedInWindow.filter((s) => s.audioDurationMs !== null && s.audioDurationMs > 0).map((s) => (s.endMs - s.sendMs) / (s.audioDurationMs as number));
  const audioMs = completedInWindow.reduce((sum, s) => sum + (s.audioDurationMs ?? 0), 0);
  const opened = windowStartMs !== null && windowEndMs !== null;
  const status = input.status.filter((s) => s.measurementId === input.id);
  const statusMean = (pick: (s: StatusSample) => number) =>
    opened ? timeWeightedMean(status.map((s) => ({ tMs: s.tMs, value: pick(s) })), windowStartMs, windowEndMs) : null;
  const firstMismatchSample = samples.find((s) => s.outcome === 'mismatch');
  const invalidReasons = [...invalidReasonsOf(samples, counts)];
  if (!opened) invalidReasons.push('the steady window never opened (fill incomplete)');
  else if (completedInWindow.length === 0) invalidReasons.push(`no request completed inside the ${input.windowMs} ms steady window; lengthen the window (--window) beyond the request latency`);
  if (input.goldenSha256 === null) invalidReasons.push('no golden recording to compare against');
  for (const note of input.notes) if (!note.startsWith('client ')) invalidReasons.push(note);

  return {
    id: input.id,
    kind: input.kind,
    pass: input.pass,
    variant: input.variant,
    workload: input.workload,
    numClients: input.numClients,
    fillStartMs: input.fillStartMs,
    windowStartMs,
    windowEndMs,
    drainEndMs: input.drainEndMs,
    windowMs: input.windowMs,
    numFill: samples.filter((s) => s.phase === 'fill').length,
    numWindow: samples.filter((s) => s.phase === 'window').length,
    numDrain: samples.filter((s) => s.phase === 'drain').length,
    numCompletedInWindow: completedInWindow.length,
    reqPerS: opened ? completedInWindow.length / windowS : 0,
    audioSecondsPerS: opened ? audioMs / 1000 / windowS : 0,
    latency: summariseLatencies(latenciesMs),
    firstAudio: summariseLatencies(firstAudioMs),
    rtfMedian: rtfs.length ? percentile(rtfs, 0.5) : null,
    rtfP95: rtfs.length ? percentile(rtfs, 0.95) : null,
    meanOutstanding: opened ? meanOccupancy(samples.map((s) => ({ startMs: s.sendMs, endMs: s.endMs })), windowStartMs, windowEndMs) : 0,
    meanQueueDepth: statusMean((s) => s.queueDepth),
    meanWaiting: statusMean((s) => s.numWaiting),
    meanRunning: statusMean((s) => s.numRunning),
    numStatusSamples: status.length,
    hostMsPerStep: opened ? hostMsPerStepOver(status, windowStartMs, windowEndMs) : null,
    ...gpuOver(input.gpu, input.fillStartMs, input.drainEndMs),
    counts,
    valid: invalidReasons.length === 0,
    invalidReasons,
    firstMismatch:
      firstMismatchSample?.mismatch
        ? { ...firstMismatchSample.mismatch, requestIndex: firstMismatchSample.requestIndex, clientIndex: firstMismatchSample.clientIndex, phase: firstMismatchSample.phase, sendMs: firstMismatchSample.sendMs }
        : null,
    goldenSha256: input.goldenSha256,
  };
}
