// @vitest-environment jsdom
// The per-pass table shows what the report has: audio-s/s, RTF, first audio, p50/p95/p99 latency
// and failed-of-sent requests (highlighted when any failed); a missing figure reads '—'.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';
import { BenchCompare, BenchTables } from './BenchTables';

afterEach(cleanup);

const row: BenchPassRow = {
  pass: 1, variant: 'batched', workload: 'plain', numClients: 8, reqPerS: 3.25, audioSecondsPerS: 12.5, rtfMedian: 0.42, firstAudioMedianS: 0.18,
  meanOutstanding: 8, meanWaiting: 2, latencyMedianS: 1.2, latencyP95S: 2.4, latencyP99S: 3.9, numRequests: 40, numErrors: 1, numRejected: 2, numTimeouts: 0,
  gpuUtilMeanPct: null, vramPeakMiB: null, valid: true,
};

const run: BenchRunView = {
  runId: '20261205-010203-abcdef12', status: 'done', startedAtMs: 0, finishedAtMs: 1,
  input: { variants: [{ name: 'batched', target: 'inproc' }], workloads: ['plain'], clientCounts: [8], windowMs: 1000, numPasses: 1 },
  summary: [], passes: [row, { ...row, pass: 2, numErrors: 0, numRejected: 0, firstAudioMedianS: null }], error: null,
};

describe('BenchTables per-pass table', () => {
  it('shows audio-s/s, RTF, first audio, p50/p95/p99 and failed of sent', () => {
    render(<BenchTables run={run} />);
    const table = screen.getByTestId('bench-passes');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Audio s/s', 'RTF', 'First audio s', 'p50 latency s', 'p95 latency s', 'p99 latency s', 'Errors']));
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const cell = (r: HTMLElement, header: string) => within(r).getAllByRole('cell')[headers.indexOf(header)].textContent;
    expect([cell(first, 'Audio s/s'), cell(first, 'RTF'), cell(first, 'First audio s'), cell(first, 'p99 latency s')]).toEqual(['12.50', '0.420', '0.180', '3.900']);
    expect(cell(first, 'Errors')).toBe('3 / 40');
    expect(within(first).getByTestId('bench-errors').className).toBe('error');
    expect(cell(second, 'Errors')).toBe('0 / 40');
    // counts read in the singular for exactly one: row 1 has numErrors 1
    expect(within(first).getByTestId('bench-errors').getAttribute('title')).toBe('1 error, 2 rejected, 0 timed out of 40 sent');
    expect(within(second).getByTestId('bench-errors').getAttribute('title')).toBe('0 errors, 0 rejected, 0 timed out of 40 sent');
    expect(cell(second, 'First audio s')).toBe('—');
  });
});

describe('BenchTables summary', () => {
  it('shows the summary req/s from the valid pass, says one pass was left out and warns the window was too short', () => {
    const valid = { ...row, numClients: 1, reqPerS: 0.25, valid: true };
    const empty = { ...row, pass: 2, numClients: 1, reqPerS: 0, valid: false, invalidReasons: ['no request completed inside the 4000 ms steady window'] };
    const view: BenchRunView = {
      ...run,
      input: { ...run.input, clientCounts: [1], windowMs: 4000, numPasses: 2 },
      summary: [{ workload: 'plain', numClients: 1, beforeReqPerS: 0.25, afterReqPerS: null, throughputChange: null, passChangeMin: null, passChangeMax: null, numCompletedBefore: 1, numCompletedAfter: null }],
      passes: [valid, empty],
    };
    render(<BenchTables run={view} />);
    expect(screen.getByTestId('bench-summary-before').textContent).toBe('0.2500 (1 of 2 passes; 1 invalid left out)');
    expect(screen.getByTestId('bench-window-warning').textContent).toMatch(/The 4 s window finished no request in 1 of 2 passes/);
  });
});

describe('BenchCompare', () => {
  it('says "1 request", not "1 requests", for a single pass that completed one', () => {
    const oneOfEach = (runId: string, reqPerS: number): BenchRunView => ({
      ...run,
      runId,
      input: { ...run.input, clientCounts: [1] },
      summary: [{ workload: 'plain', numClients: 1, beforeReqPerS: reqPerS, afterReqPerS: null, throughputChange: null, passChangeMin: null, passChangeMax: null, numCompletedBefore: 1, numCompletedAfter: null }],
      passes: [{ ...row, numClients: 1, reqPerS }],
    });
    render(<BenchCompare a={oneOfEach('20261205-010203-aaaaaaaa', 0.25)} b={oneOfEach('20261205-010203-bbbbbbbb', 0.5)} />);
    const rowText = within(screen.getByTestId('bench-deltas')).getAllByRole('row')[1].textContent;
    expect(rowText).toContain('(1 pass, 1 request: no spread known)');
    expect(rowText).not.toContain('1 requests');
  });
});
