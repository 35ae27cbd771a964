/**
 * The studio's SQLite library database: opened in a given folder as library.sqlite through the
 * first SQLite backend this runtime loads (open-sqlite.ts), WAL journal, synchronous FULL, foreign
 * keys on, and brought up to date by an ordered migration list.
 * LIBRARY_MIGRATIONS is append-only: add a new entry with the next version at the end; never edit
 * or reorder an entry that has shipped. The applied version is stored in PRAGMA user_version.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { openSqlite, type SqliteBackendLoader } from './open-sqlite';
import type { SqliteConnection } from './sqlite-connection';

export type SqliteDatabase = SqliteConnection;

export interface LibraryMigration {
  /** 1, 2, 3, … in list order. */
  version: number;
  name: string;
  up(db: SqliteDatabase): void;
}

export const LIBRARY_DB_FILE_NAME = 'library.sqlite';

export const LIBRARY_MIGRATIONS: readonly LibraryMigration[] = [
  {
    version: 1,
    name: 'bench-runs',
    up(db) {
      db.exec(`
        CREATE TABLE bench_runs (
          run_id         TEXT PRIMARY KEY,
          schema_version INTEGER NOT NULL,
          started_at     TEXT NOT NULL,
          finished_at    TEXT NOT NULL,
          mode           TEXT NOT NULL,
          variants       TEXT NOT NULL,  -- JSON array of variant names
          workloads      TEXT NOT NULL,  -- JSON array of workload names
          num_measurements INTEGER NOT NULL,
          all_valid      INTEGER NOT NULL, -- 1 when every measurement is valid
          cancelled      INTEGER NOT NULL,
          summary        TEXT NOT NULL,  -- JSON: small per-measurement figures for the dashboard list
          record         TEXT NOT NULL   -- the complete BenchRunRecord JSON
        );
        CREATE INDEX bench_runs_started_at ON bench_runs (started_at DESC);
      `);
    },
  },
  {
    version: 2,
    name: 'clips',
    up(db) {
      // IF NOT EXISTS: builds before this migration created the same table outside the list, on
      // databases that are already at version 1; those keep their rows.
      db.exec(`
        CREATE TABLE IF NOT EXISTS clips (
          id              TEXT PRIMARY KEY,
          created_at_ms   INTEGER NOT NULL,
          title           TEXT NOT NULL,
          input           TEXT NOT NULL,
          input_format    TEXT NOT NULL,   -- 'text' | 'ssml'
          voice           TEXT NOT NULL,
          language        TEXT NOT NULL,
          seed            INTEGER NOT NULL,
          instruct        TEXT,
          params_json     TEXT NOT NULL,   -- the effective sampling parameters
          model_hash      TEXT NOT NULL,
          timings_json    TEXT NOT NULL,
          sample_rate_hz  INTEGER NOT NULL,
          num_samples     INTEGER NOT NULL,
          duration_ms     REAL NOT NULL,
          turn_spans_json TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS clips_created ON clips (created_at_ms DESC);
      `);
    },
  },
  {
    version: 3,
    name: 'clip-voices-favourite',
    up(db) {
      // voices: every voice of the clip as '|a|b|' (a LIKE '%|a|%' finds it by any); existing clips have their one voice.
      db.exec(`
        ALTER TABLE clips ADD COLUMN voices TEXT NOT NULL DEFAULT '';
        ALTER TABLE clips ADD COLUMN favourite INTEGER NOT NULL DEFAULT 0;
        UPDATE clips SET voices = '|' || voice || '|';
      `);
    },
  },
  {
    version: 4,
    name: 'clip-takes',
    up(db) {
      // A take (a regenerated turn) is a row under its clip's entry: take_of_clip_id/take_turn_index;
      // chosen_takes_json on the clip maps turn index → chosen take id.
      db.exec(`
        ALTER TABLE clips ADD COLUMN take_of_clip_id TEXT;
        ALTER TABLE clips ADD COLUMN take_turn_index INTEGER;
        ALTER TABLE clips ADD COLUMN chosen_takes_json TEXT NOT NULL DEFAULT '{}';
        CREATE INDEX IF NOT EXISTS clips_take_of ON clips (take_of_clip_id);
      `);
    },
  },
  {
    version: 5,
    name: 'saved-voices',
    up(db) {
      db.exec(`
        CREATE TABLE saved_voices (
          id            TEXT PRIMARY KEY,
          name          TEXT NOT NULL,
          name_key      TEXT NOT NULL UNIQUE,  -- lower(name): names are unique case-insensitively
          kind          TEXT NOT NULL,         -- 'clone' | 'design'
          created_at_ms INTEGER NOT NULL,
          model_json    TEXT NOT NULL,         -- {id, kind, size} of the model it was made with
          description   TEXT,                  -- design: the VoiceDesign description
          prompt_json   TEXT,                  -- clone: {mode, embedding, refCodes?, refText?}
          clip_json     TEXT,                  -- clone: the source clip copied under library/voices/
          warnings_json TEXT NOT NULL
        );
        CREATE INDEX saved_voices_created ON saved_voices (created_at_ms DESC);
      `);
    },
  },
  {
    version: 6,
    name: 'voice-samples',
    up(db) {
      // Every reference sample of a cloned voice, with its prompt; the row's prompt/clip/warnings stay
      // the active sample's, so what speaks is read as before. '[]' (voices saved earlier): the one clip.
      db.exec(`
        ALTER TABLE saved_voices ADD COLUMN samples_json TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE saved_voices ADD COLUMN active_sample_id TEXT;
      `);
    },
  },
];

