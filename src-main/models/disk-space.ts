/**
 * The free-space check run before a pull writes anything: asks statfs (injectable, so tests can
 * pretend the disk is full) for the bytes available to this user on the volume holding the folder.
 */
import { statfs as nodeStatfs } from 'node:fs/promises';
import { StudioError } from '../../src-shared/errors';

/** The part of fs.statfs the check reads. */
export type StatfsLike = (dirPath: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

export async function availableBytes(dirPath: string, statfs: StatfsLike = nodeStatfs): Promise<number> {
  const s = await statfs(dirPath);
  return Number(s.bavail) * Number(s.bsize);
}

/** Throws 'disk-full' when the volume has fewer than `neededBytes + reserveBytes` free. */
export async function ensureDiskSpace(dirPath: string, neededBytes: number, reserveBytes: number, what: string, statfs?: StatfsLike): Promise<number> {
  const freeBytes = await availableBytes(dirPath, statfs);
  if (freeBytes < neededBytes + reserveBytes) {
    throw new StudioError(
      'disk-full',
      `${what} needs ${formatBytes(neededBytes)} (plus ${formatBytes(reserveBytes)} headroom) but only ${formatBytes(freeBytes)} is free under ${dirPath}; free some space or choose another models folder`,
      { neededBytes, reserveBytes, freeBytes, dir: dirPath },
    );
  }
  return freeBytes;
}

/** 1536 → "1.5 KB"; decimal units, as the hub shows sizes. */
export function formatBytes(numBytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = numBytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}
