// The SQLite loader's error path with injected loaders: an ABI mismatch (the message Node prints for
// better-sqlite3 built for Node 20 and loaded by Node 22) falls through to the next backend, and when
// nothing loads the library is 'unavailable' with each reason and the fix. Errors of the database file
// itself are not mistaken for load failures.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { openLibraryDb } from './library-db';
import { betterSqliteLoader, defaultSqliteLoaders, describeLoadFailure, nodeSqliteLoader, openSqlite, type SqliteBackendLoader } from './open-sqlite';
import { probe } from './testing/sqlite-test-backends';
import { fakeNodeSqliteLoader } from './testing/sqlite-test-backends';
import { thrown } from '../../src-shared/testing/thrown';
import { tempDirs } from '../platform/testing/temp-dirs';

/** What Node 22 prints when it loads the better-sqlite3 that npm built for Node 20 (measured with node 22.23.5). */
const ABI_MISMATCH =
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";

const failing = (name: SqliteBackendLoader['name'], message: string): SqliteBackendLoader => ({
  name,
  load: () => {
    throw new Error(message);
  },
});

const tempDir = tempDirs('open-sqlite-');

describe('openSqlite', () => {
  it('names an ABI mismatch, a missing module and a self-register failure', () => {
    expect(describeLoadFailure('better-sqlite3', new Error(ABI_MISMATCH))).toBe(
      'better-sqlite3 was compiled against a different Node.js version (built for NODE_MODULE_VERSION 115, this runtime needs 127)',
    );
    expect(describeLoadFailure('better-sqlite3', new Error("Cannot find module 'better-sqlite3'"))).toBe('better-sqlite3 is not installed');
    expect(describeLoadFailure('better-sqlite3', new Error("Module did not self-register: '/x.node'."))).toMatch(/compiled against a different Node\.js version/);
  });

  it('reports the library unavailable with every reason and the fix when no backend loads', () => {
    const err = thrown(() =>
      openLibraryDb(tempDir(), undefined, {
        loaders: [failing('better-sqlite3', ABI_MISMATCH), nodeSqliteLoader(() => undefined)],
      }),
    );
    expect(err).toBeInstanceOf(StudioError);
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/^the library is unavailable: better-sqlite3 was compiled against a different Node\.js version \(built for NODE_MODULE_VERSION 115, this runtime needs 127\); node:sqlite is not built into this runtime/);
    expect(err.message).toMatch(/Fix: run `npm rebuild better-sqlite3` with the Node that runs the studio/);
    expect(err.details.reasons).toHaveLength(2);
  });

  it('names Electron in the fix when running inside it', () => {
    const err = thrown(() => openSqlite(path.join(tempDir(), 'x.sqlite'), [failing('node:sqlite', 'no')], { node: '22.20.0', electron: '44.0.0' }));
    expect(err.message).toMatch(/Fix: this Electron \(44\.0\.0, Node 22\.20\.0\) lacks node:sqlite; use Electron 45/);
  });

  it('falls through an ABI mismatch to the next backend', () => {
    const fallback = probe('node:sqlite').ok ? nodeSqliteLoader() : fakeNodeSqliteLoader();
    const library = openLibraryDb(tempDir(), undefined, { loaders: [failing('better-sqlite3', ABI_MISMATCH), fallback] });
    expect(library.backend).toBe('node:sqlite');
    expect(library.version).toBe(6);
    library.dispose();
  });

  it('does not fall through when the database file itself is bad', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'library.sqlite'), 'this is not a database, it is 44 bytes long.');
    const loaders = [probe('better-sqlite3').ok ? betterSqliteLoader() : nodeSqliteLoader(), failing('node:sqlite', 'must not be tried')];
    const err = thrown(() => openLibraryDb(dir, undefined, { loaders }));
    expect(err.message).toMatch(/not a database/);
  });

  it('tries node:sqlite first in Electron and better-sqlite3 first on plain Node', () => {
    expect(defaultSqliteLoaders({ node: '22.20.0', electron: '45.5.0' }).map((l) => l.name)).toEqual(['node:sqlite', 'better-sqlite3']);
    expect(defaultSqliteLoaders({ node: '20.20.2' }).map((l) => l.name)).toEqual(['better-sqlite3', 'node:sqlite']);
  });
});
