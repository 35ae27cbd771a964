// Model tier: a short closed-loop run against the real headless server (engine host + tiny synthetic
// model) over loopback HTTP, plain workload; every response must match its golden byte for byte.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadlessServer, type HeadlessServer } from '../headless/headless-server';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { createHttpTarget } from './http-target';
import { runBenchmark } from './run-benchmark';
import type { BenchRunRecord } from './run-record';

describe('runBenchmark against the headless server with the tiny model', () => {
  let stack: StudioStack;
  let server: HeadlessServer;
  let record: BenchRunRecord;

  beforeAll(async () => {
    const modelDir = (await ensureTinyModel()).builtDir;
    stack = createStudioStack({
      hostKind: 'headless', version: 'bench-test', model: modelDir, userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-bench-')),
      engineConfig: { minFramesCap: 6, framesPerTextToken: 1, maxRunningSequences: 16, maxPrefillSequences: 16 }, schedulerConfig: {}, log: () => {},
    });
    await stack.host.start();
    server = await startHeadlessServer({ stack, port: 0, hostname: '127.0.0.1', rendererDir: null, log: () => {} });
    const url = server.url;
    record = await runBenchmark({ nvidiaSmiPath: '/nonexistent/nvidia-smi', variants: [{ name: 'headless', createTarget: () => createHttpTarget(url) }], workloads: ['plain'], clientCounts: [2], windowMs: 6000, numPasses: 1 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await stack?.dispose();
  });

  it('completes requests in the window and every response matches the golden', () => {
    expect(record.errors).toEqual([]);
    expect(record.measurements).toHaveLength(1);
    for (const m of record.measurements) {
      expect(m.numCompletedInWindow).toBeGreaterThan(0);
      expect(m.counts.numMismatches).toBe(0);
      expect(m.valid).toBe(true);
      expect(m.numStatusSamples).toBeGreaterThan(0);
    }
  });
});
