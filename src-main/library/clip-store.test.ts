// The clips table through the library's migration list: a fresh database gets it at version 2,
// a version-1 database from an older build (which created clips on its own) keeps its rows, and
// a ClipStore refuses a database that has not been migrated.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { ClipRecord } from '../../src-shared/contract/library';
import { LIBRARY_DB_FILE_NAME, LIBRARY_MIGRATIONS, openLibraryDb } from './library-db';
import { CLIPS_MIGRATION_VERSION, ClipStore } from './clip-store';
import { openSqlite } from './open-sqlite';
import { newClip } from './testing/new-clip';
import { tempDirs } from '../platform/testing/temp-dirs';

const tempDir = tempDirs('clip-store-');

/** A stored clip: the library fixture as SSML, 72 samples long, with the fields the store adds. */
function clip(id: string, createdAtMs: number): ClipRecord {
  const saved = newClip({ title: `Clip ${id}`, input: '<speak>Hi</speak>', inputFormat: 'ssml', turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 72 }] });
  return { ...saved, id, createdAtMs, numSamples: 72, durationMs: 3, voices: ['ryan'], favourite: false, takeOf: null, numTakes: 0, chosenTakes: {} };
}

/** What the builds before the clips migration left: version 1 plus a clips table made outside the list. */
const PRE_MIGRATION_CLIPS_SQL = `CREATE TABLE clips (id TEXT PRIMARY KEY, created_at_ms INTEGER NOT NULL, title TEXT NOT NULL, input TEXT NOT NULL,
  input_format TEXT NOT NULL, voice TEXT NOT NULL, language TEXT NOT NULL, seed INTEGER NOT NULL, instruct TEXT, params_json TEXT NOT NULL,
  model_hash TEXT NOT NULL, timings_json TEXT NOT NULL, sample_rate_hz INTEGER NOT NULL, num_samples INTEGER NOT NULL, duration_ms REAL NOT NULL,
  turn_spans_json TEXT NOT NULL);
CREATE INDEX clips_created ON clips (created_at_ms DESC);`;

describe('clips migration and ClipStore', () => {
  it('is the version-2 entry of the migration list and creates the table on a fresh database (3 adds voices and favourite, 4 takes)', () => {
    expect(LIBRARY_MIGRATIONS[CLIPS_MIGRATION_VERSION - 1]).toMatchObject({ version: 2, name: 'clips' });
    const library = openLibraryDb(tempDir());
    expect(library.db.pragmaValue('user_version')).toBe(6);
    const store = new ClipStore(library.db);
    store.insert(clip('a', 1));
    store.insert(clip('b', 2));
    expect(store.list().map((c) => c.id)).toEqual(['b', 'a']);
    expect(store.get('a')).toEqual(clip('a', 1));
    library.dispose();
  });

  it('keeps the rows of a version-1 database whose clips table an older build created', () => {
    const dir = tempDir();
    const v1 = openLibraryDb(dir, LIBRARY_MIGRATIONS.slice(0, 1));
    v1.db.exec(PRE_MIGRATION_CLIPS_SQL);
    v1.db
      .prepare(
        `INSERT INTO clips VALUES ('old', 5, 'Old', 'hi', 'text', 'ryan', 'english', 1, NULL, '{}', 'h', '{}', 24000, 10, 0.4, '[]')`,
      )
      .run();
    v1.dispose();
    const library = openLibraryDb(dir);
    expect(library.version).toBe(6);
    const store = new ClipStore(library.db);
    expect(store.list().map((c) => c.id)).toEqual(['old']);
    // Migration 3 gave the old row its one voice, so the voice filter still finds it.
    expect(store.list({ voice: 'ryan' }).map((c) => [c.id, c.voices, c.favourite])).toEqual([['old', ['ryan'], false]]);
    store.insert(clip('new', 6));
    expect(store.list().map((c) => c.id)).toEqual(['new', 'old']);
    library.dispose();
  });

  it('finds a multi-voice clip by each of its voices, renames it and keeps favourites', () => {
    const library = openLibraryDb(tempDir());
    const store = new ClipStore(library.db);
    store.insert({ ...clip('duo', 1), voices: ['ryan', 'vivian'] });
    store.insert({ ...clip('solo', 2), voice: 'aiden', voices: ['aiden'] });
    store.insert({ ...clip('pct', 3), voice: 'a_b', voices: ['a_b'] });
    expect(store.list({ voice: 'vivian' }).map((c) => c.id)).toEqual(['duo']);
    expect(store.list({ voice: 'ryan' }).map((c) => c.id)).toEqual(['duo']);
    expect(store.list({ voice: 'aiden' }).map((c) => c.id)).toEqual(['solo']);
    expect(store.list({ voice: 'vivi' }).map((c) => c.id)).toEqual([]);
    expect(store.list({ voice: 'a%b' }).map((c) => c.id)).toEqual([]); // LIKE wildcards are literal
    expect(store.get('duo')?.voices).toEqual(['ryan', 'vivian']);

    expect(store.update('duo', { title: 'Dialogue, final', favourite: true })).toMatchObject({ title: 'Dialogue, final', favourite: true });
    expect(store.list({ favouritesOnly: true }).map((c) => c.id)).toEqual(['duo']);
    expect(store.update('duo', { favourite: false })?.favourite).toBe(false);
    expect(store.list({ favouritesOnly: true })).toEqual([]);
    expect(store.update('missing', { title: 'x' })).toBeNull();
    library.dispose();
  });

  it('refuses a database that was not opened through the migrations', () => {
    const dir = tempDir();
    const db = openSqlite(path.join(dir, LIBRARY_DB_FILE_NAME));
    try {
      expect(() => new ClipStore(db)).toThrow(/schema version 0 but the clips table is complete at version 4; open it with openLibraryDb/);
    } finally {
      db.close();
    }
  });
});
