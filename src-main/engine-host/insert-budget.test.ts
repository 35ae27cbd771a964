/**
 * The engine host's budget of decoded <audio> samples in flight: admits while there is room, makes
 * the rest wait (the client holding least first), and refuses 'busy' with a retry hint on a full
 * waiting line or a wait over maxWaitMs; a cancelled wait leaves the line. Issue 43 (N1).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StudioError, httpStatusForError } from '../../src-shared/errors';
import { defaultAudioInsertPolicy } from './audio-inserts';
import { AUDIO_INSERT_MAX_DECODED_SAMPLES } from './insert-decode';
import { InsertBudget, type InsertBudgetLimits } from './insert-budget';

const LIMITS: InsertBudgetLimits = { maxSamplesInFlight: 1000, maxWaitMs: 5000, maxWaitingPerClient: 2, maxWaiting: 8, retryAfterS: 3 };

/** The promise's state after pending microtasks ran. */
async function state<T>(p: Promise<T>): Promise<'pending' | 'resolved' | 'rejected'> {
  let s: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(() => (s = 'resolved'), () => (s = 'rejected'));
  await Promise.resolve();
  await Promise.resolve();
  return s;
}
const rejection = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as StudioError);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('InsertBudget', () => {
  it('admits requests while their samples fit and makes the next one wait until samples are given back', async () => {
    const budget = new InsertBudget(LIMITS);
    const a = await budget.acquire('a', 600);
    const b = budget.acquire('a', 600);
    expect(await state(b)).toBe('pending');
    expect(budget.usage()).toMatchObject({ numSamplesHeld: 600, numWaiting: 1 });
    a();
    a(); // twice gives back once
    const releaseB = await b;
    expect(budget.usage()).toMatchObject({ numSamplesHeld: 600, numWaiting: 0 });
    releaseB();
    expect(budget.usage().numSamplesHeld).toBe(0);
  });

  it('refuses busy (HTTP 429) with retryAfterS after maxWaitMs, naming the numbers', async () => {
    const budget = new InsertBudget(LIMITS);
    await budget.acquire('a', 900);
    const waiting = rejection(budget.acquire('b', 200));
    await vi.advanceTimersByTimeAsync(LIMITS.maxWaitMs);
    const err = await waiting;
    expect(err.code).toBe('busy');
    expect(httpStatusForError(err.code)).toBe(429);
    expect(err.details).toMatchObject({ retryAfterS: 3, numDecodedSamples: 200, numSamplesHeld: 900, maxSamplesInFlight: 1000 });
    expect(err.message).toBe('the <audio> inserts of requests in flight hold 900 of the 1,000 decoded samples the engine host allows, this request needs 200 and it waited 5,000 ms for room; retry after 3 s');
    expect(budget.usage().numWaiting).toBe(0);
  });

  it('refuses at once a client that already has maxWaitingPerClient requests waiting, while another client may still wait', async () => {
    const budget = new InsertBudget(LIMITS);
    await budget.acquire('a', 1000);
    const waits = [budget.acquire('a', 100), budget.acquire('a', 100)];
    const third = await rejection(budget.acquire('a', 100));
    expect(third.code).toBe('busy');
    expect(third.message).toMatch(/this client already has 2 requests waiting \(limit 2\); retry after 3 s$/);
    const other = budget.acquire('b', 100);
    expect(await state(other)).toBe('pending');
    for (const w of [...waits, other]) void w.catch(() => {});
  });

  it('gives freed samples to the client holding least first, whatever the arrival order', async () => {
    const budget = new InsertBudget(LIMITS);
    const firstOfA = await budget.acquire('a', 500);
    const secondOfA = await budget.acquire('a', 400);
    const order: string[] = [];
    const thirdOfA = budget.acquire('a', 300).then((r) => (order.push('a'), r));
    const firstOfB = budget.acquire('b', 300).then((r) => (order.push('b'), r));
    firstOfA(); // 600 free: b holds nothing, so b goes first although a asked earlier
    await firstOfB;
    expect(order).toEqual(['b']);
    // a holds 400 and its 300 more would pass its fair share (1,000 over 2 clients) while b holds 300: a waits
    expect(await state(thirdOfA)).toBe('pending');
    secondOfA();
    await thirdOfA;
    expect(order).toEqual(['b', 'a']);
  });

  it('lets a client that holds nothing take a request larger than its share when it fits', async () => {
    const budget = new InsertBudget(LIMITS);
    await budget.acquire('a', 100);
    await budget.acquire('b', 100);
    // three clients: a share is 333, but c holds nothing and 800 samples are free
    expect(await state(budget.acquire('c', 800))).toBe('resolved');
  });

  it('ends a wait when its request is cancelled, and refuses a request larger than the whole budget for good', async () => {
    const budget = new InsertBudget(LIMITS);
    await budget.acquire('a', 1000);
    const abort = new AbortController();
    const waiting = rejection(budget.acquire('b', 10, abort.signal));
    abort.abort();
    expect((await waiting).code).toBe('cancelled');
    expect(budget.usage().numWaiting).toBe(0);
    const tooLarge = await rejection(budget.acquire('b', 1001));
    expect(tooLarge.code).toBe('input-too-long');
  });
});

describe('defaultAudioInsertPolicy', () => {
  it('holds two maximal requests at once, four waiting per client, 256 MiB of cache and one or two workers', () => {
    const policy = defaultAudioInsertPolicy(['/x'], 24_000);
    expect(policy).toMatchObject({
      maxDecodedSamples: AUDIO_INSERT_MAX_DECODED_SAMPLES,
      maxSamplesInFlight: 2 * AUDIO_INSERT_MAX_DECODED_SAMPLES, // 28.8 M samples, 115 MB of float32
      maxWaitMs: 20_000,
      maxWaitingPerClient: 4,
      maxWaiting: 32,
      retryAfterS: 2,
      cacheMaxBytes: 256 * 1024 * 1024,
    });
    expect([1, 2]).toContain(policy.numWorkers);
    // a request the per-request bound admits always fits the budget: it waits, never refused for good
    expect(policy.maxSamplesInFlight).toBeGreaterThanOrEqual(policy.maxDecodedSamples);
  });
});
