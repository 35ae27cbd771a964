// The summary agrees with the passes it comes from: an invalid pass whose window finished nothing is
// left out when a valid pass exists (0.25 req/s stays 0.25, not 0.125 pooled with an empty window).
import { describe, expect, it } from 'vitest';
import { countedMeasurements, passRows, summaryRows } from './run-tables';
import type { BenchRunRecord } from './run-record';

const measurement = (pass: number, reqPerS: number, numCompletedInWindow: number, valid: boolean, variant = 'before') => ({
  kind: 'closed', id: `m${pass}-${variant}`, pass, variant, workload: 'plain', numClients: 1, reqPerS, numCompletedInWindow, valid,
  invalidReasons: valid ? [] : ['no request completed inside the 4000 ms steady window; lengthen the window (--window) beyond the request latency'],
  audioSecondsPerS: 0, rtfMedian: null, firstAudio: null, meanOutstanding: 1, meanWaiting: 0, latency: null, counts: { numRequests: 2, numErrors: 0, numRejected: 0, numTimeouts: 0 }, meanGpuUtilPct: null, peakVramMiB: null,
});

function record(measurements: ReturnType<typeof measurement>[], variants = ['before']): BenchRunRecord {
  return { config: { variants: variants.map((name) => ({ name })), workloads: ['plain'], clientCounts: [1] }, variants: variants.map((name) => ({ name })), measurements } as unknown as BenchRunRecord;
}

describe('summaryRows', () => {
  it('leaves an empty invalid window out when a valid pass exists', () => {
    const [row] = summaryRows(record([measurement(1, 0.25, 1, true), measurement(2, 0, 0, false)]));
    // mean over the valid pass only: 0.25, not (0.25 + 0) / 2 = 0.125
    expect(row.beforeReqPerS).toBe(0.25);
    expect(row.numCompletedBefore).toBe(1);
  });

  it('pools every pass where none is valid, so the figure still matches the pass table', () => {
    const [row] = summaryRows(record([measurement(1, 0.5, 2, false), measurement(2, 0, 0, false)]));
    expect(row.beforeReqPerS).toBe(0.25);
  });

  it('takes the change and pass change range from valid pairs only', () => {
    const rows = summaryRows(record([measurement(1, 1, 4, true), measurement(2, 0, 0, false), measurement(1, 2, 8, true, 'after'), measurement(2, 3, 12, true, 'after')], ['before', 'after']));
    // before: 1 (pass 2 left out); after: (2 + 3) / 2 = 2.5; change 2.5 / 1 − 1 = 1.5; pass pairs: only pass 1 (2 / 1 − 1 = 1)
    expect(rows[0].throughputChange).toBeCloseTo(1.5, 10);
    expect(rows[0].passChangeMin).toBeCloseTo(1, 10);
    expect(rows[0].passChangeMax).toBeCloseTo(1, 10);
  });

  it('carries the invalid reasons into the pass rows', () => {
    const rows = passRows(record([measurement(1, 0.25, 1, true), measurement(2, 0, 0, false)]));
    expect(rows[1].invalidReasons?.[0]).toMatch(/no request completed/);
    expect(countedMeasurements([{ valid: false }, { valid: true }])).toEqual([{ valid: true }]);
  });
});
