// A host process that dies while the supervisor is still sending to it: the failed writes (EPIPE) are not
// uncaught exceptions in the supervisor (the soak killed the host mid-traffic and crashed the test run so).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnNodeHost } from './host-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-process-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('spawnNodeHost', () => {
  it('sends to a host that has just died without an uncaught EPIPE', async () => {
    // the child says hello, then kills itself without closing its channel
    const entry = path.join(dir, 'dies.mjs');
    fs.writeFileSync(entry, "process.send('hello'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 20);\n");
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 5; round++) {
        const host = spawnNodeHost({ entry, args: [] });
        let exited = false;
        host.onExit(() => (exited = true));
        await new Promise<void>((resolve) => host.onMessage(() => resolve()));
        // keep writing through the death, as a supervisor with calls in flight does
        while (!exited) {
          host.send({ kind: 'heartbeat', id: round } as never);
          await new Promise((r) => setImmediate(r));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  }, 30_000);
});
