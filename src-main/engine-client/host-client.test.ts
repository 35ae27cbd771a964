/**
 * HostClient against fake host processes: replies, events, and what a crash does — every call in
 * flight fails with 'engine-crashed', state goes restarting → ready on a fresh process, and after
 * too many crashes the client stops restarting and fails calls at once instead of hanging. The
 * watchdog: a host that stops answering (also a real process with a blocked event loop) or sits in
 * one step is reported not ready, killed and restarted; request counters survive all of it.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StudioError } from '../../src-shared/errors';
import { HostClient, defaultHostWatchdogConfig } from './host-client';
import { spawnNodeHost } from './host-process';
import { FakeHostProcess, type FakeHandler } from './testing/fake-host-process';

/** Fast watchdog bounds for fake hosts: ping every 10 ms, not ready after 40 ms, killed after 120 ms. */
const FAST_WATCHDOG = { heartbeatIntervalMs: 10, unreadyAfterMs: 40, stallTimeoutMs: 120 };

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const failureOf = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as StudioError);

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

  it("zeroes the last status's in-flight gauges once a crash has answered every call, while the host restarts", async () => {
    const spawned: FakeHostProcess[] = [];
    // The first host is ready at once; the restarted one takes far longer than the test.
    const client = new HostClient({ spawn: () => (spawned.push(new FakeHostProcess(spawned.length + 1, {}, spawned.length === 0 ? 1 : 600_000)), spawned.at(-1)!), log: () => {} });
    await client.start();
    const inFlight = ['a', 'b', 'c'].map((requestId) => client.call('synthesize', { requestId } as never).catch((e: unknown) => e));
    const busy = { state: 'ready', queueDepth: 1, numWaiting: 1, numRunning: 2, numInFlight: 3, gpuLeased: true, numCompleted: 7 };
    spawned[0].emit({ kind: 'event', event: 'studio:engine.onDidChangeStatus', payload: busy as never });
    expect(client.lastKnownStatus).toMatchObject({ numInFlight: 3, numRunning: 2 });
    spawned[0].crash(null, 'SIGKILL');
    for (const err of await Promise.all(inFlight)) expect(err).toMatchObject({ code: 'engine-crashed' });
    expect(client.currentState).toBe('restarting');
    expect(client.requestCounters().numInFlight).toBe(0);
    // counts of what finished stay; gauges of work that no longer exists do not
    expect(client.lastKnownStatus).toMatchObject({ queueDepth: 0, numWaiting: 0, numRunning: 0, numInFlight: 0, gpuLeased: false, numCompleted: 7 });
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

  it('has documented watchdog defaults', () => {
    expect(defaultHostWatchdogConfig()).toEqual({ heartbeatIntervalMs: 1_000, unreadyAfterMs: 5_000, stallTimeoutMs: 30_000 });
  });
});

