/**
 * An abortable sleep for the harness's bounded waits (backoff, arrival clock, drain deadline).
 * Resolves early, without throwing, when the signal aborts.
 */

export function sleep(durationMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (durationMs <= 0 || signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, durationMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
