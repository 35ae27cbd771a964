/**
 * A bench run's two tables from its record, in the contract's row shapes (src-shared/contract/bench.ts):
 * the Bench page (services/bench-service.ts) and the Markdown/HTML reports show the same numbers. Summary:
 * per workload × clients, mean req/s over the valid passes (all only where none is valid, so an empty
 * invalid window never halves a valid figure), change = after/before − 1, pass change range = min..max of
 * per-pass changes, completed = window completions summed over those passes. Pure.
 */
import type { BenchPassRow, BenchSummaryRow } from '../../src-shared/contract/bench';
import type { BenchRunRecord, ClosedMeasurement } from './run-record';

export function closedMeasurements(record: BenchRunRecord): ClosedMeasurement[] {
  return record.measurements.filter((m) => m.kind === 'closed');
}

/** Variant names in configured order: [before, after?]. */
export function variantOrder(record: BenchRunRecord): string[] {
  const configured = Array.isArray(record.config.variants) ? (record.config.variants as { name: string }[]).map((v) => v.name) : [];
  return configured.length ? configured : record.variants.map((v) => v.name);
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The passes a summary figure comes from: the valid ones, or every one where none is valid. */
export function countedMeasurements<M extends { valid: boolean }>(measurements: M[]): M[] {
  const valid = measurements.filter((m) => m.valid);
  return valid.length ? valid : measurements;
}

export function summaryRows(record: BenchRunRecord): BenchSummaryRow[] {
  const measurements = closedMeasurements(record);
  const [before, after] = variantOrder(record);
  const workloads = Array.isArray(record.config.workloads) ? (record.config.workloads as string[]) : [];
  const clientCounts = Array.isArray(record.config.clientCounts) ? (record.config.clientCounts as number[]) : [];
  const rows: BenchSummaryRow[] = [];
  for (const workload of workloads) {
    for (const numClients of clientCounts) {
      const of = (variant: string | undefined) => measurements.filter((m) => m.variant === variant && m.workload === workload && m.numClients === numClients);
      const b = countedMeasurements(of(before));
      const a = after === undefined ? [] : countedMeasurements(of(after));
      if (b.length === 0 && a.length === 0) continue;
      const beforeReqPerS = b.length ? mean(b.map((m) => m.reqPerS)) : 0;
      const afterReqPerS = a.length ? mean(a.map((m) => m.reqPerS)) : null;
      const passChanges = b
        .map((bm) => ({ bm, am: a.find((x) => x.pass === bm.pass) }))
        .filter((p) => p.am && p.bm.reqPerS > 0)
        .map((p) => (p.am as ClosedMeasurement).reqPerS / p.bm.reqPerS - 1);
      rows.push({
        workload,
        numClients,
        beforeReqPerS,
        afterReqPerS,
        throughputChange: afterReqPerS !== null && beforeReqPerS > 0 ? afterReqPerS / beforeReqPerS - 1 : null,
        passChangeMin: passChanges.length ? Math.min(...passChanges) : null,
        passChangeMax: passChanges.length ? Math.max(...passChanges) : null,
        numCompletedBefore: b.reduce((sum, m) => sum + m.numCompletedInWindow, 0),
        numCompletedAfter: after === undefined ? null : a.reduce((sum, m) => sum + m.numCompletedInWindow, 0),
      });
    }
  }
  return rows;
}

export function passRows(record: BenchRunRecord): BenchPassRow[] {
  return closedMeasurements(record).map((m) => ({
    pass: m.pass,
    variant: m.variant,
    workload: m.workload,
    numClients: m.numClients,
    reqPerS: m.reqPerS,
    audioSecondsPerS: m.audioSecondsPerS,
    rtfMedian: m.rtfMedian,
    firstAudioMedianS: m.firstAudio ? m.firstAudio.medianMs / 1000 : null,
    meanOutstanding: m.meanOutstanding,
    meanWaiting: m.meanWaiting ?? Number.NaN,
    latencyMedianS: (m.latency?.medianMs ?? Number.NaN) / 1000,
    latencyP95S: (m.latency?.p95Ms ?? Number.NaN) / 1000,
    latencyP99S: (m.latency?.p99Ms ?? Number.NaN) / 1000,
    numRequests: m.counts.numRequests,
    numErrors: m.counts.numErrors,
    numRejected: m.counts.numRejected,
    numTimeouts: m.counts.numTimeouts,
    gpuUtilMeanPct: m.meanGpuUtilPct,
    vramPeakMiB: m.peakVramMiB,
    valid: m.valid,
    invalidReasons: m.invalidReasons,
  }));
}
