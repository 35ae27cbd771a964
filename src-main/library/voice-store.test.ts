// The saved_voices table on every SQLite backend this runtime has: a clone keeps its prompt (embedding,
// and the in-context fields when given), names are unique case-insensitively on insert and rename,
// find works by id or name, the public record carries no prompt, and a store refuses an unmigrated database;
// a voice saved before samples loads with its clip as its one sample, and the active sample is what speaks.
import { describe, expect, it } from 'vitest';
import { LIBRARY_MIGRATIONS, openLibraryDb } from './library-db';
import { FIRST_SAMPLE_ID, SAVED_VOICES_MIGRATION_VERSION, VoiceStore, conditioningOf, publicVoice, type StoredSample, type StoredVoice } from './voice-store';
import { loaderFor, probe, type TestBackendName } from './testing/sqlite-test-backends';
import { tempDirs } from '../platform/testing/temp-dirs';

const tempDir = tempDirs('voice-store-');

function clone(id: string, name: string, createdAtMs: number): StoredVoice {
  return {
    id,
    name,
    kind: 'clone',
    createdAtMs,
    model: { id: 'Qwen/Qwen3-TTS-12Hz-0.6B-Base', kind: 'base', size: '0.6B' },
    description: null,
    cloneMode: 'icl',
    clip: { originalName: 'anna.flac', fileName: `${id}.flac`, sizeBytes: 1234, durationMs: 8000 },
    warnings: ['short'],
    prompt: { mode: 'icl', embedding: [0.25, -1.5, 3e-7], refCodes: [[1, 2], [3, 4]], refText: 'Hello.' },
  };
}

const BACKENDS: TestBackendName[] = ['better-sqlite3', 'node:sqlite', 'node:sqlite adapter on a fake driver'];

