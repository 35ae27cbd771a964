// Unit tests for turning synthetic samples into a measurement: fill/drain exclusion, window
// throughput and latency, occupancy and time-weighted queue means, GPU over the whole span.
import { describe, expect, it } from 'vitest';
import { phaseOfCompletion } from './closed-loop';
import { hostMsPerStepOver, summariseClosedMeasurement } from './measurement-summary';
import type { RequestSample, StatusSample } from './run-record';

function sample(requestIndex: number, clientIndex: number, sendMs: number, endMs: number, windowStartMs: number, windowEndMs: number): RequestSample {
  return {
    measurementId: 'm', requestIndex, clientIndex, phase: phaseOfCompletion(endMs, windowStartMs, windowEndMs), scheduledMs: sendMs, sendMs, firstByteMs: null, endMs,
    status: 200, outcome: 'ok', numBytes: 10, audioDurationMs: 2000, mismatch: null, errorMessage: null,
  };
}

describe('phaseOfCompletion', () => {
  it('puts the completion that opens the window in fill and the one at its end in the window', () => {
    expect(phaseOfCompletion(1000, 1000, 3000)).toBe('fill');
    expect(phaseOfCompletion(1000.1, 1000, 3000)).toBe('window');
    expect(phaseOfCompletion(3000, 1000, 3000)).toBe('window');
    expect(phaseOfCompletion(3000.1, 1000, 3000)).toBe('drain');
    expect(phaseOfCompletion(5, null, null)).toBe('fill');
  });
});

describe('summariseClosedMeasurement', () => {
  // 2 clients, window (1000, 3000]. Client 0: [0,1000] fill, [1000,2000] window, [2000,3000] window, [3000,4000] drain.
  // Client 1: [0,800] fill, [800,1900] window, [1900,3100] drain.
  const W0 = 1000;
  const W1 = 3000;
  const samples = [
    sample(0, 0, 0, 1000, W0, W1),
    sample(1, 1, 0, 800, W0, W1),
    sample(2, 1, 800, 1900, W0, W1),
    sample(3, 0, 1000, 2000, W0, W1),
    sample(4, 1, 1900, 3100, W0, W1),
    sample(5, 0, 2000, 3000, W0, W1),
    sample(6, 0, 3000, 4000, W0, W1),
  ];
  const status = [
    { measurementId: 'm', tMs: 900, queueDepth: 2, numWaiting: 1, numRunning: 1 },
    { measurementId: 'm', tMs: 1500, queueDepth: 1, numWaiting: 0, numRunning: 1 },
    { measurementId: 'm', tMs: 2500, queueDepth: 2, numWaiting: 1, numRunning: 1 },
    { measurementId: 'other', tMs: 2000, queueDepth: 99, numWaiting: 99, numRunning: 0 },
  ];
  const gpu = [
    { tMs: 100, utilizationGpuPct: 10, memoryUsedMiB: 100, memoryTotalMiB: 1000 },
    { tMs: 3900, utilizationGpuPct: 30, memoryUsedMiB: 300, memoryTotalMiB: 1000 },
    { tMs: 9000, utilizationGpuPct: 100, memoryUsedMiB: 900, memoryTotalMiB: 1000 },
  ];
  const m = summariseClosedMeasurement({
    id: 'm', kind: 'closed', pass: 1, variant: 'v', workload: 'plain', numClients: 2, windowMs: 2000,
    fillStartMs: 0, windowStartMs: W0, windowEndMs: W1, drainEndMs: 4000, samples, status, gpu, goldenSha256: 'abc', notes: [],
  });

  it('counts only window completions in throughput and latency', () => {
    // window completions: #2 (1100 ms), #3 (1000 ms), #5 (1000 ms) → 3 / 2 s = 1.5 req/s
    expect([m.numFill, m.numWindow, m.numDrain]).toEqual([2, 3, 2]);
    expect(m.reqPerS).toBeCloseTo(1.5, 12);
    expect(m.latency?.medianMs).toBe(1000);
    expect(m.latency?.maxMs).toBe(1100);
    // audio: 3 × 2 s over 2 s = 3 audio-s/s; RTF median = 1000 / 2000
    expect(m.audioSecondsPerS).toBeCloseTo(3, 12);
    expect(m.rtfMedian).toBeCloseTo(0.5, 12);
  });

  it('integrates outstanding requests and time-weights the status samples over the window', () => {
    // both clients are always outstanding in (1000, 3000] → 2
    expect(m.meanOutstanding).toBeCloseTo(2, 12);
    // waiting: 1 on [1000,1500), 0 on [1500,2500), 1 on [2500,3000] → (500 + 0 + 500) / 2000 = 0.5
    expect(m.meanWaiting).toBeCloseTo(0.5, 12);
    // depth: 2 × 500 + 1 × 1000 + 2 × 500 = 3000 / 2000 = 1.5; the other measurement's sample is ignored
    expect(m.meanQueueDepth).toBeCloseTo(1.5, 12);
  });

  it('takes GPU figures over fill, window and drain but not beyond', () => {
    // samples at 100 and 3900 are inside [0, 4000]; 9000 is not → mean 20 %, peak 300 MiB
    expect(m.meanGpuUtilPct).toBeCloseTo(20, 12);
    expect(m.peakVramMiB).toBe(300);
    expect(m.valid).toBe(true);
  });

  it('is invalid when the window never opened', () => {
    const open = summariseClosedMeasurement({
      id: 'm', kind: 'closed', pass: 1, variant: 'v', workload: 'plain', numClients: 2, windowMs: 2000,
      fillStartMs: 0, windowStartMs: null, windowEndMs: null, drainEndMs: 10, samples: [], status: [], gpu: [], goldenSha256: 'abc', notes: ['fill did not complete within fillTimeoutMs 10'],
    });
    expect(open.valid).toBe(false);
    expect(open.reqPerS).toBe(0);
    expect(open.invalidReasons).toContain('fill did not complete within fillTimeoutMs 10');
  });
});

describe('hostMsPerStepOver', () => {
  const at = (tMs: number, numSteps: number, totalHostMs: number): StatusSample => ({ measurementId: 'm', tMs, queueDepth: 0, numWaiting: 0, numRunning: 0, steps: { numSteps, totalStepMs: numSteps * 40, totalHostMs } });
  it('differences the step totals of the first and last samples inside the window', () => {
    // inside 100..300: 10 steps and 25 host ms at 100, 30 steps and 85 host ms at 300 → 60 / 20 = 3 ms a step; 0 and 500 are outside
    const status = [at(0, 0, 0), at(100, 10, 25), at(200, 20, 50), at(300, 30, 85), at(500, 50, 200)];
    expect(hostMsPerStepOver(status, 100, 300)).toBe(3);
  });

  it('is null without step totals, with fewer than two samples inside, or when no step ran', () => {
    expect(hostMsPerStepOver([{ measurementId: 'm', tMs: 10, queueDepth: 0, numWaiting: 0, numRunning: 0 }, { measurementId: 'm', tMs: 20, queueDepth: 0, numWaiting: 0, numRunning: 0 }], 0, 100)).toBeNull();
    expect(hostMsPerStepOver([at(10, 5, 5)], 0, 100)).toBeNull();
    expect(hostMsPerStepOver([at(10, 5, 5), at(20, 5, 5)], 0, 100)).toBeNull();
  });
});
