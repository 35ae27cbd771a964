/**
 * Opens the library's SQLite file with the first backend that loads in this runtime: in Electron
 * node:sqlite first (no native ABI to match), on plain Node better-sqlite3 first (what npm built).
 * When none loads, throws StudioError 'unavailable' naming each backend's reason and the fix, so
 * the library reports itself unavailable while the rest of the studio keeps working.
 */
import { createRequire } from 'node:module';
import { StudioError } from '../../src-shared/errors';
import { createBetterSqliteConnection, createNodeSqliteConnection, type BetterSqliteConstructor, type NodeSqliteConstructor } from './sqlite-backends';
import type { SqliteBackendName, SqliteConnection } from './sqlite-connection';

/** Loads a backend's driver (the step that fails on an ABI mismatch) and returns its opener. */
export interface SqliteBackendLoader {
  name: SqliteBackendName;
  load(): (filePath: string) => SqliteConnection;
}

/** The parts of process.versions that pick a SQLite backend. */
export interface ProcessVersions {
  node: string;
  electron?: string;
  modules?: string;
}

export function betterSqliteLoader(requireFrom: (id: string) => unknown = createRequire(import.meta.url)): SqliteBackendLoader {
  return {
    name: 'better-sqlite3',
    load() {
      const Driver = requireFrom('better-sqlite3') as BetterSqliteConstructor;
      // better-sqlite3 loads its addon on the first open: do that here, on an in-memory database,
      // so an ABI mismatch is a load failure and not mistaken for a problem with the library file.
      new Driver(':memory:').close();
      return (filePath) => createBetterSqliteConnection(Driver, filePath);
    },
  };
}

export function nodeSqliteLoader(getBuiltin: (id: string) => unknown = (id) => process.getBuiltinModule?.(id)): SqliteBackendLoader {
  return {
    name: 'node:sqlite',
    load() {
      const mod = getBuiltin('node:sqlite') as { DatabaseSync?: NodeSqliteConstructor } | undefined;
      if (!mod?.DatabaseSync) throw new Error(`node:sqlite is not built into this runtime (Node ${process.versions.node}; it needs Node 22.13+ or Electron 45)`);
      const Driver = mod.DatabaseSync;
      return (filePath) => createNodeSqliteConnection(Driver, filePath);
    },
  };
}

/** Backends in the order this runtime should try them. */
export function defaultSqliteLoaders(versions: ProcessVersions = process.versions): SqliteBackendLoader[] {
  return versions.electron ? [nodeSqliteLoader(), betterSqliteLoader()] : [betterSqliteLoader(), nodeSqliteLoader()];
}

/** One line saying why a backend did not load; ABI mismatches and missing modules are named as such. */
export function describeLoadFailure(name: SqliteBackendName, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*?requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi || /compiled against a different Node\.js version/.test(message)) {
    const built = abi ? ` (built for NODE_MODULE_VERSION ${abi[1]}, this runtime needs ${abi[2]})` : '';
    return `${name} was compiled against a different Node.js version${built}`;
  }
  // Node answers a second load of an addon whose first load failed this way with "did not self-register".
  if (/did not self-register/.test(message)) return `${name} was compiled against a different Node.js version (its addon did not self-register)`;
  if (/Cannot find module|MODULE_NOT_FOUND/.test(message)) return `${name} is not installed`;
  const firstLine = message.split('\n')[0]!;
  return firstLine.startsWith(`${name} `) ? firstLine : `${name} did not load: ${firstLine}`;
}

function fixFor(versions: ProcessVersions): string {
  return versions.electron
    ? `this Electron (${versions.electron}, Node ${versions.node}) lacks node:sqlite; use Electron 45 as package.json pins it`
    : `run \`npm rebuild better-sqlite3\` with the Node that runs the studio (Node ${versions.node}), or run the studio on Node 22.13+, which has node:sqlite built in`;
}

/**
 * Opens `filePath` with the first backend that loads. Errors from the database itself (a corrupt or
 * unwritable file) propagate as they are: only failures to load a driver move on to the next one.
 */
export function openSqlite(filePath: string, loaders: readonly SqliteBackendLoader[] = defaultSqliteLoaders(), versions: ProcessVersions = process.versions): SqliteConnection {
  const reasons: string[] = [];
  for (const loader of loaders) {
    let open: (filePath: string) => SqliteConnection;
    try {
      open = loader.load();
    } catch (err) {
      reasons.push(describeLoadFailure(loader.name, err));
      continue;
    }
    return open(filePath);
  }
  throw new StudioError('unavailable', `the library is unavailable: ${reasons.join('; ')}. Fix: ${fixFor(versions)}. Everything else in the studio works without it.`, {
    reasons,
    node: versions.node,
    electron: versions.electron ?? null,
  });
}
