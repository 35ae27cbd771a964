/**
 * EnginePool over fake host processes: requests go to the least loaded ready engine, cancel follows
 * a request to its engine, one engine's crash fails only its own calls and restarts only it (a call
 * it had not accepted goes to another engine), one engine drains alone, status and counters add up
 * per engine, and with one engine every call passes straight through.
 */
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { EngineStatus } from '../../src-shared/synthesis';
import { EnginePool } from './engine-pool';
import { engineDevicesFor } from './engine-devices';
import { FakeHostProcess } from './testing/fake-host-process';

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const status = (numRunning: number): Partial<EngineStatus> => ({ state: 'ready', provider: 'cpu', queueDepth: 0, numWaiting: 0, numRunning, numInFlight: numRunning, numCompleted: 0, numFailed: 0, numCancelled: 0, numRejected: 0, model: null });

/**
 * Fakes whose 'synthesize' waits until released (release(...requestIds)) and answers with the engine
 * index, so a test sees which engine served what.
 */
function fakePool(numEngines: number) {
  const spawned: FakeHostProcess[][] = Array.from({ length: numEngines }, () => []);
  const waiting = new Map<string, () => void>();
  const cancels: { engine: number; requestId: string }[] = [];
  const spawns = spawned.map((list, engine) => () => {
    const p = new FakeHostProcess(100 * (engine + 1) + list.length, {
      synthesize: (args) => new Promise((resolve) => waiting.set((args as { requestId: string }).requestId, () => resolve({ engine, requestId: (args as { requestId: string }).requestId }))),
      cancel: (args) => (cancels.push({ engine, requestId: (args as { requestId: string }).requestId }), { cancelled: true }),
      status: () => status(engine + 1),
      drain: () => ({ numFinished: engine + 1, numCancelled: 0 }),
      listVoices: () => [{ name: `voice-of-${engine}` }],
    });
    list.push(p);
    return p;
  });
  const pool = new EnginePool({ spawns, labels: spawns.map((_, i) => `cpu#${i}`), log: () => {} });
  const release = (...requestIds: string[]) => {
    for (const requestId of requestIds) {
      waiting.get(requestId)!();
      waiting.delete(requestId);
    }
  };
  /** Starts the pool and sends 'a' and 'b', which the fakes hold until released. */
  const startWithTwoWaiting = async () => {
    await pool.start();
    const calls = [synth(pool, 'a'), synth(pool, 'b')] as const;
    await until(() => waiting.size === 2);
    return calls;
  };
  return { pool, spawned, waiting, cancels, release, startWithTwoWaiting };
}

const synth = (pool: EnginePool, requestId: string) => pool.call('synthesize', { requestId } as never) as unknown as Promise<{ engine: number }>;

