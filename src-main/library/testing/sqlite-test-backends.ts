/**
 * The SQLite backends the library tests run against on this runtime: each real backend that loads
 * here, plus node:sqlite's adapter over a fake driver (FakeNodeSqliteDatabase) where node:sqlite
 * itself is missing. Shared by the backend tests and the crash-writer child process.
 */
import { createNodeSqliteConnection } from '../sqlite-backends';
import { betterSqliteLoader, nodeSqliteLoader, type SqliteBackendLoader } from '../open-sqlite';
import { FakeNodeSqliteDatabase } from './fake-node-sqlite';

export type TestBackendName = 'better-sqlite3' | 'node:sqlite' | 'node:sqlite adapter on a fake driver';

export function fakeNodeSqliteLoader(): SqliteBackendLoader {
  return {
    name: 'node:sqlite',
    load() {
      new FakeNodeSqliteDatabase(':memory:').close(); // loads better-sqlite3 under the fake
      return (filePath) => createNodeSqliteConnection(FakeNodeSqliteDatabase, filePath);
    },
  };
}

export function loaderFor(name: TestBackendName): SqliteBackendLoader {
  switch (name) {
    case 'better-sqlite3':
      return betterSqliteLoader();
    case 'node:sqlite':
      return nodeSqliteLoader();
    case 'node:sqlite adapter on a fake driver':
      return fakeNodeSqliteLoader();
  }
}

/** Whether a backend's driver loads in this runtime, and why not. */
export function probe(name: TestBackendName): { ok: true } | { ok: false; reason: string } {
  try {
    loaderFor(name).load();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: (err as Error).message.split('\n')[0]! };
  }
}
