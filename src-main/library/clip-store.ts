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
/** The migration that adds takes (take_of_clip_id, take_turn_index, chosen_takes_json). */
export const CLIP_TAKES_MIGRATION_VERSION = 4;

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
  voices: string;
  favourite: number;
  take_of_clip_id: string | null;
  take_turn_index: number | null;
  chosen_takes_json: string;
  num_takes: number | null;
}

/** '|a|b|' ⇄ ['a', 'b']: the stored form lets LIKE '%|a|%' find a clip by any of its voices. */
function packVoices(voices: readonly string[]): string {
  return `|${voices.join('|')}|`;
}

function unpackVoices(packed: string, voice: string): string[] {
  const list = packed.split('|').filter(Boolean);
  return list.length ? list : [voice];
}

/** The clip's voices, its main voice first, without repeats. */
export function clipVoices(voice: string, voices: readonly string[] | undefined): string[] {
  return [...new Set([voice, ...(voices ?? [])])];
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
    voices: unpackVoices(r.voices, r.voice),
    favourite: r.favourite === 1,
    takeOf: r.take_of_clip_id === null ? null : { clipId: r.take_of_clip_id, turnIndex: r.take_turn_index ?? 0 },
    numTakes: r.num_takes ?? 0,
    chosenTakes: JSON.parse(r.chosen_takes_json) as Record<number, string>,
  };
}

const SELECT_CLIPS = `SELECT c.*, (SELECT COUNT(*) FROM clips t WHERE t.take_of_clip_id = c.id) AS num_takes FROM clips c`;

