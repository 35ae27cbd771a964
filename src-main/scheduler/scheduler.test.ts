/**
 * Scheduler behaviour with a fake clock: admission limits, priorities and aging, dynamic-batching
 * hold, cancellation and deadlines, the bounded queue, and a KV pool that does not grow; it is the
 * one owner of the sequences in flight (no mirror to reconcile), and the FIFO of a bare engine.
 */
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { fifoSchedulerConfig, resolveSchedulerConfig, defaultSchedulerConfig } from './batch-policy';
import { Scheduler, timeoutError, type SequenceSpec } from './scheduler';

function fakeClock(startMs = 0) {
  let t = startMs;
  return { nowMs: () => t, advance: (ms: number) => (t += ms) };
}

const spec = (id: string, over: Partial<SequenceSpec> = {}): SequenceSpec => ({ id, priority: 'bulk', numPromptTokens: 20, maxNewTokens: 100, ...over });
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

describe('Scheduler', () => {
  it('admits up to maxRunningSequences and decodes the rest next step', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 2 }), clock);
    ['a', 'b', 'c'].forEach((id) => s.submit(spec(id)));
    const first = s.schedule().batch;
    expect(first.kind === 'step' && ids(first.admit)).toEqual(['a', 'b']);
    const second = s.schedule().batch;
    expect(second.kind === 'step' && [ids(second.admit), ids(second.decode)]).toEqual([[], ['a', 'b']]);
    s.finish('a');
    const third = s.schedule().batch;
    expect(third.kind === 'step' && [ids(third.admit), ids(third.decode)]).toEqual([['c'], ['b']]);
  });

  it('serial baseline: maxRunningSequences 1 runs one sequence at a time in arrival order', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1 }), fakeClock());
    ['a', 'b'].forEach((id) => s.submit(spec(id)));
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { batch } = s.schedule();
      if (batch.kind !== 'step') break;
      expect(batch.admit.length + batch.decode.length).toBe(1);
      const seq = [...batch.admit, ...batch.decode][0];
      order.push(seq.id);
      s.finish(seq.id);
    }
    expect(order).toEqual(['a', 'b']);
  });

  it('limits prompt tokens per step but always admits at least one', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxBatchTokens: 50 }), fakeClock());
    s.submit(spec('big', { numPromptTokens: 80 }));
    s.submit(spec('x', { numPromptTokens: 30 }));
    s.submit(spec('y', { numPromptTokens: 30 }));
    const b1 = s.schedule().batch;
    expect(b1.kind === 'step' && ids(b1.admit)).toEqual(['big']);
    const b2 = s.schedule().batch;
    // 30 + 30 = 60 > 50: only x fits this step
    expect(b2.kind === 'step' && ids(b2.admit)).toEqual(['x']);
  });

  it('orders interactive ahead of bulk, and ages bulk requests so they are not starved', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1, agingMs: 1000 }), clock);
    s.submit(spec('bulk-old'));
    clock.advance(10);
    s.submit(spec('ui', { priority: 'interactive' }));
    expect([...s.waitingPositions().entries()]).toEqual([['ui', 0], ['bulk-old', 1]]);
    clock.advance(1000); // bulk-old has now waited 1010 ms ≥ agingMs: ranks with interactive, earlier arrival first
    expect([...s.waitingPositions().entries()]).toEqual([['bulk-old', 0], ['ui', 1]]);
  });

  it('holds a partial batch for maxWaitMs when idle, then starts it', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ maxWaitMs: 200, targetBatchSize: 4 }), clock);
    s.submit(spec('a'));
    clock.advance(50);
    expect(s.schedule().batch).toEqual({ kind: 'idle', waitMs: 150 });
    s.submit(spec('b'));
    clock.advance(150);
    const b = s.schedule().batch;
    expect(b.kind === 'step' && ids(b.admit)).toEqual(['a', 'b']);
  });

  it('starts at once when targetBatchSize requests are waiting', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxWaitMs: 200, targetBatchSize: 2 }), fakeClock());
    s.submit(spec('a'));
    s.submit(spec('b'));
    expect(s.schedule().batch.kind).toBe('step');
  });

  it('lets bulk arrivals gather for joinWaitMs while others run, then admits them in one step', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ joinWaitMs: 300, targetBatchSize: 4, maxRunningSequences: 8 }), clock);
    s.submit(spec('run'));
    expect(ids((s.schedule().batch as { admit: { id: string }[] }).admit)).toEqual(['run']); // nothing running: no join wait
    s.submit(spec('a'));
    clock.advance(100);
    s.submit(spec('b'));
    const held = s.schedule().batch;
    expect(held.kind === 'step' && [ids(held.admit), ids(held.decode)]).toEqual([[], ['run']]); // the running one goes on
    clock.advance(200); // a has waited 300 ms
    const joined = s.schedule().batch;
    expect(joined.kind === 'step' && ids(joined.admit)).toEqual(['a', 'b']);
  });

  it('ends the join wait early for a full cohort or an interactive request, and never waits with joinWaitMs 0', () => {
    const cohort = new Scheduler(resolveSchedulerConfig({ joinWaitMs: 1000, targetBatchSize: 2 }), fakeClock());
    cohort.submit(spec('run'));
    cohort.schedule();
    cohort.submit(spec('a'));
    expect((cohort.schedule().batch as { admit: unknown[] }).admit).toHaveLength(0);
    cohort.submit(spec('b'));
    expect(ids((cohort.schedule().batch as { admit: { id: string }[] }).admit)).toEqual(['a', 'b']);

    const ui = new Scheduler(resolveSchedulerConfig({ joinWaitMs: 1000 }), fakeClock());
    ui.submit(spec('run'));
    ui.schedule();
    ui.submit(spec('click', { priority: 'interactive' }));
    expect(ids((ui.schedule().batch as { admit: { id: string }[] }).admit)).toEqual(['click']);

    const off = new Scheduler(resolveSchedulerConfig({}), fakeClock());
    off.submit(spec('run'));
    off.schedule();
    off.submit(spec('a'));
    expect(ids((off.schedule().batch as { admit: { id: string }[] }).admit)).toEqual(['a']);
  });

  it('rejects a negative joinWaitMs naming the setting', () => {
    expect(() => resolveSchedulerConfig({ joinWaitMs: -1 })).toThrow(/scheduler\.joinWaitMs must be a number ≥ 0/);
  });

  it('removes cancelled and expired sequences at the next step and frees their KV', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1 }), clock, { numBlocks: 64, blockTokens: 64 });
    s.submit(spec('run'));
    s.submit(spec('wait', { deadlineAtMs: 100 }));
    s.schedule();
    const freeWhileRunning = s.counters().numFreeKvBlocks;
    expect(s.cancel('run')).toBe(true);
    expect(s.cancel('nope')).toBe(false);
    clock.advance(100);
    const { batch, removed } = s.schedule();
    expect(removed.map((r) => [r.sequence.id, r.reason, r.wasRunning])).toEqual([
      ['wait', 'timeout', false],
      ['run', 'cancelled', true],
    ]);
    expect(batch).toEqual({ kind: 'idle', waitMs: null });
    expect(s.counters().numFreeKvBlocks).toBeGreaterThan(freeWhileRunning);
  });

  it('gives every sequence a deadline of requestTimeoutMs after arrival, removes it running or waiting, and frees its KV', () => {
    const clock = fakeClock(1_000);
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1, requestTimeoutMs: 500 }), clock, { numBlocks: 64, blockTokens: 64 });
    const numFreeBlocks = s.counters().numFreeKvBlocks;
    s.submit(spec('run'));
    s.submit(spec('wait'));
    s.submit(spec('own', { deadlineAtMs: 1_200 })); // its own, earlier deadline wins
    s.submit(spec('later', { deadlineAtMs: 60_000 })); // a later one is tightened to arrival + 500
    s.schedule();
    clock.advance(200);
    expect(s.schedule().removed.map((r) => [r.sequence.id, r.reason])).toEqual([['own', 'timeout']]);
    clock.advance(299);
    expect(s.schedule().removed).toEqual([]);
    clock.advance(1);
    const { batch, removed } = s.schedule();
    expect(removed.map((r) => [r.sequence.id, r.reason, r.wasRunning, r.sequence.deadlineAtMs])).toEqual([
      ['wait', 'timeout', false, 1_500],
      ['later', 'timeout', false, 1_500],
      ['run', 'timeout', true, 1_500],
    ]);
    expect(batch).toEqual({ kind: 'idle', waitMs: null });
    expect(s.counters()).toMatchObject({ numRunning: 0, numWaiting: 0, numFreeKvBlocks: numFreeBlocks });
  });

  it('sets no default deadline when requestTimeoutMs is 0', () => {
    const clock = fakeClock();
    const s = new Scheduler(resolveSchedulerConfig({ requestTimeoutMs: 0 }), clock);
    s.submit(spec('a'));
    s.schedule();
    clock.advance(1e9);
    expect(s.schedule().removed).toEqual([]);
  });

  it('rejects with busy beyond maxQueueDepth, counting the rejection, and loses nothing accepted', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxQueueDepth: 2, maxRunningSequences: 1 }), fakeClock());
    s.submit(spec('a'));
    s.submit(spec('b'));
    let err: unknown;
    try {
      s.submit(spec('c'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).code).toBe('busy');
    expect((err as StudioError).details.retryAfterS).toBe(1);
    expect(s.counters()).toMatchObject({ numWaiting: 2, numRejected: 1 });
  });

  it('refuses a sequence that can never fit the KV pool with input-too-long', () => {
    const s = new Scheduler(resolveSchedulerConfig({}), fakeClock(), { numBlocks: 2, blockTokens: 64 });
    expect(() => s.submit(spec('huge', { numPromptTokens: 100, maxNewTokens: 100 }))).toThrowError(/KV positions/);
  });

  it('waits for KV space instead of overcommitting (head of line)', () => {
    const s = new Scheduler(resolveSchedulerConfig({}), fakeClock(), { numBlocks: 4, blockTokens: 64 });
    s.submit(spec('a', { numPromptTokens: 28, maxNewTokens: 100 })); // 128 positions = 2 blocks
    s.submit(spec('b', { numPromptTokens: 100, maxNewTokens: 100 })); // 200 positions = 4 blocks > 2 free
    s.submit(spec('c', { numPromptTokens: 1, maxNewTokens: 10 }));
    const b = s.schedule().batch;
    expect(b.kind === 'step' && ids(b.admit)).toEqual(['a']);
    s.finish('a');
    const b2 = s.schedule().batch;
    expect(b2.kind === 'step' && ids(b2.admit)).toEqual(['b']);
  });

  it('keeps the KV pool at its size after 1,000 requests', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 7 }), fakeClock(), { numBlocks: 4096, blockTokens: 64 });
    const total = s.kvPool.numBlocks;
    let submitted = 0;
    let finished = 0;
    while (finished < 1000) {
      while (submitted < 1000 && s.counters().numWaiting < 50) s.submit(spec(`r${submitted++}`, { numPromptTokens: 5 + (submitted % 17) }));
      const { batch } = s.schedule();
      if (batch.kind !== 'step') break;
      for (const seq of batch.decode.slice(0, 3)) {
        s.finish(seq.id);
        finished++;
      }
    }
    expect(finished).toBe(1000);
    for (const id of [...Array(1000).keys()].map((i) => `r${i}`)) s.finish(id);
    expect(s.kvPool.numFreeBlocks).toBe(total);
    expect(s.kvPool.numOwners).toBe(0);
  });

  it('has complete defaults and rejects unknown or mistyped settings by key path', () => {
    expect(defaultSchedulerConfig()).toEqual({
      maxRunningSequences: 16,
      maxBatchTokens: 4096,
      maxQueueDepth: 256,
      maxWaitMs: 0,
      targetBatchSize: 8,
      joinWaitMs: 0,
      agingMs: 10_000,
      retryAfterS: 1,
      requestTimeoutMs: 600_000,
    });
    expect(() => resolveSchedulerConfig({ maxRunning: 4 })).toThrowError(/scheduler\.maxRunning/);
    // the KV budget is the engine pool's one size now: the old keys name where it went
    expect(() => resolveSchedulerConfig({ kvCapacityTokens: 1024 })).toThrowError(/scheduler\.kvCapacityTokens is no longer a setting: .*engine\.kvCache\.maxBlocks/);
    expect(() => resolveSchedulerConfig({ kvBlockTokens: 16 })).toThrowError(/engine\.kvCache\.blockPositions/);
    expect(() => resolveSchedulerConfig({ maxRunningSequences: 0 })).toThrowError(/≥ 1/);
    expect(() => resolveSchedulerConfig({ maxRunningSequences: '4' })).toThrowError(/scheduler\.maxRunningSequences/);
    expect(Object.isFrozen(resolveSchedulerConfig({}))).toBe(true);
  });

  it('lets a finished sequence go at once, and hands back cancels with removeCancelled without a schedule()', () => {
    const s = new Scheduler(resolveSchedulerConfig({}), fakeClock(), { numBlocks: 16, blockTokens: 64 });
    s.submit(spec('a')); // 20 + 100 = 120 positions: 2 blocks
    s.submit(spec('b'));
    s.submit(spec('c'));
    s.schedule();
    expect(s.counters()).toMatchObject({ numRunning: 3, numFreeKvBlocks: 16 - 3 * 2 });
    s.finish('a');
    expect(s.counters()).toMatchObject({ numRunning: 2, numFreeKvBlocks: 16 - 2 * 2 });
    expect(s.kvPool.numOwners).toBe(2);
    expect(s.cancel('b')).toBe(true);
    expect(s.cancel('a')).toBe(false); // already gone
    const removed = s.removeCancelled();
    expect(removed.map((r) => [r.sequence.id, r.reason, r.wasRunning])).toEqual([['b', 'cancelled', true]]);
    expect(s.counters()).toMatchObject({ numRunning: 1, numFreeKvBlocks: 16 - 2 });
    expect(s.removeCancelled()).toEqual([]);
    const next = s.schedule();
    expect(next.removed).toEqual([]);
    expect(next.batch.kind === 'step' && ids(next.batch.decode)).toEqual(['c']);
  });

  it('refuses an id already in flight, waiting or running, and takes it again once it has left', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1 }), fakeClock());
    s.submit(spec('run'));
    s.submit(spec('wait'));
    s.schedule();
    for (const id of ['run', 'wait']) {
      let err: unknown;
      try {
        s.submit(spec(id));
      } catch (e) {
        err = e;
      }
      expect((err as StudioError).code).toBe('invalid-argument');
      expect((err as StudioError).details).toEqual({ field: 'requestId' });
      expect((err as StudioError).message).toBe(`requestId '${id}' is already in flight; use a unique id per request`);
    }
    expect(s.counters()).toMatchObject({ numWaiting: 1, numRunning: 1, numRejected: 0 });
    s.finish('run');
    s.submit(spec('run'));
    expect(s.counters().numWaiting).toBe(2);
  });

  it('checks room for a whole request: input-too-long beyond the queue, busy when full now, counting both', () => {
    const s = new Scheduler(resolveSchedulerConfig({ maxQueueDepth: 3, maxRunningSequences: 1 }), fakeClock());
    expect(() => s.checkRoomFor(4)).toThrowError(/4 turn parts .* but at most 3 can be queued at once \(scheduler\.maxQueueDepth\)/);
    s.checkRoomFor(3);
    s.submit(spec('a'));
    s.submit(spec('b'));
    s.checkRoomFor(1);
    let err: unknown;
    try {
      s.checkRoomFor(2); // 2 waiting + 2 > 3
    } catch (e) {
      err = e;
    }
    expect((err as StudioError).code).toBe('busy');
    expect((err as StudioError).details).toEqual({ retryAfterS: 1, queueDepth: 2 });
    expect(s.counters()).toMatchObject({ numWaiting: 2, numRejected: 2 });
  });

  it('names the deadline and where the sequence was in its timeout error', () => {
    const clock = fakeClock(1_000);
    const s = new Scheduler(resolveSchedulerConfig({ maxRunningSequences: 1, requestTimeoutMs: 250 }), clock);
    s.submit(spec('run'));
    s.submit(spec('wait'));
    s.schedule();
    clock.advance(250);
    const errors = s.schedule().removed.map(timeoutError);
    expect(errors.map((e) => [e.code, e.details])).toEqual([
      ['timeout', { deadlineMs: 250, wasRunning: false }],
      ['timeout', { deadlineMs: 250, wasRunning: true }],
    ]);
    expect(errors[0].message).toMatch(/^the request did not finish within its deadline of 250 ms \(while waiting in the queue\)/);
    expect(errors[1].message).toMatch(/\(while running\); send less text, or raise scheduler\.requestTimeoutMs/);
  });

  it('says a deadline that was over before the sequence arrived was over, never a negative deadline', () => {
    const clock = fakeClock(1_000);
    const s = new Scheduler(resolveSchedulerConfig({ requestTimeoutMs: 250 }), clock);
    s.submit(spec('late', { deadlineAtMs: 997 })); // issue 43: deadlineMs 1e-300 counted from enqueue, 3 ms before arrival
    const [error] = s.schedule().removed.map(timeoutError);
    expect(error.code).toBe('timeout');
    expect(error.details).toEqual({ deadlineMs: 0, wasRunning: false });
    expect(error.message).toMatch(/deadlineMs had passed before it reached the queue/);
    expect(error.message).not.toMatch(/-\d+ ms/);
  });

  it("runs a bare engine's FIFO: submission order whatever the priority, maxPrefillSequences per step, no queue or KV bound", () => {
    const clock = fakeClock();
    const s = new Scheduler(fifoSchedulerConfig({ maxRunningSequences: 3, maxPrefillSequences: 2 }), clock);
    s.submit(spec('bulk', { numPromptTokens: 100_000, maxNewTokens: 1_000_000 }));
    s.submit(spec('ui', { priority: 'interactive' }));
    for (let i = 0; i < 1000; i++) s.submit(spec(`r${i}`));
    const first = s.schedule().batch;
    expect(first.kind === 'step' && ids(first.admit)).toEqual(['bulk', 'ui']);
    const second = s.schedule().batch;
    expect(second.kind === 'step' && [ids(second.admit), ids(second.decode)]).toEqual([['r0'], ['bulk', 'ui']]); // 3 running: the cap
    clock.advance(1e9);
    const later = s.schedule();
    expect(later.removed).toEqual([]); // no default deadline
    expect(s.counters()).toMatchObject({ numRunning: 3, numWaiting: 999, numRejected: 0 });
  });
});
