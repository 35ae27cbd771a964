/**
 * The two SQLite backends behind SqliteConnection: better-sqlite3 (a native addon built by npm for
 * the system Node's ABI) and node:sqlite (built into Node 22.5+ and so into Electron's Node, no
 * addon at all). Each adapter takes the driver's constructor, so tests can hand in a fake driver.
 */
import {
  isNamedParams,
  pickNamedParams,
  sqlParameterNames,
  type SqliteConnection,
  type SqliteParams,
  type SqliteStatement,
} from './sqlite-connection';

/** The part of better-sqlite3's Database the adapter uses. */
export interface BetterSqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  pragma(source: string, options: { simple: true }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  close(): unknown;
}
export type BetterSqliteConstructor = new (filePath: string) => BetterSqliteDatabase;

/** The part of node:sqlite's DatabaseSync the adapter uses. */
export interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number | bigint };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  readonly isTransaction: boolean;
  close(): void;
}
export type NodeSqliteConstructor = new (filePath: string) => NodeSqliteDatabase;

/** Rows from node:sqlite have a null prototype; the stores expect plain objects (toEqual, spread). */
function plainRow(row: unknown): unknown {
  return row && typeof row === 'object' ? { ...(row as Record<string, unknown>) } : row;
}

export function createBetterSqliteConnection(Driver: BetterSqliteConstructor, filePath: string): SqliteConnection {
  const db = new Driver(filePath);
  return {
    backend: 'better-sqlite3',
    filePath,
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const stmt = db.prepare(sql);
      const names = sqlParameterNames(sql);
      // better-sqlite3 ignores extra keys already; picking them keeps both backends strict alike.
      const bind = (params: SqliteParams): unknown[] => (params.length === 1 && isNamedParams(params[0]) ? [pickNamedParams(names, params[0], sql)] : params);
      return {
        run: (...params) => ({ changes: stmt.run(...bind(params)).changes }),
        get: (...params) => stmt.get(...bind(params)),
        all: (...params) => stmt.all(...bind(params)),
      } satisfies SqliteStatement;
    },
    pragmaValue: (name) => db.pragma(name, { simple: true }),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => void db.close(),
  };
}

let savepointCounter = 0;

export function createNodeSqliteConnection(Driver: NodeSqliteConstructor, filePath: string): SqliteConnection {
  const db = new Driver(filePath);
  return {
    backend: 'node:sqlite',
    filePath,
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const stmt = db.prepare(sql);
      const names = sqlParameterNames(sql);
      const bind = (params: SqliteParams): unknown[] => (params.length === 1 && isNamedParams(params[0]) ? [pickNamedParams(names, params[0], sql)] : params);
      return {
        run: (...params) => ({ changes: Number(stmt.run(...bind(params)).changes) }),
        get: (...params) => plainRow(stmt.get(...bind(params))),
        all: (...params) => stmt.all(...bind(params)).map(plainRow),
      } satisfies SqliteStatement;
    },
    pragmaValue(name) {
      const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
      return row ? Object.values(row)[0] : undefined;
    },
    transaction<T>(fn: () => T): T {
      // BEGIN IMMEDIATE takes the write lock up front (as better-sqlite3's .immediate would), so a
      // second process waits on busy_timeout instead of failing at COMMIT; nested calls use savepoints.
      const nested = db.isTransaction;
      const savepoint = `studio_sp_${++savepointCounter}`;
      db.exec(nested ? `SAVEPOINT ${savepoint}` : 'BEGIN IMMEDIATE');
      try {
        const result = fn();
        db.exec(nested ? `RELEASE ${savepoint}` : 'COMMIT');
        return result;
      } catch (err) {
        if (nested) db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        else if (db.isTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
    close: () => db.close(),
  };
}