export interface LibraryDb {
  readonly db: SqliteDatabase;
  /** Which SQLite backend opened it. */
  readonly backend: SqliteConnection['backend'];
  readonly filePath: string;
  /** The schema version after migrations ran. */
  readonly version: number;
  dispose(): void;
}

function checkMigrationList(migrations: readonly LibraryMigration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StudioError('internal', `library migration "${m.name}" at position ${i} has version ${m.version}; versions must be 1, 2, 3, … in list order`, { index: i, version: m.version });
    }
  });
}

export interface OpenLibraryOptions {
  /** SQLite backends to try, in order; default: the runtime's order (open-sqlite.ts). */
  loaders?: readonly SqliteBackendLoader[];
}

/**
 * Opens (creating the folder and file if needed) and migrates the library database. Throws
 * StudioError 'unavailable' when no SQLite backend loads in this runtime.
 */
export function openLibraryDb(folder: string, migrations: readonly LibraryMigration[] = LIBRARY_MIGRATIONS, options: OpenLibraryOptions = {}): LibraryDb {
  checkMigrationList(migrations);
  fs.mkdirSync(folder, { recursive: true });
  const filePath = path.join(folder, LIBRARY_DB_FILE_NAME);
  // The driver loads here, not at import: commands that never open the library (bench --no-store,
  // serve's synthesis API) then run where no SQLite backend loads, e.g. the bundled CLI on a GPU box.
  const db = openSqlite(filePath, options.loaders);
  try {
    // PRAGMA journal_mode answers with the mode it got; anything but 'wal' (a read-only folder, a
    // file system without shared memory) is refused rather than silently running without WAL.
    db.exec('PRAGMA journal_mode = WAL');
    const journalMode = String(db.pragmaValue('journal_mode')).toLowerCase();
    if (journalMode !== 'wal') {
      throw new StudioError('unavailable', `library database ${filePath} could not switch to WAL (journal mode is '${journalMode}'); move the data folder (STUDIO_DATA_DIR) to a local disk`, { filePath, journalMode });
    }
    // FULL, not the WAL default NORMAL: a committed clip survives a power loss, and both backends
    // behave the same whatever their SQLite was compiled with.
    db.exec('PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000');
    const current = Number(db.pragmaValue('user_version'));
    if (current > migrations.length) {
      throw new StudioError(
        'unsupported',
        `library database ${filePath} is at schema version ${current} but this build knows ${migrations.length}; update the studio or open a different library folder`,
        { filePath, version: current, knownVersion: migrations.length },
      );
    }
    for (const migration of migrations.slice(current)) {
      db.transaction(() => {
        migration.up(db);
        db.exec(`PRAGMA user_version = ${migration.version}`);
      });
    }
    return { db, backend: db.backend, filePath, version: migrations.length, dispose: () => db.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}