describe('EnginePool', () => {
  it('sends each request to the engine with the fewest in flight, lower index on ties', async () => {
    const { pool, waiting, release } = fakePool(2);
    await pool.start();
    const a = synth(pool, 'a');
    const b = synth(pool, 'b');
    const c = synth(pool, 'c');
    await until(() => waiting.size === 3);
    release('a');
    expect((await a).engine).toBe(0);
    release('b');
    expect((await b).engine).toBe(1);
    const d = synth(pool, 'd'); // engine 0 holds c, engine 1 nothing
    await until(() => waiting.size === 2);
    release('c', 'd');
    expect([(await c).engine, (await d).engine]).toEqual([0, 1]);
    await pool.dispose();
  });

  it('routes cancel to the engine that runs the request, and reports unknown ids as not cancelled', async () => {
    const { pool, cancels, release, startWithTwoWaiting } = fakePool(2);
    const [a, b] = await startWithTwoWaiting();
    expect(await pool.call('cancel', { requestId: 'b' })).toEqual({ cancelled: true });
    expect(await pool.call('cancel', { requestId: 'nobody' })).toEqual({ cancelled: false });
    expect(cancels).toEqual([{ engine: 1, requestId: 'b' }]);
    release('a', 'b');
    await Promise.all([a, b]);
    await pool.dispose();
  });

  it("fails only the crashed engine's calls, restarts only it, and routes around it meanwhile", async () => {
    const { pool, spawned, waiting, release, startWithTwoWaiting } = fakePool(2);
    const announced: EngineStatus[] = [];
    pool.onEvent((event, payload) => (event === 'studio:engine.onDidChangeStatus' ? announced.push(payload as EngineStatus) : undefined));
    const [a, b] = await startWithTwoWaiting();
    spawned[1][0].crash(null, 'SIGKILL');
    // the dashboard hears of the one engine's restart while the pool stays ready
    expect(announced.at(-1)?.engines?.map((e) => e.hostState)).toEqual(['ready', 'restarting']);
    expect(announced.at(-1)?.state).toBe('ready');
    const failure = await b.then(() => null, (e: StudioError) => e);
    expect(failure?.code).toBe('engine-crashed');
    expect(pool.health().ready).toBe(true); // engine 0 still serves
    expect(pool.engineEntries().map((e) => e.hostState)).toEqual(['ready', 'restarting']);
    const c = synth(pool, 'c'); // engine 1 is restarting: goes to 0 although 0 is busier
    await until(() => waiting.has('c'));
    release('a', 'c');
    expect([(await a).engine, (await c).engine]).toEqual([0, 0]);
    await until(() => pool.engines[1].currentState === 'ready');
    expect(spawned[1]).toHaveLength(2);
    expect(spawned[0]).toHaveLength(1);
    const totals = pool.requestCounters();
    expect(totals).toMatchObject({ numStarted: 3, numCompleted: 2, numFailed: 1, numCrashed: 1, numRestarts: 1, numInFlight: 0 });
    expect(pool.engineEntries().map((e) => e.totals.numCrashed)).toEqual([0, 1]);
    await pool.dispose();
  });

  it('sends a request to a live engine when its engine died before accepting it, and never one it had accepted', async () => {
    const { pool, spawned, waiting, release } = fakePool(2);
    await pool.start();
    const a = synth(pool, 'a'); // engine 0 is busier from now on
    await until(() => waiting.has('a'));
    // engine 1's process is gone but its exit not yet seen: it reads nothing, accepts nothing
    spawned[1][0].hang();
    const b = synth(pool, 'b');
    await until(() => spawned[1][0].sent.some((m) => m.method === 'synthesize'));
    spawned[1][0].crash(null, 'SIGKILL');
    await until(() => waiting.has('b')); // b runs on engine 0 now
    release('a', 'b');
    expect([(await a).engine, (await b).engine]).toEqual([0, 0]);
    expect(pool.engineEntries().map((e) => e.totals.numCrashed)).toEqual([0, 1]);
    // a request engine 1 had accepted fails with the crash: it may be the request's own doing
    await until(() => pool.engines[1].currentState === 'ready');
    const c = synth(pool, 'c');
    const d = synth(pool, 'd');
    await until(() => waiting.has('c') && waiting.has('d'));
    spawned[1][1].crash(null, 'SIGSEGV');
    const failure = await d.then(() => null, (e: StudioError) => e);
    expect(failure).toMatchObject({ code: 'engine-crashed' });
    expect(failure?.details.accepted).toBeUndefined();
    release('c');
    expect((await c).engine).toBe(0);
    await pool.dispose();
  });

  it('drains one engine: it finishes what it has, takes nothing new, and comes back when undrained', async () => {
    const { pool, waiting, cancels, release, startWithTwoWaiting } = fakePool(2);
    const [a, b] = await startWithTwoWaiting();
    const drained = pool.drainEngine(1, 60_000);
    expect(pool.engineEntries().map((e) => e.draining)).toEqual([false, true]);
    const c = synth(pool, 'c'); // engine 1 is less loaded, but draining
    await until(() => waiting.has('c'));
    release('b');
    expect(await drained).toEqual({ numFinished: 1, numCancelled: 0 });
    expect((await b).engine).toBe(1);
    release('a', 'c');
    expect([(await a).engine, (await c).engine]).toEqual([0, 0]);
    await expect(pool.drainEngine(0, 10)).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/last one taking requests/) });
    await expect(pool.drainEngine(7, 10)).rejects.toMatchObject({ code: 'invalid-argument' });
    pool.undrainEngine(1);
    const d = synth(pool, 'd');
    await until(() => waiting.has('d'));
    release('d');
    expect((await d).engine).toBe(0); // both idle: the lower index
    const e = synth(pool, 'e');
    const f = synth(pool, 'f');
    await until(() => waiting.size === 2);
    // past the grace period, what still runs on the drained engine is cancelled there
    expect(await pool.drainEngine(1, 10)).toEqual({ numFinished: 0, numCancelled: 1 });
    expect(cancels).toEqual([{ engine: 1, requestId: 'f' }]);
    release('e', 'f');
    await Promise.all([e, f]);
    await pool.dispose();
  });

  it('adds status and drain up over the engines and lists each engine', async () => {
    const { pool } = fakePool(2);
    await pool.start();
    const s = await pool.call('status', {});
    expect(s.numRunning).toBe(3);
    expect(s.engines?.map((e) => [e.label, e.hostState, e.ready])).toEqual([['cpu#0', 'ready', true], ['cpu#1', 'ready', true]]);
    expect(await pool.call('drain', { graceMs: 10 })).toEqual({ numFinished: 3, numCancelled: 0 });
    await pool.dispose();
    expect(pool.currentState).toBe('disposed');
  });

  it('switches every engine to another model, cancelling what was in flight', async () => {
    const { pool, spawned, waiting } = fakePool(2);
    await pool.start();
    const failures = [synth(pool, 'a'), synth(pool, 'b')].map((r) => r.then(() => null, (e: StudioError) => e));
    await until(() => waiting.size === 2);
    const next: FakeHostProcess[] = [];
    await pool.replace((i) => {
      const p = new FakeHostProcess(900 + i, { status: () => status(0) });
      next.push(p);
      return p;
    });
    for (const f of await Promise.all(failures)) expect(f?.code).toBe('cancelled');
    expect(next.map((p) => p.pid)).toEqual([900, 901]);
    expect(pool.engineEntries().map((e) => e.pid)).toEqual([900, 901]);
    expect(spawned.flat().every((p) => p.kills.length === 1)).toBe(true);
    await pool.dispose();
  });

  it('announces one engine\'s status change as the combined status with every engine listed', async () => {
    const { pool, spawned } = fakePool(2);
    const events: EngineStatus[] = [];
    pool.onEvent((event, payload) => (event === 'studio:engine.onDidChangeStatus' ? events.push(payload as EngineStatus) : undefined));
    await pool.start();
    events.length = 0;
    spawned[1][0].emit({ kind: 'event', event: 'studio:engine.onDidChangeStatus', payload: status(5) });
    expect(events).toHaveLength(1);
    expect(events[0].numRunning).toBe(5); // engine 0's ready handshake carries no counts
    expect(events[0].engines?.map((e) => e.numRunning)).toEqual([0, 5]);
    await pool.dispose();
  });

  it('starts when at least one engine starts, and fails only when none does', async () => {
    const fatal = () => {
      const p = new FakeHostProcess(7, {}, 1_000_000);
      setTimeout(() => p.emit({ kind: 'fatal', error: { code: 'model-invalid', message: 'no graphs here', details: {} } }), 1);
      return p;
    };
    const logs: string[] = [];
    const half = new EnginePool({ spawns: [fatal, () => new FakeHostProcess(8)], labels: ['gpu:0', 'gpu:1'], log: (m) => logs.push(m) });
    await half.start();
    expect(half.health().ready).toBe(true);
    expect(logs.join('\n')).toMatch(/gpu:0: no graphs here/);
    await half.dispose();
    const none = new EnginePool({ spawns: [fatal, fatal], log: () => {} });
    await expect(none.start()).rejects.toMatchObject({ code: 'model-invalid' });
    await none.dispose();
  });

  it('with one engine passes calls, states and health straight through', async () => {
    const { pool } = fakePool(1);
    const states: string[] = [];
    pool.onDidChangeState((s) => states.push(s));
    await pool.start();
    expect(await pool.call('status', {})).toEqual({ ...status(1), numRestarts: 0 });
    expect(pool.health()).toEqual(pool.engines[0].health());
    expect(pool.pid).toBe(100);
    expect(states).toEqual(['ready']);
    await pool.dispose();
  });
});

