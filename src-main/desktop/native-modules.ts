/**
 * Start-up check of the studio's native modules in this runtime, with one line each and the fix.
 * onnxruntime-node and koffi are Node-API (N-API) addons: N-API is ABI-stable across Node and
 * Electron versions, so the same binary loads in Electron's main and utility processes as long as
 * it exists for this OS/CPU and the runtime's N-API version is at least the one it was built for.
 * That is checked from files, without loading the addon (inference loads it in the engine host).
 * The library's SQLite backends are checked by loading them (cheap; open-sqlite.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describeLoadFailure, defaultSqliteLoaders, type SqliteBackendLoader } from '../library/open-sqlite';

export type NativeStatus = 'ok' | 'absent' | 'unavailable';

export interface NativeCheck {
  name: string;
  status: NativeStatus;
  detail: string;
}

/** This Node or Electron process: where the native binaries must match. */
export interface ProcessFacts {
  platform: NodeJS.Platform;
  arch: string;
  /** process.versions.napi */
  napiVersion: number;
  electron?: string;
}

/** Finds a package's folder (the one holding its package.json), or null when it is not installed. */
export type PackageLocator = (name: string) => string | null;

export function nodeModulesLocator(fromFile: string = import.meta.url): PackageLocator {
  const req = createRequire(fromFile);
  return (name) => {
    try {
      let dir = path.dirname(req.resolve(name));
      while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
      return dir;
    } catch {
      try {
        return path.dirname(req.resolve(`${name}/package.json`));
      } catch {
        return null;
      }
    }
  };
}

/** onnxruntime-node ships bin/napi-v<N>/<platform>/<arch>/onnxruntime_binding.node for each platform. */
export const ORT_NAPI_VERSION = 6;

export function checkOnnxRuntime(locate: PackageLocator, facts: ProcessFacts, exists: (p: string) => boolean = existsSync): NativeCheck {
  const name = 'onnxruntime-node';
  const dir = locate(name);
  if (!dir) return { name, status: 'unavailable', detail: 'not installed; run `npm ci` (the engine cannot start without it)' };
  const binding = path.join(dir, 'bin', `napi-v${ORT_NAPI_VERSION}`, facts.platform, facts.arch, 'onnxruntime_binding.node');
  if (!exists(binding)) {
    return { name, status: 'unavailable', detail: `no binary for ${facts.platform}-${facts.arch} (looked for ${binding}); onnxruntime-node ships linux/win32 x64+arm64 and darwin arm64` };
  }
  if (facts.napiVersion < ORT_NAPI_VERSION) {
    return { name, status: 'unavailable', detail: `this runtime has N-API ${facts.napiVersion}, the binary needs ${ORT_NAPI_VERSION}; update Node/Electron` };
  }
  return { name, status: 'ok', detail: `N-API ${ORT_NAPI_VERSION} binary for ${facts.platform}-${facts.arch} (runtime N-API ${facts.napiVersion}; N-API is ABI-stable, no rebuild for Electron)` };
}

/**
 * koffi (FFI, optional: a GPU adapter may use it). Version 3 ships its binary in a per-platform
 * package @koromix/koffi-<platform>-<arch>; version 2 in build/koffi/<platform>_<arch>/koffi.node.
 */
export function checkKoffi(locate: PackageLocator, facts: ProcessFacts, exists: (p: string) => boolean = existsSync): NativeCheck {
  const name = 'koffi';
  const dir = locate(name);
  if (!dir) return { name, status: 'absent', detail: 'not installed (optional)' };
  const perPlatform = locate(`@koromix/koffi-${facts.platform}-${facts.arch}`);
  const legacy = path.join(dir, 'build', 'koffi', `${facts.platform}_${facts.arch}`, 'koffi.node');
  if (perPlatform || exists(legacy)) return { name, status: 'ok', detail: `N-API binary for ${facts.platform}-${facts.arch} (ABI-stable, no rebuild for Electron)` };
  return { name, status: 'unavailable', detail: `no binary for ${facts.platform}-${facts.arch}: install it on this platform (\`npm ci\` fetches @koromix/koffi-${facts.platform}-${facts.arch} as an optional dependency)` };
}

export function checkSqlite(loaders: readonly SqliteBackendLoader[] = defaultSqliteLoaders()): NativeCheck {
  const reasons: string[] = [];
  for (const loader of loaders) {
    try {
      loader.load();
      return { name: 'library SQLite', status: 'ok', detail: `${loader.name}${reasons.length ? ` (${reasons.join('; ')})` : ''}` };
    } catch (err) {
      reasons.push(describeLoadFailure(loader.name, err));
    }
  }
  return { name: 'library SQLite', status: 'unavailable', detail: `${reasons.join('; ')}; the library is off, the rest of the studio works` };
}

export function currentProcessFacts(): ProcessFacts {
  return { platform: process.platform, arch: process.arch, napiVersion: Number(process.versions.napi ?? 0), electron: process.versions.electron };
}

/** Every check, for the start-up log. */
export function checkNativeModules(facts: ProcessFacts = currentProcessFacts(), locate: PackageLocator = nodeModulesLocator()): NativeCheck[] {
  return [checkOnnxRuntime(locate, facts), checkKoffi(locate, facts), checkSqlite()];
}

export function formatNativeChecks(checks: readonly NativeCheck[]): string[] {
  return checks.map((c) => `[studio] native ${c.name}: ${c.status} — ${c.detail}`);
}
