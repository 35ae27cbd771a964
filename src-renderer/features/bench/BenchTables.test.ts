// Comparing two benchmark runs: the change per workload × clients, and a verdict that counts the
// change only when the two runs' pass-to-pass ranges do not overlap (7 vs 8 requests is noise).
import { describe, expect, it } from 'vitest';
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';
import { compareRuns } from './BenchTables';

function run(runId: string, reqPerS: number, passes: number[]): BenchRunView {
  const pass = (p: number, i: number): BenchPassRow => ({ pass: i + 1, variant: 'before', workload: 'plain', numClients: 4, reqPerS: p, audioSecondsPerS: 2, rtfMedian: 0.5, firstAudioMedianS: null, meanOutstanding: 4, meanWaiting: 0, latencyMedianS: 1, latencyP95S: 2, latencyP99S: 3, numRequests: 10, numErrors: 0, numRejected: 0, numTimeouts: 0, gpuUtilMeanPct: null, vramPeakMiB: null, valid: true });
  return {
    runId,
    status: 'done',
    startedAtMs: 0,
    finishedAtMs: 1,
    input: { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [4], windowMs: 1000, numPasses: passes.length },
    summary: [{ workload: 'plain', numClients: 4, beforeReqPerS: reqPerS, afterReqPerS: null, throughputChange: null, passChangeMin: null, passChangeMax: null, numCompletedBefore: 8, numCompletedAfter: null }],
    passes: passes.map(pass),
    error: null,
  };
}

describe('compareRuns', () => {
  it('calls an overlapping change noise and a separated one faster or slower', () => {
    expect(compareRuns(run('a', 7, [6, 8]), run('b', 8, [7.5, 8.5]))).toEqual([
      expect.objectContaining({ workload: 'plain', numClients: 4, verdict: 'within noise', change: expect.closeTo(1 / 7, 6) }),
    ]);
    expect(compareRuns(run('a', 7, [6.9, 7.1]), run('b', 9, [8.9, 9.1]))[0].verdict).toBe('faster');
    expect(compareRuns(run('a', 9, [8.9, 9.1]), run('b', 7, [6.9, 7.1]))[0].verdict).toBe('slower');
  });

  it('with a single pass the spread is unknown, so +14 % from 7 vs 8 is not called faster', () => {
    const [row] = compareRuns(run('a', 7, [7]), run('b', 8, [8]));
    expect(row.a).toMatchObject({ min: 7, max: 7, numPasses: 1, numCompleted: 8 });
    expect(row.verdict).toBe('spread unknown');
  });

  it('skips rows only one run has', () => {
    const b = run('b', 8, [8, 8]);
    b.summary[0].numClients = 16;
    expect(compareRuns(run('a', 7, [7]), b)).toEqual([]);
  });
});
