/**
 * publishDir: moves a fully written temporary folder into its final place with one rename, so that
 * readers never see a half-written model and two processes building the same one (the app and a
 * headless host on first run) cannot delete each other's output: a complete copy already in place wins.
 */
import fs from 'node:fs';

/** Code of a rename onto a folder that already has files (POSIX ENOTEMPTY/EEXIST, Windows EPERM). */
function isTargetTaken(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM';
}

/** Returns true when tmpDir became finalDir, false when another complete copy was kept instead. */
export function publishDir(tmpDir: string, finalDir: string, isComplete: (dir: string) => boolean): boolean {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.renameSync(tmpDir, finalDir);
      return true;
    } catch (err) {
      if (!isTargetTaken(err)) throw err;
    }
    if (isComplete(finalDir)) {
      fs.rmSync(tmpDir, { recursive: true, force: true });
      return false;
    }
    // a stale, incomplete folder (an older layout, or a build that crashed before this one): replace it
    fs.rmSync(finalDir, { recursive: true, force: true });
  }
  throw new Error(`could not move ${tmpDir} to ${finalDir}: the target kept reappearing incomplete`);
}

/** A per-process temporary sibling of finalDir (same filesystem, so the rename is atomic). */
export function tempSiblingOf(finalDir: string): string {
  return `${finalDir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
