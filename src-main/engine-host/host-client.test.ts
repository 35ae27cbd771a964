/**
 * HostClient against fake host processes: replies, events, and what a crash does — every call in
 * flight fails with 'engine-crashed', state goes restarting → ready on a fresh process, and after
 * too many crashes the client stops restarting and fails calls at once instead of hanging.
 */
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { HostClient } from './host-client';
import { FakeHostProcess } from './testing/fake-host-process';

/** A fake host that answers 'status' at once and never answers 'synthesize' (so it stays in flight). */
function fakeProcess(spawned: FakeHostProcess[]): FakeHostProcess {
  const p = new FakeHostProcess(spawned.length + 1, { status: (_a, proc) => ({ pid: proc.pid }) });
  spawned.push(p);
  return p;
}

describe('HostClient', () => {
  it('routes replies to their calls and events to listeners', async () => {
    const spawned: FakeHostProcess[] = [];
    const client = new HostClient({ spawn: () => fakeProcess(spawned), log: () => {} });
    const events: string[] = [];
    client.onEvent((e) => events.push(e));
    await client.start();
    expect(await client.call('status', {})).toEqual({ pid: 1, numRestarts: 0 });
    spawned[0].emit({ kind: 'event', event: 'studio:tts.onDidProgress', payload: { requestId: 'x' } });
    // the ready handshake is announced as a status event, then the host's own event
    expect(events).toEqual(['studio:engine.onDidChangeStatus', 'studio:tts.onDidProgress']);
    await client.dispose();
  });

  it('fails in-flight calls with engine-crashed when the host dies, then restarts it', async () => {
    const spawned: FakeHostProcess[] = [];
    const states: string[] = [];
    const client = new HostClient({ spawn: () => fakeProcess(spawned), log: () => {} });
    client.onDidChangeState((s) => states.push(s));
    await client.start();
    const inFlight = [
      client.call('synthesize', { requestId: 'a' } as never),
      client.call('synthesize', { requestId: 'b' } as never),
    ];
    spawned[0].crash(null, 'SIGKILL');
    for (const p of inFlight) {
      const err = await p.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StudioError);
      expect((err as StudioError).code).toBe('engine-crashed');
      expect((err as StudioError).message).toContain('2 request(s) in flight');
    }
    await client.whenReady();
    expect(spawned).toHaveLength(2);
    expect(client.restartCount).toBe(1);
    expect(states).toEqual(['ready', 'restarting', 'ready']);
    expect(await client.call('status', {})).toEqual({ pid: 2, numRestarts: 1 });
    await client.dispose();
  });

  it('stops restarting after maxRestarts crashes within the window and fails calls at once', async () => {
    const spawned: FakeHostProcess[] = [];
    const client = new HostClient({ spawn: () => fakeProcess(spawned), maxRestarts: 2, restartWindowMs: 60_000, log: () => {} });
    await client.start();
    for (let i = 0; i < 2; i++) {
      spawned[spawned.length - 1].crash(1, null);
      await client.whenReady();
    }
    spawned[spawned.length - 1].crash(1, null);
    expect(client.currentState).toBe('failed');
    const err = await client.call('status', {}).catch((e: unknown) => e);
    expect((err as StudioError).code).toBe('engine-crashed');
    expect(spawned).toHaveLength(3);
  });

  it('reports a host that fails to load its model as a fatal error, not a hang', async () => {
    const client = new HostClient({
      spawn: () => {
        const p = new FakeHostProcess(9, {}, 1_000);
        setTimeout(() => p.emit({ kind: 'fatal', error: { code: 'model-missing', message: 'no model at /x; run studio model pull', details: {} } }), 1);
        return p;
      },
      log: () => {},
    });
    const err = await client.start().catch((e: unknown) => e);
    expect((err as StudioError).code).toBe('model-missing');
    expect(client.currentState).toBe('failed');
  });
});
