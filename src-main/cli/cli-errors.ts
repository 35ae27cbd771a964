/**
 * The CLI's one error style: "error: <what>" and "fix: <how>" on stderr, no stack trace unless
 * --verbose, and exit codes 0 ok, 1 runtime error, 2 usage error.
 */
import { toStudioError } from '../../src-shared/errors';

export const EXIT_OK = 0;
export const EXIT_RUNTIME_ERROR = 1;
export const EXIT_USAGE_ERROR = 2;

/** Thrown for bad flags or arguments; exits with 2. */
export class UsageError extends Error {
  constructor(message: string, readonly fix: string) {
    super(message);
  }
}

export function reportError(err: unknown, verbose: boolean): number {
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\nfix: ${err.fix}\n`);
    return EXIT_USAGE_ERROR;
  }
  const e = toStudioError(err);
  // Studio messages carry their fix after a ';' — print it on its own line.
  const cut = e.message.indexOf('; ');
  const what = cut > 0 ? e.message.slice(0, cut) : e.message;
  const fix = cut > 0 ? e.message.slice(cut + 2) : 'run again with --verbose for details';
  process.stderr.write(`error: ${what}\nfix: ${fix}\n`);
  if (verbose) {
    if (Object.keys(e.details).length > 0) process.stderr.write(`details: ${JSON.stringify(e.details)}\n`);
    if (err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  }
  return e.code === 'invalid-argument' ? EXIT_USAGE_ERROR : EXIT_RUNTIME_ERROR;
}

export function parseIntFlag(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${value}'`, `pass e.g. --${name} ${min}`);
  }
  return n;
}
