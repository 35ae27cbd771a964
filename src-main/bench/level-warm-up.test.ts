// Each closed-loop level is warmed at its own concurrency before its window (level-warm-up.ts): the warm-up
// requests go out together, all answer before the level's first measured send, and none counts in a measurement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTarget } from './http-target';
import { runBenchmark } from './run-benchmark';
import { startFakeTtsServer, type FakeTtsServer } from './testing/fake-tts-server';

const NO_GPU = { nvidiaSmiPath: '/nonexistent/nvidia-smi' };

describe('warm-up of each level before its window', () => {
  let server: FakeTtsServer;
  beforeAll(async () => {
    server = await startFakeTtsServer({ serviceMs: 50, batchSize: 4 });
  });
  afterAll(() => server.dispose());

  it('sends the level\'s number of warm-up requests at once, all done before the level is measured', async () => {
    const record = await runBenchmark({ ...NO_GPU, variants: [{ name: 'fake', createTarget: () => createHttpTarget(server.url) }], workloads: ['plain'], clientCounts: [1, 3], windowMs: 400, numPasses: 1 });
    for (const m of record.measurements) {
      const warm = record.samples.requests.filter((r) => r.measurementId === `warmup-p1-fake-plain-c${m.numClients}`);
      expect(warm.map((r) => r.clientIndex).sort()).toEqual(Array.from({ length: m.numClients }, (_, i) => i));
      expect(warm.every((r) => r.phase === 'warmup' && r.outcome === 'ok')).toBe(true);
      // sent together: each went out before any of them answered
      expect(Math.max(...warm.map((r) => r.sendMs))).toBeLessThan(Math.min(...warm.map((r) => r.endMs)));
      const measured = record.samples.requests.filter((r) => r.measurementId === m.id);
      expect(measured.length).toBeGreaterThan(0);
      expect(Math.max(...warm.map((r) => r.endMs))).toBeLessThanOrEqual(Math.min(...measured.map((r) => r.sendMs)));
      // the warm-up is not counted in the level's figures: completed ≤ the measured samples alone
      expect(m.counts.numRequests).toBe(measured.length);
    }
  }, 30_000);
});
