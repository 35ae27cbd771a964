/**
 * The dashboard's protocol runner over a fake engine host: a short real run produces the protocol
 * tables, and live samples carry throughput and — from an nvidia-smi stand-in on PATH — GPU
 * utilisation and VRAM while the run goes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchSample } from '../../src-shared/contract/bench';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createProtocolBenchRunner } from './bench-service';

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
      { onSample: (s) => samples.push(s), signal: new AbortController().signal },
    );
    expect(output.summary.length).toBe(1);
    expect(output.passes.length).toBe(1);
    expect(samples.length).toBeGreaterThan(2);
    const withGpu = samples.filter((s) => s.gpuUtilPct !== null);
    expect(withGpu.length).toBeGreaterThan(0);
    expect(withGpu[withGpu.length - 1]).toMatchObject({ gpuUtilPct: 37, vramMiB: 1234 });
    expect(samples.some((s) => s.reqPerS > 0)).toBe(true);
  }, 60_000);
});
