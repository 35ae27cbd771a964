/**
 * A stand-in engine host process for watchdog tests: it speaks the protocol (ready, heartbeat
 * pings, status), and a 'synthesize' call blocks its event loop for good — as a synchronous read of
 * a FIFO did — without burning CPU (Atomics.wait on the main thread). Started by tests only.
 */
import { createHostTransport } from '../host-transport';

const transport = createHostTransport();
transport.onMessage((m) => {
  if (m.kind !== 'call') return;
  if (m.method === 'synthesize') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // never returns
  const value = m.method === 'ping' ? { stepAgeMs: 0, numJobs: 0 } : { state: 'ready', pid: process.pid };
  transport.post({ kind: 'reply', id: m.id, ok: true, value });
});
transport.onParentGone(() => process.exit(0));
transport.post({ kind: 'ready', status: { state: 'ready' } as never });
