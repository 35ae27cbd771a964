/**
 * The small SQLite interface the library is written against, so the same stores run on
 * better-sqlite3 (system Node) and on node:sqlite (Electron's bundled Node 22+). A backend adapts
 * its driver to this shape; behaviour the stores rely on (named parameters, transactions, pragmas)
 * is pinned here and tested against every backend that loads.
 */

export type SqliteBackendName = 'better-sqlite3' | 'node:sqlite';

/** Positional values, or one object whose keys are the statement's named parameters without the prefix. */
export type SqliteParams = unknown[];

export interface SqliteRunResult {
  changes: number;
}

export interface SqliteStatement {
  run(...params: SqliteParams): SqliteRunResult;
  /** The first row, or undefined when there is none. */
  get(...params: SqliteParams): unknown;
  all(...params: SqliteParams): unknown[];
}

export interface SqliteConnection {
  readonly backend: SqliteBackendName;
  readonly filePath: string;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** The first column of the first row of `PRAGMA <name>` (e.g. 'user_version', 'journal_mode'). */
  pragmaValue(name: string): unknown;
  /** Runs `fn` in a transaction (a savepoint when nested): committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/**
 * Named parameters (`@name`, `:name`, `$name`) of a statement, in order of first use, skipping
 * string literals, quoted identifiers and comments. node:sqlite refuses an object with keys a
 * statement does not name, better-sqlite3 ignores them; adapters bind only these names.
 */
export function sqlParameterNames(sql: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '[') {
      const end = sql.indexOf(']', i + 1);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      if (!names.includes(match[0])) names.push(match[0]);
      i += 1 + match[0].length;
    } else {
      i += 1;
    }
  }
  return names;
}

/** A plain object of named values (not an array, buffer or typed array). */
export function isNamedParams(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

/**
 * The object to bind for a statement with `names`: exactly those keys. A name the caller did not
 * give is an error on every backend (better-sqlite3 refuses it; node:sqlite would bind NULL).
 */
export function pickNamedParams(names: readonly string[], values: Record<string, unknown>, sql: string): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in values) || values[name] === undefined) {
      throw new TypeError(`missing named parameter "${name}" for SQL: ${sql.trim().slice(0, 120)}`);
    }
    picked[name] = values[name];
  }
  return picked;
}
