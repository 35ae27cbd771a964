/**
 * A log line sink with a ceiling: at most `maxLinesPerWindow` lines per `windowMs`; what is held back
 * is counted and named in the next line that goes out, so a flood of bad calls costs a few lines,
 * never megabytes. Pure bookkeeping over an injected clock; the sink does the writing.
 */

export interface RateLimitedLogOptions {
  maxLinesPerWindow?: number;
  windowMs?: number;
  nowMs?: () => number;
}

export const DEFAULT_LOG_LINES_PER_WINDOW = 10;
export const DEFAULT_LOG_WINDOW_MS = 10_000;

export function createRateLimitedLog(log: (m: string) => void, options: RateLimitedLogOptions = {}): (m: string) => void {
  const maxLines = options.maxLinesPerWindow ?? DEFAULT_LOG_LINES_PER_WINDOW;
  const windowMs = options.windowMs ?? DEFAULT_LOG_WINDOW_MS;
  const nowMs = options.nowMs ?? (() => performance.now());
  let windowStartMs = -Infinity;
  let numLines = 0;
  let numHeldBack = 0;
  return (m) => {
    const now = nowMs();
    if (now - windowStartMs >= windowMs) {
      windowStartMs = now;
      numLines = 0;
    }
    if (numLines >= maxLines) {
      numHeldBack++;
      return;
    }
    numLines++;
    const held = numHeldBack > 0 ? ` (${numHeldBack} similar line(s) held back before this one)` : '';
    numHeldBack = 0;
    log(`${m}${held}`);
  };
}