describe('HostClient watchdog', () => {
  it('reports a host that stops answering as not ready, then kills and restarts it, failing its calls with a reason', async () => {
    const spawned: FakeHostProcess[] = [];
    const states: string[] = [];
    const client = new HostClient({ spawn: () => fakeProcess(spawned), watchdog: FAST_WATCHDOG, log: () => {} });
    client.onDidChangeState((st) => states.push(st));
    await client.start();
    await until(() => spawned[0].sent.some((m) => m.method === 'ping'));
    expect(client.health()).toMatchObject({ ready: true, state: 'ready', detail: 'ready' });
    const inFlight = failureOf(client.call('synthesize', { requestId: 'stuck' } as never));
    spawned[0].hang();
    await until(() => !client.health().ready);
    expect(client.health()).toMatchObject({ ready: false, state: 'ready' });
    expect(client.health().detail).toMatch(/has not answered a heartbeat for \d+ ms/);
    const err = await inFlight;
    expect(err.code).toBe('engine-crashed');
    expect(err.message).toMatch(/stopped responding \(no heartbeat reply for [\d,]+ ms\) with 1 request\(s\) in flight; it was killed/);
    expect(err.details).toMatchObject({ reason: 'unresponsive' });
    expect(spawned[0].kills).toEqual(['SIGKILL']);
    await client.whenReady();
    expect(spawned).toHaveLength(2);
    expect(states).toEqual(['ready', 'restarting', 'ready']);
    await until(() => client.health().ready);
    expect(client.requestCounters()).toMatchObject({ numStarted: 1, numFailed: 1, numCrashed: 1, numStalls: 1, numRestarts: 1, numInFlight: 0 });
    await client.dispose();
  });

  it('kills a host that answers heartbeats but sits in one engine step past the bound', async () => {
    const spawned: FakeHostProcess[] = [];
    let stepAgeMs = 0;
    const client = new HostClient({
      spawn: () => {
        const p = new FakeHostProcess(spawned.length + 1, { ping: () => ({ stepAgeMs: spawned.length === 1 ? stepAgeMs : 0, numJobs: 1 }) });
        spawned.push(p);
        return p;
      },
      watchdog: FAST_WATCHDOG,
      log: () => {},
    });
    await client.start();
    const inFlight = failureOf(client.call('synthesize', { requestId: 'slow' } as never));
    stepAgeMs = 60; // past unreadyAfterMs, not yet past stallTimeoutMs
    await until(() => !client.health().ready);
    expect(client.health().detail).toMatch(/in one engine step for 60 ms/);
    stepAgeMs = 500;
    const err = await inFlight;
    expect(err.details).toMatchObject({ reason: 'stuck-step' });
    expect(err.message).toMatch(/one engine step has run for 500 ms/);
    await client.whenReady();
    await client.dispose();
  });

  it('does not kill a host whose watchdog is off (stallTimeoutMs 0)', async () => {
    const spawned: FakeHostProcess[] = [];
    const client = new HostClient({ spawn: () => fakeProcess(spawned), watchdog: { ...FAST_WATCHDOG, stallTimeoutMs: 0 }, log: () => {} });
    await client.start();
    spawned[0].hang();
    await new Promise((r) => setTimeout(r, 200));
    expect(client.health().ready).toBe(false);
    expect(spawned).toHaveLength(1);
    expect(spawned[0].kills).toEqual([]);
    await client.dispose();
  });

  it('kills and restarts a real host process whose event loop is blocked', async () => {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'engine-host', 'testing', 'hanging-host.ts');
    const pids: number[] = [];
    const client = new HostClient({
      spawn: () => {
        const p = spawnNodeHost({ entry, args: [], execArgv: ['--import', 'tsx'] });
        pids.push(p.pid!);
        return p;
      },
      watchdog: { heartbeatIntervalMs: 100, unreadyAfterMs: 1_000, stallTimeoutMs: 3_000 },
      log: () => {},
    });
    await client.start();
    const started = Date.now();
    const inFlight = failureOf(client.call('synthesize', { requestId: 'blocks-the-loop' } as never));
    await until(() => !client.health().ready, 10_000);
    const err = await inFlight;
    expect(err.code).toBe('engine-crashed');
    expect(err.message).toMatch(/stopped responding/);
    expect(Date.now() - started).toBeLessThan(15_000);
    await client.whenReady();
    expect(pids.length).toBeGreaterThanOrEqual(2);
    // the blocked process is gone (SIGKILL needs no cooperation from its event loop)
    await until(() => {
      try {
        process.kill(pids[0], 0);
        return false;
      } catch {
        return true;
      }
    });
    expect(await client.call('status', {})).toMatchObject({ pid: pids.at(-1) });
    await until(() => client.health().ready);
    await client.dispose();
    // dispose returns once the process has exited (a GPU engine's memory is free only then)
    expect(() => process.kill(pids.at(-1)!, 0)).toThrow();
  }, 30_000);

  it('dispose and a model switch wait for the host to exit after SIGTERM, and SIGKILL one that outlives stopTimeoutMs', async () => {
    const spawned: FakeHostProcess[] = [];
    const slow = new HostClient({ spawn: () => fakeProcess(spawned), log: () => {} });
    await slow.start();
    spawned[0].ignoredSignals.add('SIGTERM');
    let exited = false;
    setTimeout(() => {
      exited = true;
      spawned[0].crash(0, null);
    }, 50);
    await slow.dispose();
    expect(exited).toBe(true);
    expect(spawned[0].kills).toEqual(['SIGTERM']);

    // a model switch spawns the new host only after the old one has exited (both would not fit on a GPU)
    const order: string[] = [];
    const switching = new HostClient({ spawn: () => { order.push(`spawn ${spawned.length + 1}`); return fakeProcess(spawned); }, log: () => {} });
    await switching.start();
    const old = spawned.at(-1)!;
    old.ignoredSignals.add('SIGTERM');
    setTimeout(() => {
      order.push(`exit ${old.pid}`);
      old.crash(0, null);
    }, 50);
    await switching.replace(() => { order.push(`spawn ${spawned.length + 1}`); return fakeProcess(spawned); });
    expect(order).toEqual([`spawn ${old.pid}`, `exit ${old.pid}`, `spawn ${old.pid + 1}`]);
    await switching.dispose();

    const logs: string[] = [];
    const stuck = new HostClient({ spawn: () => fakeProcess(spawned), stopTimeoutMs: 20, log: (m) => logs.push(m) });
    await stuck.start();
    spawned.at(-1)!.ignoredSignals.add('SIGTERM');
    await stuck.dispose();
    expect(spawned.at(-1)!.kills).toEqual(['SIGTERM', 'SIGKILL']);
    expect(logs.join('\n')).toMatch(/did not exit within 20 ms of SIGTERM; killing it/);
  });
});

