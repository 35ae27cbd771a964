/**
 * Finds the Electron binary without triggering electron's lazy download: ELECTRON_EXEC_PATH,
 * then ELECTRON_OVERRIDE_DIST_PATH, then node_modules/electron's installed dist. Pure file checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type ElectronLookup = { found: true; path: string; source: string } | { found: false; reason: string };

export function findElectronBinary(rootDir: string, env: NodeJS.ProcessEnv = process.env): ElectronLookup {
  if (env.ELECTRON_EXEC_PATH) {
    return existsSync(env.ELECTRON_EXEC_PATH)
      ? { found: true, path: env.ELECTRON_EXEC_PATH, source: 'ELECTRON_EXEC_PATH' }
      : { found: false, reason: `ELECTRON_EXEC_PATH points to ${env.ELECTRON_EXEC_PATH}, which does not exist` };
  }
  const pkgDir = path.join(rootDir, 'node_modules', 'electron');
  const pathFile = path.join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : process.platform === 'win32' ? 'electron.exe' : 'electron';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative);
    if (existsSync(p)) return { found: true, path: p, source: 'ELECTRON_OVERRIDE_DIST_PATH' };
  }
  const installed = path.join(pkgDir, 'dist', relative);
  if (existsSync(pathFile) && existsSync(installed)) return { found: true, path: installed, source: 'node_modules/electron' };
  return { found: false, reason: 'no Electron binary is installed (it downloads on first use and this machine could not fetch it)' };
}

export const ELECTRON_HELP =
  'get one with `npx install-electron` on a machine with network access, or point ELECTRON_EXEC_PATH at an Electron 45 binary';
