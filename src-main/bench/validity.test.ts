// Validity tests: every response must equal the golden byte for byte; one wrong byte marks the measurement invalid.
import { describe, expect, it } from 'vitest';
import { createHttpTarget } from './http-target';
import { runBenchmark } from './run-benchmark';
import { startFakeTtsServer } from './testing/fake-tts-server';

const NO_GPU = { nvidiaSmiPath: '/nonexistent/nvidia-smi' };

describe('validity against the golden', () => {
  it('marks the measurement invalid and names the first differing request when one byte is wrong', async () => {
    // request 1 warm-up, 2 golden, 3–4 the 2-client level's warm-up (level-warm-up.ts), 5.. load: corrupt the 8th served response at byte 100
    const server = await startFakeTtsServer({ serviceMs: 20, batchSize: 1, corruptRequestNumber: 8, corruptByteOffset: 100 });
    try {
      const record = await runBenchmark({ ...NO_GPU, variants: [{ name: 'v', createTarget: () => createHttpTarget(server.url) }], workloads: ['plain'], clientCounts: [2], windowMs: 500, numPasses: 1 });
      const m = record.measurements[0];
      expect(m.valid).toBe(false);
      expect(m.counts.numMismatches).toBe(1);
      expect(m.firstMismatch?.byteOffset).toBe(100);
      // the 8th served is the 4th load request → requestIndex 3 (clients send in order on a serial server)
      expect(m.firstMismatch?.requestIndex).toBe(3);
      expect(m.invalidReasons.join(' ')).toContain('request 3');
    } finally {
      await server.dispose();
    }
  }, 20_000);
});
