// The SQLite interface against every backend this runtime has: better-sqlite3 (npm's build for this
// Node), node:sqlite where it is built in (Node 22.13+, Electron 45), and node:sqlite's adapter over a
// fake driver that reproduces node:sqlite's differences (always, so Node 20 tests the adapter logic).
// Each backend runs the same cases, including a SIGKILLed writer: committed rows survive, half-done ones do not.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ClipStore } from './clip-store';
import { createBenchRunStore } from './bench-run-store';
import { LIBRARY_DB_FILE_NAME, openLibraryDb } from './library-db';
import { openSqlite } from './open-sqlite';
import { sqlParameterNames } from './sqlite-connection';
import { loaderFor, probe, type TestBackendName } from './testing/sqlite-test-backends';
import { tempDirs } from '../platform/testing/temp-dirs';

const here = path.dirname(fileURLToPath(import.meta.url));
const tempDir = tempDirs('sqlite-backend-');

describe('sqlParameterNames', () => {
  it('finds @, : and $ names once each, skipping strings, quoted identifiers and comments', () => {
    const sql = `INSERT INTO t ("@no", [:no]) VALUES (@a, :b, $c, @a, '@no', '-- @no') -- @no
      /* :no */ ; SELECT ?`;
    expect(sqlParameterNames(sql)).toEqual(['a', 'b', 'c']);
  });
});

const BACKENDS: TestBackendName[] = ['better-sqlite3', 'node:sqlite', 'node:sqlite adapter on a fake driver'];

for (const name of BACKENDS) {
  const available = probe(name);
  // node:sqlite is missing on Node 20 (`node --version`); its adapter is still covered by the fake driver.
  const suite = available.ok ? describe : describe.skip;
  suite(`SQLite backend: ${name}${available.ok ? '' : ` (skipped: ${available.reason})`}`, () => {
    const open = () => openSqlite(path.join(tempDir(), 'x.sqlite'), [loaderFor(name)]);

    it('binds exactly the named parameters a statement uses and refuses a missing one', () => {
      const db = open();
      db.exec('CREATE TABLE t (a TEXT, b INTEGER)');
      expect(db.prepare('INSERT INTO t VALUES (@a, @b)').run({ a: 'x', b: 1, unused: 'ignored' })).toEqual({ changes: 1 });
      expect(() => db.prepare('INSERT INTO t VALUES (@a, @b)').run({ a: 'y' })).toThrow(/missing named parameter "b"/);
      expect(db.prepare('SELECT a, b FROM t WHERE a = ?').get('x')).toEqual({ a: 'x', b: 1 });
      expect(db.prepare('SELECT a FROM t WHERE a = ?').get('nope')).toBeUndefined();
      const rows = db.prepare('SELECT a, b FROM t LIMIT ? OFFSET ?').all(10, 0);
      expect(rows).toEqual([{ a: 'x', b: 1 }]);
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
      db.close();
    });

    it('commits a transaction that returns, rolls back one that throws, and nests as savepoints', () => {
      const db = open();
      db.exec('CREATE TABLE t (n INTEGER)');
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      expect(db.transaction(() => (insert.run(1), 'value'))).toBe('value');
      expect(() => db.transaction(() => (insert.run(2), (() => { throw new Error('boom'); })()))).toThrow('boom');
      db.transaction(() => {
        insert.run(3);
        expect(() => db.transaction(() => (insert.run(4), (() => { throw new Error('inner'); })()))).toThrow('inner');
        insert.run(5);
      });
      expect(db.prepare('SELECT n FROM t ORDER BY n').all()).toEqual([{ n: 1 }, { n: 3 }, { n: 5 }]);
      db.close();
    });

    it('opens the library in WAL with synchronous FULL and foreign keys, and runs the stores', () => {
      const library = openLibraryDb(tempDir(), undefined, { loaders: [loaderFor(name)] });
      expect(library.backend).toBe(name.startsWith('node:sqlite') ? 'node:sqlite' : 'better-sqlite3');
      expect(library.db.pragmaValue('journal_mode')).toBe('wal');
      expect(library.db.pragmaValue('synchronous')).toBe(2); // 2 = FULL
      expect(library.db.pragmaValue('foreign_keys')).toBe(1);
      expect(library.db.pragmaValue('user_version')).toBe(6);
      const clips = new ClipStore(library.db);
      clips.insert(clipRow('a', 1));
      clips.insert(clipRow('b', 2));
      expect(clips.list({ search: 'clip', limit: 10 }).map((c) => c.id)).toEqual(['b', 'a']);
      expect(clips.get('a')?.turnSpans).toEqual([{ turnIndex: 0, startSample: 0, endSample: 1 }]);
      expect(clips.delete('a')).toBe(true);
      expect(clips.delete('a')).toBe(false);
      expect(createBenchRunStore(library).list()).toEqual([]);
      library.dispose();
    });

    it('keeps a committed clip and drops an uncommitted one when the writer is SIGKILLed', () => {
      const folder = tempDir();
      const writer = path.join(here, 'testing', 'crash-writer.ts');
      for (const [mode, id] of [['after-commit', 'kept'], ['mid-transaction', 'lost']] as const) {
        const child = spawnSync(process.execPath, ['--import', 'tsx', writer, folder, name, mode, id], { encoding: 'utf8', timeout: 60_000 });
        expect(child.signal, child.stderr).toBe('SIGKILL');
      }
      const library = openLibraryDb(folder, undefined, { loaders: [loaderFor(name)] });
      const clips = new ClipStore(library.db);
      expect(clips.get('kept')?.id).toBe('kept');
      expect(clips.get('lost')).toBeNull();
      expect(library.db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      library.dispose();
      expect(path.basename(library.filePath)).toBe(LIBRARY_DB_FILE_NAME);
    });
  });
}

function clipRow(id: string, createdAtMs: number) {
  return {
    id, createdAtMs, title: `Clip ${id}`, input: 'hi', inputFormat: 'text' as const, voice: 'ryan', language: 'english', seed: 1, instruct: null,
    params: { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 64 },
    modelHash: 'h', timings: { numPromptTokens: 1, numFrames: 1, queueWaitMs: 0, latencyFirstAudioMs: 1, latencyTotalMs: 1, audioDurationMs: 1, rtf: 1 },
    sampleRateHz: 24_000, numSamples: 1, durationMs: 1, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 1 }],
  };
}