describe('HostClient request counters', () => {
  it('counts started, completed, failed, cancelled and crashed requests across engine host restarts', async () => {
    const spawned: FakeHostProcess[] = [];
    const synthesize: FakeHandler = (args) => {
      const id = (args as { requestId: string }).requestId;
      if (id.startsWith('ok')) return { requestId: id };
      if (id.startsWith('bad')) throw { code: 'invalid-argument', message: 'bad voice' };
      if (id.startsWith('cancel')) throw { code: 'cancelled', message: 'cancelled' };
      return new Promise(() => {}); // in flight until the host dies
    };
    const client = new HostClient({
      spawn: () => {
        const p = new FakeHostProcess(spawned.length + 1, { synthesize, status: () => ({ numCompleted: 0 }) });
        spawned.push(p);
        return p;
      },
      log: () => {},
    });
    await client.start();
    const call = (requestId: string) => client.call('synthesize', { requestId } as never).catch(() => null);
    await Promise.all([call('ok-1'), call('ok-2'), call('bad-1'), call('cancel-1')]);
    const doomed = [call('hang-1'), call('hang-2')];
    expect(client.requestCounters()).toMatchObject({ numStarted: 6, numInFlight: 2 });
    spawned[0].crash(null, 'SIGSEGV');
    await Promise.all(doomed);
    await client.whenReady();
    await Promise.all([call('ok-3'), call('bad-2')]);
    // 8 started = 3 completed + 4 failed (2 invalid-argument + 2 crashed) + 1 cancelled + 0 in flight
    expect(client.requestCounters()).toEqual({
      numStarted: 8,
      numCompleted: 3,
      numFailed: 4,
      numCancelled: 1,
      numCrashed: 2,
      numInFlight: 0,
      numRestarts: 1,
      numStalls: 0,
      numFailedByCode: { 'invalid-argument': 2, 'engine-crashed': 2 },
    });
    // the host's own status starts over with the new process; the supervisor's counters do not
    expect(await client.call('status', {})).toMatchObject({ numCompleted: 0, numRestarts: 1 });
    await client.dispose();
  });
});

