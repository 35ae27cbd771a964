/**
 * Electron binary lookup without triggering electron's lazy download: the env override wins,
 * a wrong override is named, and a package without its dist reports that no binary is installed.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findElectronBinary } from './electron-binary';

function fakeRoot(withBinary: boolean): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-electron-'));
  const pkg = path.join(root, 'node_modules', 'electron');
  fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'path.txt'), 'electron');
  if (withBinary) fs.writeFileSync(path.join(pkg, 'dist', 'electron'), '');
  return root;
}

describe('findElectronBinary', () => {
  it('finds the installed binary in node_modules/electron/dist', () => {
    const root = fakeRoot(true);
    expect(findElectronBinary(root, {})).toEqual({ found: true, path: path.join(root, 'node_modules', 'electron', 'dist', 'electron'), source: 'node_modules/electron' });
  });

  it('reports a missing binary instead of downloading it', () => {
    const lookup = findElectronBinary(fakeRoot(false), {});
    expect(lookup.found).toBe(false);
    if (!lookup.found) expect(lookup.reason).toMatch(/no Electron binary is installed/);
  });

  it('prefers ELECTRON_EXEC_PATH and names it when it points nowhere', () => {
    const root = fakeRoot(false);
    const exe = path.join(root, 'my-electron');
    fs.writeFileSync(exe, '');
    expect(findElectronBinary(root, { ELECTRON_EXEC_PATH: exe })).toMatchObject({ found: true, source: 'ELECTRON_EXEC_PATH' });
    const bad = findElectronBinary(root, { ELECTRON_EXEC_PATH: '/no/such/electron' });
    expect(bad.found).toBe(false);
    if (!bad.found) expect(bad.reason).toContain('/no/such/electron');
  });
});
