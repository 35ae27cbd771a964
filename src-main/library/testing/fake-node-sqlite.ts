/**
 * A stand-in for node:sqlite's DatabaseSync on runtimes without it (Node 20), built on
 * better-sqlite3 and reproducing the differences the adapter must absorb: unknown named parameters
 * are an error, a missing one binds NULL, rows have a null prototype, `changes` may be a bigint,
 * transactions are plain SQL and `isTransaction` reports them. Tests only.
 */
import { createRequire } from 'node:module';
import type { BetterSqliteDatabase } from '../sqlite-backends';
import type { NodeSqliteDatabase } from '../sqlite-backends';
import { sqlParameterNames } from '../sqlite-connection';

type BetterCtor = new (filePath: string) => BetterSqliteDatabase & { inTransaction: boolean };

export class FakeNodeSqliteDatabase implements NodeSqliteDatabase {
  private readonly db: BetterSqliteDatabase & { inTransaction: boolean };

  constructor(filePath: string) {
    const Better = createRequire(import.meta.url)('better-sqlite3') as BetterCtor;
    this.db = new Better(filePath);
  }

  get isTransaction(): boolean {
    return this.db.inTransaction;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): ReturnType<NodeSqliteDatabase['prepare']> {
    const stmt = this.db.prepare(sql);
    const names = sqlParameterNames(sql);
    const bind = (params: unknown[]): unknown[] => {
      const [first] = params;
      if (params.length !== 1 || typeof first !== 'object' || first === null || Array.isArray(first)) return params;
      const values = first as Record<string, unknown>;
      for (const key of Object.keys(values)) {
        if (!names.includes(key)) throw new Error(`Unknown named parameter '${key}'`);
      }
      return [Object.fromEntries(names.map((n) => [n, values[n] ?? null]))];
    };
    const nullProto = (row: unknown) => (row && typeof row === 'object' ? Object.assign(Object.create(null), row) : row);
    return {
      run: (...params) => ({ changes: BigInt(stmt.run(...bind(params)).changes) }),
      get: (...params) => nullProto(stmt.get(...bind(params))),
      all: (...params) => stmt.all(...bind(params)).map(nullProto),
    };
  }

  close(): void {
    this.db.close();
  }
}
