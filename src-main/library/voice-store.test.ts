// The saved_voices table on every SQLite backend this runtime has: a clone keeps its prompt (embedding,
// and the in-context fields when given), names are unique case-insensitively on insert and rename,
// find works by id or name, the public record carries no prompt, and a store refuses an unmigrated database.
import { describe, expect, it } from 'vitest';
import { LIBRARY_MIGRATIONS, openLibraryDb } from './library-db';
import { SAVED_VOICES_MIGRATION_VERSION, VoiceStore, conditioningOf, publicVoice, type StoredVoice } from './voice-store';
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
      expect(store.get('v-aaaaaaaaaaaa')).toEqual(clone('v-aaaaaaaaaaaa', 'Anna', 1));
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

    it('is migration 5 and refuses a database below it', () => {
      expect(LIBRARY_MIGRATIONS[SAVED_VOICES_MIGRATION_VERSION - 1]).toMatchObject({ version: 5, name: 'saved-voices' });
      const old = openLibraryDb(tempDir(), LIBRARY_MIGRATIONS.slice(0, 4), { loaders: [loaderFor(name)] });
      expect(() => new VoiceStore(old.db)).toThrow(/schema version 4 but saved voices need version 5/);
      old.dispose();
    });
  });
}
