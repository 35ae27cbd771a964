/**
 * The clips table of the library database (SQLite through library-db's connection): one row per generated
 * clip with what made it. The table comes from the 'clips' migration (version 2) of library-db.ts;
 * this file owns its queries and checks that the database it is given has been migrated that far.
 * It knows nothing about audio files, which library-service keeps beside the database.
 */
import type { SqliteConnection } from './sqlite-connection';
import { StudioError } from '../../src-shared/errors';
import type { ClipQuery, ClipRecord } from '../../src-shared/contract/library';

/** The library migration that creates the clips table. */
export const CLIPS_MIGRATION_VERSION = 2;

interface ClipRow {
  id: string;
  created_at_ms: number;
  title: string;
  input: string;
  input_format: 'text' | 'ssml';
  voice: string;
  language: string;
  seed: number;
  instruct: string | null;
  params_json: string;
  model_hash: string;
  timings_json: string;
  sample_rate_hz: number;
  num_samples: number;
  duration_ms: number;
  turn_spans_json: string;
}

function fromRow(r: ClipRow): ClipRecord {
  return {
    id: r.id,
    createdAtMs: r.created_at_ms,
    title: r.title,
    input: r.input,
    inputFormat: r.input_format,
    voice: r.voice,
    language: r.language,
    seed: r.seed,
    instruct: r.instruct,
    params: JSON.parse(r.params_json),
    modelHash: r.model_hash,
    timings: JSON.parse(r.timings_json),
    sampleRateHz: r.sample_rate_hz,
    numSamples: r.num_samples,
    durationMs: r.duration_ms,
    turnSpans: JSON.parse(r.turn_spans_json),
  };
}

/** Escapes LIKE wildcards so a search for "50%" means the literal text. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ClipStore {
  /** `db` is a library database opened by openLibraryDb (so migrated); the caller owns (and closes) it. */
  constructor(private readonly db: SqliteConnection) {
    const version = Number(db.pragmaValue('user_version'));
    if (version < CLIPS_MIGRATION_VERSION) {
      throw new StudioError(
        'internal',
        `the library database is at schema version ${version} but the clips table arrives with version ${CLIPS_MIGRATION_VERSION}; open it with openLibraryDb (which runs the migrations) before creating a ClipStore`,
        { version, requiredVersion: CLIPS_MIGRATION_VERSION },
      );
    }
  }

  insert(clip: ClipRecord): void {
    this.db
      .prepare(
        `INSERT INTO clips (id, created_at_ms, title, input, input_format, voice, language, seed, instruct, params_json, model_hash,
          timings_json, sample_rate_hz, num_samples, duration_ms, turn_spans_json)
         VALUES (@id, @createdAtMs, @title, @input, @inputFormat, @voice, @language, @seed, @instruct, @params, @modelHash,
          @timings, @sampleRateHz, @numSamples, @durationMs, @turnSpans)`,
      )
      .run({
        ...clip,
        params: JSON.stringify(clip.params),
        timings: JSON.stringify(clip.timings),
        turnSpans: JSON.stringify(clip.turnSpans),
      });
  }

  get(id: string): ClipRecord | null {
    const row = this.db.prepare('SELECT * FROM clips WHERE id = ?').get(id) as ClipRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** Newest first; search matches the title or input text case-insensitively. */
  list(query: ClipQuery = {}): ClipRecord[] {
    const where: string[] = [];
    const args: Record<string, string | number> = { limit: query.limit ?? 200 };
    if (query.search) {
      where.push(`(lower(title) LIKE @search ESCAPE '\\' OR lower(input) LIKE @search ESCAPE '\\')`);
      args.search = likePattern(query.search);
    }
    if (query.voice) {
      where.push('voice = @voice');
      args.voice = query.voice;
    }
    if (query.language) {
      where.push('language = @language');
      args.language = query.language;
    }
    const sql = `SELECT * FROM clips ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at_ms DESC, id DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(args) as ClipRow[]).map(fromRow);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM clips WHERE id = ?').run(id).changes > 0;
  }
}