for (const name of BACKENDS) {
  const available = probe(name);
  const suite = available.ok ? describe : describe.skip;
  suite(`VoiceStore on ${name}`, () => {
    const open = () => openLibraryDb(tempDir(), undefined, { loaders: [loaderFor(name)] });

    it('keeps every field of a clone, newest first, and finds by id or name', () => {
      const library = open();
      const store = new VoiceStore(library.db);
      const design: StoredVoice = { ...clone('v-bbbbbbbbbbbb', 'Calm', 2), kind: 'design', description: 'a calm voice', cloneMode: null, clip: null, warnings: [], prompt: null };
      store.insert(clone('v-aaaaaaaaaaaa', 'Anna', 1));
      store.insert(design);
      expect(store.list().map((v) => v.id)).toEqual(['v-bbbbbbbbbbbb', 'v-aaaaaaaaaaaa']);
      expect(store.get('v-aaaaaaaaaaaa')).toMatchObject(clone('v-aaaaaaaaaaaa', 'Anna', 1));
      expect(store.find('ANNA')?.id).toBe('v-aaaaaaaaaaaa');
      expect(store.find('v-bbbbbbbbbbbb')).toEqual(design);
      expect(store.find('nobody')).toBeNull();
      expect(publicVoice(store.get('v-aaaaaaaaaaaa')!)).not.toHaveProperty('prompt');
      expect(conditioningOf(store.get('v-aaaaaaaaaaaa')!)).toEqual({ id: 'v-aaaaaaaaaaaa', name: 'Anna', kind: 'clone', modelKind: 'base', modelSize: '0.6B', prompt: clone('', '', 0).prompt });
      expect(conditioningOf(design)).toMatchObject({ kind: 'design', description: 'a calm voice' });
      library.dispose();
    });

    it('refuses a name taken in another case on insert and rename; renaming to itself works', () => {
      const library = open();
      const store = new VoiceStore(library.db);
      store.insert(clone('v-aaaaaaaaaaaa', 'Anna', 1));
      store.insert(clone('v-cccccccccccc', 'Bob', 2));
      expect(() => store.insert(clone('v-dddddddddddd', 'anna', 3))).toThrow(/already called 'anna'/);
      expect(() => store.rename('v-cccccccccccc', 'ANNA')).toThrow(/already called/);
      expect(store.rename('v-aaaaaaaaaaaa', 'ANNA')?.name).toBe('ANNA');
      expect(store.rename('v-eeeeeeeeeeee', 'Zed')).toBeNull();
      expect(store.delete('v-aaaaaaaaaaaa')).toBe(true);
      expect(store.delete('v-aaaaaaaaaaaa')).toBe(false);
      store.insert(clone('v-dddddddddddd', 'anna', 3)); // the name is free again
      library.dispose();
    });

    it('needs migration 6 (samples) and refuses a database below it', () => {
      expect(LIBRARY_MIGRATIONS[SAVED_VOICES_MIGRATION_VERSION - 1]).toMatchObject({ version: 6, name: 'voice-samples' });
      const old = openLibraryDb(tempDir(), LIBRARY_MIGRATIONS.slice(0, 5), { loaders: [loaderFor(name)] });
      expect(() => new VoiceStore(old.db)).toThrow(/schema version 5 but saved voices need version 6/);
      old.dispose();
    });

    it('loads a voice saved before samples with its clip as its one sample, and speaks with the sample made active', () => {
      const folder = tempDir();
      const before = openLibraryDb(folder, LIBRARY_MIGRATIONS.slice(0, 5), { loaders: [loaderFor(name)] });
      const anna = clone('v-aaaaaaaaaaaa', 'Anna', 1);
      before.db
        .prepare("INSERT INTO saved_voices (id, name, name_key, kind, created_at_ms, model_json, description, prompt_json, clip_json, warnings_json) VALUES (?, 'Anna', 'anna', 'clone', 1, ?, NULL, ?, ?, '[\"short\"]')")
        .run(anna.id, JSON.stringify(anna.model), JSON.stringify(anna.prompt), JSON.stringify(anna.clip));
      before.dispose();

      const library = openLibraryDb(folder, undefined, { loaders: [loaderFor(name)] });
      const store = new VoiceStore(library.db);
      const loaded = store.get(anna.id)!;
      expect(loaded).toMatchObject({ ...anna, activeSampleId: FIRST_SAMPLE_ID });
      expect(publicVoice(loaded).samples).toEqual([{ sampleId: FIRST_SAMPLE_ID, clip: anna.clip, cloneMode: 'icl', warnings: ['short'], addedAtMs: 1 }]);

      const second: StoredSample = { sampleId: 's-0123abcd', clip: { originalName: 'anna-2.wav', fileName: 'v-aaaaaaaaaaaa-s-0123abcd.wav', sizeBytes: 99, durationMs: 6000 }, cloneMode: 'xvector', warnings: [], addedAtMs: 5, prompt: { mode: 'xvector', embedding: [9, 8, 7] } };
      store.setSamples(anna.id, [...loaded.storedSamples!, second], FIRST_SAMPLE_ID);
      expect(conditioningOf(store.get(anna.id)!).prompt).toEqual(anna.prompt); // adding keeps the active sample
      const switched = store.setSamples(anna.id, store.get(anna.id)!.storedSamples!, second.sampleId)!;
      expect(conditioningOf(switched).prompt).toEqual(second.prompt);
      expect(publicVoice(switched)).toMatchObject({ clip: second.clip, cloneMode: 'xvector', warnings: [], activeSampleId: 's-0123abcd' });
      expect(publicVoice(switched).samples!.map((x) => x.sampleId)).toEqual([FIRST_SAMPLE_ID, 's-0123abcd']);
      expect(JSON.stringify(publicVoice(switched))).not.toContain('embedding');
      expect(() => store.setSamples(anna.id, switched.storedSamples!, 's-ffffffff')).toThrow(/has no sample s-ffffffff/);
      library.dispose();
    });
  });
}
