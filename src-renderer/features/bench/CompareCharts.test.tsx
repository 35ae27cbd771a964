// @vitest-environment jsdom
// The comparison charts' data: one point per workload × clients both runs share, each run's req/s
// with its pass-to-pass range as error-bar offsets and its median p95; nothing for runs without a
// shared row. The charts render one figure each for throughput and latency.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';
import { CompareCharts, compareChartData } from './CompareCharts';

function pass(p: Partial<BenchPassRow>): BenchPassRow {
  return { pass: 1, variant: 'v', workload: 'short', numClients: 4, reqPerS: 1, audioSecondsPerS: 1, rtfMedian: 0.5, firstAudioMedianS: 0.1, meanOutstanding: 1, meanWaiting: 0, latencyMedianS: 1, latencyP95S: 2, latencyP99S: 3, numRequests: 10, numErrors: 0, numRejected: 0, numTimeouts: 0, gpuUtilMeanPct: null, vramPeakMiB: null, valid: true, ...p };
}

function run(runId: string, reqPerS: number, passes: BenchPassRow[], workload = 'short'): BenchRunView {
  return {
    runId,
    status: 'done',
    startedAtMs: 0,
    finishedAtMs: 1,
    input: { variants: [{ name: 'v' }] } as unknown as BenchRunView['input'],
    summary: [{ workload, numClients: 4, beforeReqPerS: reqPerS, numCompletedBefore: 10 } as unknown as BenchRunView['summary'][number]],
    passes,
    error: null,
  };
}

describe('CompareCharts', () => {
  afterEach(() => cleanup());

  it('gives each shared row both runs with their pass ranges and median p95', () => {
    const a = run('a', 2, [pass({ reqPerS: 1.8, latencyP95S: 2 }), pass({ pass: 2, reqPerS: 2.3, latencyP95S: 4 }), pass({ pass: 3, reqPerS: 2, latencyP95S: 3, valid: false })]);
    const b = run('b', 3, [pass({ reqPerS: 3, latencyP95S: 1 })]);
    const [point] = compareChartData(a, b);
    expect(point.label).toBe('short ×4');
    expect(point.aReqPerS).toBe(2);
    expect(point.aRange[0]).toBeCloseTo(0.2);
    expect(point.aRange[1]).toBeCloseTo(0.3);
    expect(point.bRange).toEqual([0, 0]);
    expect(point.aP95S).toBe(3); // median of the two valid passes
    expect(point.bP95S).toBe(1);
    expect(compareChartData(a, run('c', 3, [], 'long'))).toEqual([]);
  });

  it('renders a throughput and a latency figure, or nothing without shared rows', () => {
    const a = run('a', 2, [pass({})]);
    const { container } = render(<CompareCharts a={a} b={run('b', 3, [pass({ reqPerS: 3 })])} />);
    expect(screen.getByTestId('compare-chart-throughput').getAttribute('data-num-points')).toBe('1');
    expect(screen.getByTestId('compare-chart-latency')).toBeTruthy();
    cleanup();
    const empty = render(<CompareCharts a={a} b={run('c', 3, [], 'long')} />);
    expect(empty.container.innerHTML).toBe('');
    expect(container).toBeTruthy();
  });
});
