/**
 * Waiting that a cancel or a deadline can end: a promise raced against an AbortSignal, a sleep that
 * wakes on abort, and a bounded wait. The promise given is not stopped (a Redis command cannot be
 * taken back); its late outcome is ignored, never an unhandled rejection. No I/O of its own.
 */
import { StudioError } from '../../src-shared/errors';

/** `promise`'s outcome, or a 'cancelled' StudioError as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  promise.catch(() => {}); // abandoned on abort: its rejection must not go unhandled
  if (signal.aborted) return Promise.reject(new StudioError('cancelled', 'the render was cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new StudioError('cancelled', 'the render was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves after `durationMs`, or at once when `signal` aborts. */
export function sleep(durationMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, durationMs);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** `promise`'s value if it settles within `timeoutMs`, else undefined (a rejection is undefined too). */
export async function within<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    return await Promise.race([promise.catch(() => undefined), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
