/**
 * Test-only: fresh folders under the OS temp dir for one test file. `const tempDir = tempDirs('x-')`
 * at file (or describe) level; each `tempDir()` is a new empty folder, removed with everything in it
 * after the test that made it ('each', the default) or after the file's tests ('all').
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';

export function tempDirs(prefix: string, removeAfter: 'each' | 'all' = 'each'): () => string {
  const dirs: string[] = [];
  (removeAfter === 'each' ? afterEach : afterAll)(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
