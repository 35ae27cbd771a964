/**
 * The dashboard's protocol runner over a fake engine host: a short real run produces the protocol
 * tables, and live samples carry throughput and — from an nvidia-smi stand-in on PATH — GPU
 * utilisation and VRAM while the run goes. The service gives each run one id, which its record keeps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRunView, BenchSample } from '../../src-shared/contract/bench';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { BenchService, createProtocolBenchRunner, type BenchRunOutput, type BenchRunStorePort, type BenchRunnerPort } from './bench-service';

const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});

/** An executable named nvidia-smi that prints one reading every 100 ms: 37 % busy, 1234 MiB used. */
function fakeNvidiaSmiOnPath(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-smi-'));
  const script = path.join(dir, 'nvidia-smi');
  fs.writeFileSync(script, '#!/bin/sh\nwhile true; do echo "37, 1234, 143771"; sleep 0.1; done\n');
  fs.chmodSync(script, 0o755);
  process.env.PATH = `${dir}${path.delimiter}${originalPath}`;
}

const fakeHost = {
  call: async (method: string, args: unknown) => {
    if (method === 'status') return { queueDepth: 0, numWaiting: 0, numRunning: 0 };
    if (method === 'cancel') return { cancelled: true };
    const req = args as SynthesisRequest;
    await new Promise((r) => setTimeout(r, 40));
    // deterministic PCM from the seed, so goldens match byte for byte
    const pcm = new Float32Array(2400).map((_, i) => Math.sin(i * (req.seed % 7)) * 0.1);
    return { requestId: req.requestId, sampleRateHz: 24000, numSamples: pcm.length, pcm, timings: { audioDurationMs: 100, latencyFirstAudioMs: 10 } } as unknown as SynthesisResult;
  },
};

describe('protocol bench runner', () => {
  it('runs the protocol and streams live samples with GPU utilisation and VRAM', async () => {
    fakeNvidiaSmiOnPath();
    const runner = createProtocolBenchRunner(fakeHost as never);
    const samples: Omit<BenchSample, 'runId'>[] = [];
    const output = await runner.run(
      { variants: [{ name: 'a', target: 'inproc' }], workloads: ['plain'], clientCounts: [2], windowMs: 1000, numPasses: 1 },
      { runId: '20261205-010203-abcdef12', onSample: (s) => samples.push(s), signal: new AbortController().signal },
    );
    // One id per run: the record carries the id the service showed.
    expect((output.record as { runId: string }).runId).toBe('20261205-010203-abcdef12');
    expect(output.summary.length).toBe(1);
    expect(output.passes[0]).toMatchObject({ numRequests: expect.any(Number), numErrors: 0, latencyP99S: expect.any(Number), audioSecondsPerS: expect.any(Number) });
    expect(output.passes[0].numRequests).toBeGreaterThan(0);
    expect(output.passes.length).toBe(1);
    expect(samples.length).toBeGreaterThan(2);
    const withGpu = samples.filter((s) => s.gpuUtilPct !== null);
    expect(withGpu.length).toBeGreaterThan(0);
    expect(withGpu[withGpu.length - 1]).toMatchObject({ gpuUtilPct: 37, vramMiB: 1234, gpuNote: null });
    expect(samples.some((s) => s.reqPerS > 0)).toBe(true);
    // first audio of the recent completions: the fake host answers in ~40 ms with a first audio of 10 ms
    expect(samples.some((s) => s.firstAudioP50Ms === 10 && s.firstAudioP95Ms === 10)).toBe(true);
  }, 60_000);
  it('says why the GPU figures are null where no nvidia-smi runs, in every live sample', async () => {
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'no-smi-'));
    const samples: Omit<BenchSample, 'runId'>[] = [];
    await createProtocolBenchRunner(fakeHost as never).run(
      { variants: [{ name: 'a', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 1000, numPasses: 1 },
      { runId: '20261205-010203-abcdef13', onSample: (s) => samples.push(s), signal: new AbortController().signal },
    );
    expect(samples.length).toBeGreaterThan(2);
    for (const s of samples) expect(s).toMatchObject({ gpuUtilPct: null, vramMiB: null, gpuNote: 'no NVIDIA GPU telemetry (nvidia-smi not found)' });
  }, 60_000);
});

describe('BenchService run ids', () => {
  it('lists a finished run once: the stored record has the id the service showed while it ran', async () => {
    const saved: { view: BenchRunView; output: BenchRunOutput }[] = [];
    const runner: BenchRunnerPort = {
      run: async (_input, hooks) => ({ summary: [], passes: [], record: { runId: hooks.runId }, markdown: '', html: '' }),
    };
    const store: BenchRunStorePort = {
      // As the library's store does: the view it lists is rebuilt from the record, keyed by the record's id.
      save: async (view, output) => {
        saved.push({ view: { ...view, runId: (output.record as { runId: string }).runId }, output });
      },
      list: async () => saved,
    };
    const service = new BenchService({ runner, runStore: store, nowMs: () => Date.UTC(2026, 11, 5, 1, 2, 3) });
    const finished = new Promise<BenchRunView>((resolve) => {
      const { runId } = service.startRun({ variants: [{ name: 'a', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 1000, numPasses: 1 }, () => {}, resolve);
      expect(runId).toMatch(/^20261205-010203-[0-9a-f]{8}$/);
    });
    const view = await finished;
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const runs = await service.listRuns();
    expect(runs.map((r) => r.runId)).toEqual([view.runId]);
    expect(saved[0].view.runId).toBe(view.runId);
  });
});
