/**
 * The saved_voices table of the library database (migrations 5 and 6 of library-db.ts): one row per
 * voice the user saved, with what makes it speak (a clone prompt or a design description) and, for a
 * clone, every reference sample it keeps; the row's prompt and clip are the active sample's. Names are
 * unique case-insensitively (name_key). Knows nothing about clip files, which voice-library-service.ts keeps.
 */
import { StudioError } from '../../src-shared/errors';
import type { SavedVoice, SavedVoiceClip, SavedVoiceConditioning, SavedVoiceSample, VoiceClonePrompt } from '../../src-shared/contract/voices';
import type { SqliteConnection } from './sqlite-connection';

export const SAVED_VOICES_MIGRATION_VERSION = 6;
/** The id of the one sample of a voice saved before voices kept several. */
export const FIRST_SAMPLE_ID = 's-0';

/** One sample with what makes it speak. */
export interface StoredSample extends SavedVoiceSample {
  prompt: VoiceClonePrompt;
}

/** A saved voice with what makes it speak, as stored. */
export interface StoredVoice extends SavedVoice {
  prompt: VoiceClonePrompt | null;
  /** clone: every sample (the active one's prompt is `prompt`); design: none. */
  storedSamples?: StoredSample[];
}

interface VoiceRow {
  id: string;
  name: string;
  name_key: string;
  kind: 'clone' | 'design';
  created_at_ms: number;
  model_json: string;
  description: string | null;
  prompt_json: string | null;
  clip_json: string | null;
  warnings_json: string;
  samples_json?: string;
  active_sample_id?: string | null;
}

export const voiceNameKey = (name: string) => name.normalize('NFC').toLowerCase();

function fromRow(r: VoiceRow): StoredVoice {
  const prompt = r.prompt_json ? (JSON.parse(r.prompt_json) as VoiceClonePrompt) : null;
  const clip = r.clip_json ? (JSON.parse(r.clip_json) as SavedVoiceClip) : null;
  const warnings = JSON.parse(r.warnings_json) as string[];
  let samples = JSON.parse(r.samples_json ?? '[]') as StoredSample[];
  // A voice saved before samples: its one clip is its one sample.
  if (samples.length === 0 && clip && prompt) samples = [{ sampleId: FIRST_SAMPLE_ID, clip, cloneMode: prompt.mode, warnings, addedAtMs: r.created_at_ms, prompt }];
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    createdAtMs: r.created_at_ms,
    model: JSON.parse(r.model_json),
    description: r.description,
    cloneMode: prompt?.mode ?? null,
    clip,
    warnings,
    prompt,
    ...(samples.length > 0 ? { storedSamples: samples, activeSampleId: r.active_sample_id ?? samples[0].sampleId } : {}),
  };
}

/** The public record: without prompts. */
export function publicVoice(v: StoredVoice): SavedVoice {
  const { prompt: _prompt, storedSamples, ...rest } = v;
  return storedSamples ? { ...rest, samples: storedSamples.map(({ prompt: _p, ...sample }) => sample) } : rest;
}

export function conditioningOf(v: StoredVoice): SavedVoiceConditioning {
  return {
    id: v.id,
    name: v.name,
    kind: v.kind,
    modelKind: v.model.kind,
    modelSize: v.model.size,
    ...(v.prompt ? { prompt: v.prompt } : {}),
    ...(v.description !== null ? { description: v.description } : {}),
  };
}

export class VoiceStore {
  /** `db` is a library database opened by openLibraryDb (so migrated); the caller owns it. */
  constructor(private readonly db: SqliteConnection) {
    const version = Number(db.pragmaValue('user_version'));
    if (version < SAVED_VOICES_MIGRATION_VERSION) {
      throw new StudioError('internal', `the library database is at schema version ${version} but saved voices need version ${SAVED_VOICES_MIGRATION_VERSION}; open it with openLibraryDb first`, {
        version,
        requiredVersion: SAVED_VOICES_MIGRATION_VERSION,
      });
    }
  }

  private nameTaken(name: string, exceptId: string | null): never | void {
    const row = this.db.prepare('SELECT id FROM saved_voices WHERE name_key = ?').get(voiceNameKey(name)) as { id: string } | undefined;
    if (row && row.id !== exceptId) {
      throw new StudioError('invalid-argument', `a saved voice is already called '${name}'; pick another name or rename that one first`, { field: 'name', value: name });
    }
  }

  insert(voice: StoredVoice): void {
    this.db.transaction(() => {
      this.nameTaken(voice.name, null);
      this.db
        .prepare(
          `INSERT INTO saved_voices (id, name, name_key, kind, created_at_ms, model_json, description, prompt_json, clip_json, warnings_json, samples_json, active_sample_id)
           VALUES (@id, @name, @nameKey, @kind, @createdAtMs, @model, @description, @prompt, @clip, @warnings, @samples, @activeSampleId)`,
        )
        .run({
          id: voice.id,
          name: voice.name,
          nameKey: voiceNameKey(voice.name),
          kind: voice.kind,
          createdAtMs: voice.createdAtMs,
          model: JSON.stringify(voice.model),
          description: voice.description,
          prompt: voice.prompt ? JSON.stringify(voice.prompt) : null,
          clip: voice.clip ? JSON.stringify(voice.clip) : null,
          warnings: JSON.stringify(voice.warnings),
          samples: JSON.stringify(voice.storedSamples ?? []),
          activeSampleId: voice.activeSampleId ?? null,
        });
    });
  }

  /**
   * A clone's samples and the one it speaks with: the row's prompt, clip and warnings become that
   * sample's, so every reader of what speaks sees it. Returns the voice, or null when it is gone.
   */
  setSamples(id: string, samples: readonly StoredSample[], activeSampleId: string): StoredVoice | null {
    const active = samples.find((x) => x.sampleId === activeSampleId);
    if (!active) throw new StudioError('invalid-argument', `voice ${id} has no sample ${activeSampleId}; pick one of ${samples.map((x) => x.sampleId).join(', ')}`, { field: 'sampleId', value: activeSampleId });
    return this.db.transaction(() => {
      this.db
        .prepare('UPDATE saved_voices SET samples_json = @samples, active_sample_id = @activeSampleId, prompt_json = @prompt, clip_json = @clip, warnings_json = @warnings WHERE id = @id')
        .run({ id, samples: JSON.stringify(samples), activeSampleId, prompt: JSON.stringify(active.prompt), clip: JSON.stringify(active.clip), warnings: JSON.stringify(active.warnings) });
      return this.get(id);
    });
  }

  get(id: string): StoredVoice | null {
    const row = this.db.prepare('SELECT * FROM saved_voices WHERE id = ?').get(id) as VoiceRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** By id, or by name case-insensitively. */
  find(idOrName: string): StoredVoice | null {
    const row = this.db.prepare('SELECT * FROM saved_voices WHERE id = @key OR name_key = @nameKey').get({ key: idOrName, nameKey: voiceNameKey(idOrName) }) as VoiceRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** Newest first. */
  list(): StoredVoice[] {
    return (this.db.prepare('SELECT * FROM saved_voices ORDER BY created_at_ms DESC, id DESC').all() as VoiceRow[]).map(fromRow);
  }

  rename(id: string, name: string): StoredVoice | null {
    return this.db.transaction(() => {
      this.nameTaken(name, id);
      this.db.prepare('UPDATE saved_voices SET name = @name, name_key = @nameKey WHERE id = @id').run({ id, name, nameKey: voiceNameKey(name) });
      return this.get(id);
    });
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM saved_voices WHERE id = ?').run(id).changes > 0;
  }
}
