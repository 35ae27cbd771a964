/**
 * Run ids in the reference report's form: YYYYMMDD-HHMMSS-<8 hex>, UTC, sortable by time.
 */
import { randomBytes } from 'node:crypto';

export function createRunId(now: Date = new Date()): string {
  const pad = (v: number) => String(v).padStart(2, '0');
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomBytes(4).toString('hex')}`;
}
