// The window-too-short warnings: after a run with an empty invalid window or one that finished too few
// requests for its req/s to hold, and before one from the latency last seen.
import { describe, expect, it } from 'vitest';
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';
import { shortWindowWarning, summarySourceNote, windowVsLatencyHint } from './window-check';

const pass = (n: number, reqPerS: number, valid: boolean, latencyMedianS = 3.2): BenchPassRow => ({
  pass: n, variant: 'before', workload: 'plain', numClients: 1, reqPerS, audioSecondsPerS: 0, rtfMedian: null, firstAudioMedianS: null, meanOutstanding: 1, meanWaiting: 0,
  latencyMedianS, latencyP95S: Number.NaN, latencyP99S: Number.NaN, numRequests: 2, numErrors: 0, numRejected: 0, numTimeouts: 0, gpuUtilMeanPct: null, vramPeakMiB: null, valid,
});
const run = (passes: BenchPassRow[]): BenchRunView => ({
  runId: 'r', status: 'done', startedAtMs: 0, finishedAtMs: 1, input: { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 4000, numPasses: passes.length },
  summary: [], passes, error: null,
});

describe('window checks', () => {
  it('warns when a pass finished no request in its window and suggests a window from the latency', () => {
    const text = shortWindowWarning(run([pass(1, 0.25, true), pass(2, 0, false)]));
    // 3 × 3.2 s = 9.6 → 10 s
    expect(text).toBe('The 4 s window finished no request in 1 of 2 passes, so that pass is invalid and the summary counts only the valid ones. Requests took up to 3.2 s here; set the window to at least 10 s.');
    expect(shortWindowWarning(run([pass(1, 2.5, true)]))).toBeNull();
  });

  it('warns when valid passes finished too few requests in their window, with the window that would finish 10', () => {
    // 4 s at 0.5 req/s = 2 requests: ±1 at the edges is ±50 %; 10 requests at 0.5 req/s need 20 s
    expect(shortWindowWarning(run([pass(1, 0.5, true), pass(2, 0.75, true)]))).toBe(
      "The 4 s window finished as few as 2 requests in each of its 2 passes: one request more or less at the window's edges moves their req/s by up to 50 %. Set the window to at least 20 s to finish 10 requests a pass.",
    );
    expect(shortWindowWarning(run([pass(1, 0.25, true), pass(2, 5, true)]))).toBe(
      "The 4 s window finished only 1 request in 1 of 2 passes: one request more or less at the window's edges moves its req/s by up to 100 %. Set the window to at least 40 s to finish 10 requests a pass.",
    );
    expect(shortWindowWarning(run([pass(1, 0.5, true)]))).toMatch(/^The 4 s window finished only 2 requests in its pass: /);
    expect(shortWindowWarning(run([pass(1, 0.5, true), pass(2, 0.5, true)]))).toMatch(/^The 4 s window finished only 2 requests in each of its 2 passes: /);
    // 10 or more a pass, or none valid to speak of: no warning of this kind
    expect(shortWindowWarning(run([pass(1, 2.5, true), pass(2, 3, true)]))).toBeNull();
    // an empty window still gets the stronger warning
    expect(shortWindowWarning(run([pass(1, 0.5, true), pass(2, 0, false)]))).toMatch(/^The 4 s window finished no request in 1 of 2 passes/);
  });

  it('says how many passes a summary figure comes from when one was left out', () => {
    expect(summarySourceNote(run([pass(1, 0.25, true), pass(2, 0, false)]), 'before', 'plain', 1)).toBe('1 of 2 passes; 1 invalid left out');
    expect(summarySourceNote(run([pass(1, 0.25, true)]), 'before', 'plain', 1)).toBeNull();
  });

  it('hints before a run when the window is under twice the latency last seen', () => {
    expect(windowVsLatencyHint(5000, 4100)).toMatch(/a 5 s window may finish none. Try 13 s or more/);
    expect(windowVsLatencyHint(10_000, 4100)).toBeNull();
    expect(windowVsLatencyHint(5000, null)).toBeNull();
  });
});
