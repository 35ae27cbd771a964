/**
 * One look at a render queue's Redis before anything waits on it: connect, PING, and expect PONG
 * within a deadline, or fail with a StudioError that names the URL, what was found there and the
 * fix. BullMQ's own connections retry forever (right once Redis is known to be there); this is the
 * check that a URL pointing at a web server, a closed port or a silent listener never hangs a render.
 */
import { Redis } from 'ioredis';
import { StudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';

/** The URL with any password hidden, for messages and logs. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

/** Why the first reply was not Redis's, in words (ioredis's parser error names the byte it met). */
function describeFailure(err: Error): string {
  const first = /Unknown RESP type \d+ "(.)"|Protocol error, got "(.)"/.exec(err.message);
  if (first) return `the server there does not speak the Redis protocol (its reply began with '${first[1] ?? first[2]}'${(first[1] ?? first[2]) === 'H' ? ', as HTTP does' : ''})`;
  if (/ECONNREFUSED/.test(err.message)) return 'nothing listens on that port (connection refused)';
  if (/ENOTFOUND|EAI_AGAIN/.test(err.message)) return 'the host name does not resolve';
  return err.message;
}

/**
 * Resolves once the server at `url` answers PING with PONG; rejects with 'network' (not Redis, or
 * unreachable), 'timeout' (no answer within `timeoutMs`) or 'cancelled' (`signal` aborted first).
 * Never leaves a connection or timer behind.
 */
export async function probeRedis(url: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
  const { timeoutMs, signal } = options;
  const shown = redactedUrl(url);
  const fix = 'start redis-server there, or correct the queue URL (host and port of Redis), or clear it to render on this machine';
  if (signal?.aborted) throw new StudioError('cancelled', 'the render was cancelled before the queue was reached');
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false, reconnectOnError: () => false });
  let lastError: Error | null = null;
  client.on('error', (err: Error) => (lastError = err));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StudioError('timeout', `the render queue at ${shown} did not answer as Redis within ${formatCount(timeoutMs)} ms${lastError ? ` (${describeFailure(lastError)})` : ''}; ${fix}`, { field: 'queue', url: shown, timeoutMs })), timeoutMs);
    onAbort = () => reject(new StudioError('cancelled', 'the render was cancelled while the queue was being reached'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const reply = await Promise.race([client.connect().then(() => client.ping()), stop]);
    if (reply !== 'PONG') throw new Error(`PING answered '${String(reply).slice(0, 40)}'`);
  } catch (err) {
    if (err instanceof StudioError) throw err;
    const cause = lastError ?? (err as Error);
    throw new StudioError('network', `the render queue at ${shown} is not a reachable Redis: ${describeFailure(cause)}; ${fix}`, { field: 'queue', url: shown });
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    client.disconnect();
  }
}
