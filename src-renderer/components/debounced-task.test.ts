// The trailing debounce behind the session store and the project autosave: one run after the last
// schedule's wait, flush runs a waiting task at once (and only a waiting one), cancel drops it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebouncedTask } from './debounced-task';

const DELAY_MS = 100;

describe('createDebouncedTask', () => {
  let numRuns: number;
  beforeEach(() => {
    vi.useFakeTimers();
    numRuns = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('runs once, a full wait after the last schedule', () => {
    const task = createDebouncedTask(() => numRuns++, DELAY_MS);
    task.schedule();
    vi.advanceTimersByTime(DELAY_MS - 1);
    task.schedule(); // restarts the wait
    vi.advanceTimersByTime(DELAY_MS - 1);
    expect(numRuns).toBe(0);
    vi.advanceTimersByTime(1);
    expect(numRuns).toBe(1);
    vi.advanceTimersByTime(10 * DELAY_MS);
    expect(numRuns).toBe(1);
  });

  it('flush runs a waiting task now and not again later; with nothing waiting it does nothing', () => {
    const task = createDebouncedTask(() => numRuns++, DELAY_MS);
    task.flush();
    expect(numRuns).toBe(0);
    task.schedule();
    const { flush } = task; // used as an event listener, without `this`
    flush();
    expect(numRuns).toBe(1);
    vi.advanceTimersByTime(10 * DELAY_MS);
    flush();
    expect(numRuns).toBe(1);
  });

  it('cancel drops a waiting task, and a later schedule runs again', () => {
    const task = createDebouncedTask(() => numRuns++, DELAY_MS);
    task.schedule();
    task.cancel();
    vi.advanceTimersByTime(10 * DELAY_MS);
    task.flush();
    expect(numRuns).toBe(0);
    task.schedule();
    vi.advanceTimersByTime(DELAY_MS);
    expect(numRuns).toBe(1);
  });
});