/** Escapes LIKE wildcards so a search for "50%" means the literal text. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ClipStore {
  /** `db` is a library database opened by openLibraryDb (so migrated); the caller owns (and closes) it. */
  constructor(private readonly db: SqliteConnection) {
    const version = Number(db.pragmaValue('user_version'));
    if (version < CLIP_TAKES_MIGRATION_VERSION) {
      throw new StudioError(
        'internal',
        `the library database is at schema version ${version} but the clips table is complete at version ${CLIP_TAKES_MIGRATION_VERSION}; open it with openLibraryDb (which runs the migrations) before creating a ClipStore`,
        { version, requiredVersion: CLIP_TAKES_MIGRATION_VERSION },
      );
    }
  }

  /** voices (default: just `voice`), favourite (default: false) and the take fields may be left out. */
  insert(clip: Omit<ClipRecord, 'voices' | 'favourite' | 'takeOf' | 'numTakes' | 'chosenTakes'> & { voices?: string[]; favourite?: boolean; takeOf?: ClipRecord['takeOf'] }): void {
    this.db
      .prepare(
        `INSERT INTO clips (id, created_at_ms, title, input, input_format, voice, language, seed, instruct, params_json, model_hash,
          timings_json, sample_rate_hz, num_samples, duration_ms, turn_spans_json, voices, favourite, take_of_clip_id, take_turn_index)
         VALUES (@id, @createdAtMs, @title, @input, @inputFormat, @voice, @language, @seed, @instruct, @params, @modelHash,
          @timings, @sampleRateHz, @numSamples, @durationMs, @turnSpans, @voices, @favourite, @takeOfClipId, @takeTurnIndex)`,
      )
      .run({
        ...clip,
        voices: packVoices(clipVoices(clip.voice, clip.voices)),
        favourite: clip.favourite ? 1 : 0,
        takeOfClipId: clip.takeOf?.clipId ?? null,
        takeTurnIndex: clip.takeOf?.turnIndex ?? null,
        params: JSON.stringify(clip.params),
        timings: JSON.stringify(clip.timings),
        turnSpans: JSON.stringify(clip.turnSpans),
      });
  }

  get(id: string): ClipRecord | null {
    const row = this.db.prepare(`${SELECT_CLIPS} WHERE c.id = ?`).get(id) as ClipRow | undefined;
    return row ? fromRow(row) : null;
  }

  /**
   * One entry per clip, newest first (takes are listed under their clip, not here); or with
   * `takesOf` that clip's takes, oldest first. Search matches the title or input text case-insensitively.
   */
  list(query: ClipQuery = {}): ClipRecord[] {
    const where: string[] = [];
    const args: Record<string, string | number> = { limit: query.limit ?? 200 };
    if (query.takesOf !== undefined) {
      where.push('take_of_clip_id = @takesOf');
      args.takesOf = query.takesOf;
    } else {
      where.push('take_of_clip_id IS NULL');
    }
    if (query.search) {
      where.push(`(lower(title) LIKE @search ESCAPE '\\' OR lower(input) LIKE @search ESCAPE '\\')`);
      args.search = likePattern(query.search);
    }
    if (query.voice) {
      where.push(`voices LIKE @voice ESCAPE '\\'`);
      args.voice = `%|${query.voice.replace(/[\\%_]/g, (c) => `\\${c}`)}|%`;
    }
    if (query.favouritesOnly) where.push('favourite = 1');
    if (query.language) {
      where.push('language = @language');
      args.language = query.language;
    }
    const order = query.takesOf !== undefined ? 'created_at_ms ASC, id ASC' : 'created_at_ms DESC, id DESC';
    const sql = `${SELECT_CLIPS} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`;
    return (this.db.prepare(sql).all(args) as ClipRow[]).map(fromRow);
  }

  /** Renames and/or (un)marks a favourite; returns the updated clip, or null when there is no such clip. */
  update(id: string, patch: { title?: string; favourite?: boolean }): ClipRecord | null {
    if (patch.title !== undefined) this.db.prepare('UPDATE clips SET title = @title WHERE id = @id').run({ id, title: patch.title });
    if (patch.favourite !== undefined) this.db.prepare('UPDATE clips SET favourite = @favourite WHERE id = @id').run({ id, favourite: patch.favourite ? 1 : 0 });
    return this.get(id);
  }

  /** Adds voices to a clip's list (a take in another voice keeps the entry findable by it). */
  addVoices(id: string, voices: readonly string[]): void {
    const clip = this.get(id);
    if (!clip) return;
    this.db.prepare('UPDATE clips SET voices = @voices WHERE id = @id').run({ id, voices: packVoices(clipVoices(clip.voice, [...clip.voices, ...voices])) });
  }

  /** Chooses the take for one turn of a clip (null: the clip's own audio); returns the clip, or null when there is none. */
  chooseTake(id: string, turnIndex: number, takeId: string | null): ClipRecord | null {
    const clip = this.get(id);
    if (!clip) return null;
    const chosen = { ...clip.chosenTakes };
    if (takeId === null) delete chosen[turnIndex];
    else chosen[turnIndex] = takeId;
    this.db.prepare('UPDATE clips SET chosen_takes_json = @chosen WHERE id = @id').run({ id, chosen: JSON.stringify(chosen) });
    return this.get(id);
  }

  /** Deletes a clip and its takes; false when there was no such clip. */
  delete(id: string): boolean {
    return this.deleteWithTakes(id).length > 0;
  }

  /** Deletes a clip and its takes; returns the ids removed (the clip's first), empty when there was no such clip. */
  deleteWithTakes(id: string): string[] {
    const takes = (this.db.prepare('SELECT id FROM clips WHERE take_of_clip_id = ?').all(id) as { id: string }[]).map((r) => r.id);
    if (this.db.prepare('DELETE FROM clips WHERE id = ?').run(id).changes === 0) return [];
    this.db.prepare('DELETE FROM clips WHERE take_of_clip_id = ?').run(id);
    // A deleted take stops being any clip's choice.
    for (const row of this.db.prepare(`SELECT id, chosen_takes_json FROM clips WHERE chosen_takes_json LIKE @pattern`).all({ pattern: `%"${id}"%` }) as { id: string; chosen_takes_json: string }[]) {
      const chosen = JSON.parse(row.chosen_takes_json) as Record<string, string>;
      for (const [turn, takeId] of Object.entries(chosen)) if (takeId === id) delete chosen[turn];
      this.db.prepare('UPDATE clips SET chosen_takes_json = @chosen WHERE id = @id').run({ id: row.id, chosen: JSON.stringify(chosen) });
    }
    return [id, ...takes];
  }
}