describe('engineDevicesFor', () => {
  it('one default engine without --devices; CPU entries split the cores; GPU entries see one GPU each', () => {
    expect(engineDevicesFor(undefined, 'cpu')).toEqual([{ label: 'default', env: {}, engineConfig: {} }]);
    expect(engineDevicesFor('0,1', 'cpu', {}, { numCpuCores: 8 }).map((d) => [d.label, d.engineConfig.intraOpNumThreads])).toEqual([['cpu#0', 4], ['cpu#1', 4]]);
    expect(engineDevicesFor('0,1,2', 'cpu', {}, { numCpuCores: 2 }).map((d) => d.engineConfig.intraOpNumThreads)).toEqual([1, 1, 1]);
    expect(engineDevicesFor('0,1', 'cpu', { intraOpNumThreads: 1 }).map((d) => d.engineConfig)).toEqual([{}, {}]);
    expect(engineDevicesFor('2,3', 'cuda', {}, { numGpus: () => 4 }).map((d) => [d.label, d.env.CUDA_VISIBLE_DEVICES])).toEqual([['gpu:2', '2'], ['gpu:3', '3']]);
    expect(engineDevicesFor('auto', 'cuda', {}, { numGpus: () => 4 }).map((d) => d.label)).toEqual(['gpu:0', 'gpu:1', 'gpu:2', 'gpu:3']);
    expect(engineDevicesFor('auto', 'auto', {}, { numGpus: () => 0 }).map((d) => d.label)).toEqual(['cpu#0']);
  });

  it('refuses malformed and duplicate lists, and several entries on providers that pick their own adapter', () => {
    for (const bad of ['0,0', 'a', '0;1', '-1']) expect(() => engineDevicesFor(bad, 'cpu')).toThrow(/--devices/);
    expect(() => engineDevicesFor('0,1', 'webgpu')).toThrow(/cannot be pinned to another; use --devices 0/);
  });
});
