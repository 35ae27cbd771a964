// @vitest-environment jsdom
// The live GPU charts: plotted from the samples' GPU figures while a sampler reports; where none does (every
// sample's figures null), both chart places say "no GPU sampler" with the sampler's reason instead of staying empty.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BenchSample } from '../../../src-shared/contract/bench';
import { GpuCharts, noGpuSamplerNote } from './GpuCharts';

const sample = (elapsedMs: number, gpu: Partial<BenchSample> = {}): BenchSample => ({
  runId: 'r', elapsedMs, label: 'pass 1', phase: 'window', reqPerS: 1, audioSecondsPerS: 1, latencyP50Ms: 100, latencyP95Ms: 200, queueDepth: 0, numOutstanding: 1, gpuUtilPct: null, vramMiB: null, ...gpu,
});
const rows = (samples: BenchSample[]) => samples.map((s) => ({ t: s.elapsedMs / 1000, gpu: s.gpuUtilPct, vram: s.vramMiB }));

describe('live GPU charts', () => {
  afterEach(cleanup);

  it('say "no GPU sampler" and why where no sample has GPU figures', () => {
    const samples = [sample(0, { gpuNote: 'no NVIDIA GPU telemetry (nvidia-smi not found)' }), sample(250, { gpuNote: 'no NVIDIA GPU telemetry (nvidia-smi not found)' })];
    render(<GpuCharts samples={samples} data={rows(samples)} bands={[]} syncId="s" />);
    for (const id of ['chart-gpu', 'chart-vram']) {
      expect(screen.getByTestId(`${id}-none`).textContent).toBe('no GPU sampler: no NVIDIA GPU telemetry (nvidia-smi not found)');
    }
    // the chart places keep their units
    expect(['chart-gpu', 'chart-vram'].map((id) => screen.getByTestId(id).getAttribute('data-unit'))).toEqual(['%', 'MiB']);
  });

  it('plot the figures while a sampler reports, and say nothing before the first sample', () => {
    const samples = [sample(0, { gpuUtilPct: 37, vramMiB: 1234, gpuNote: null }), sample(250, { gpuUtilPct: 41, vramMiB: 1300, gpuNote: null })];
    render(<GpuCharts samples={samples} data={rows(samples)} bands={[]} syncId="s" />);
    expect(screen.queryByTestId('chart-gpu-none')).toBeNull();
    expect(screen.getByTestId('chart-gpu').getAttribute('data-num-points')).toBe('2');
    expect(noGpuSamplerNote([])).toBeNull();
    // an older main that sends no note still gets the words
    expect(noGpuSamplerNote([sample(0)])).toBe('no GPU sampler');
  });
});
