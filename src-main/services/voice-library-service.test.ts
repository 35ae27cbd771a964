// The voice library service over a real library database and a fake speaker encoder: names are
// trimmed and checked (pattern, reserved, taken), a clone copies the clip's bytes beside the
// database only when the encoder accepted it, a design needs a VoiceDesign model and a description,
// and delete removes the row and every clip; a clone keeps more samples (on a Base model of its size)
// and speaks with the one picked.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { ModelInfo } from '../../src-shared/synthesis';
import { openLibraryDb, type LibraryDb } from '../library/library-db';
import { VoiceLibraryService, defaultReservedVoiceNames, selectSavedVoices } from './voice-library-service';

const BASE = { id: 'base-model', kind: 'base', size: '0b6' } as ModelInfo;
const DESIGN = { id: 'design-model', kind: 'voice_design', size: '1b7' } as ModelInfo;
const MP3 = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
const made = async (_audio: Uint8Array, refText?: string) => ({
  prompt: refText ? { mode: 'icl' as const, embedding: [0.5, 0.25], refCodes: [[1, 2]], refText } : { mode: 'xvector' as const, embedding: [0.5, 0.25] },
  durationMs: 5123.4,
  warnings: [],
});

const opened: { dir: string; db: LibraryDb }[] = [];
function service(): { voices: VoiceLibraryService; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voice-library-'));
  const db = openLibraryDb(path.join(dir, 'library'));
  opened.push({ dir, db });
  return { voices: new VoiceLibraryService({ dataDir: dir, libraryDb: db, reservedNames: defaultReservedVoiceNames(), nowMs: () => 7 }), dir };
}
afterEach(() => {
  for (const { dir, db } of opened.splice(0)) {
    db.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('VoiceLibraryService', () => {
  it('keeps another sample of a cloned voice, speaks with the one picked, and deletes every clip with the voice', async () => {
    const { voices, dir } = service();
    const v = await voices.clone({ name: 'Anna', audio: MP3, originalName: 'a.mp3' }, BASE, made);
    expect(v.samples).toEqual([{ sampleId: 's-0', clip: v.clip, cloneMode: 'xvector', warnings: [], addedAtMs: 7 }]);
    const more = await voices.addSample(v.id, { audio: MP3, originalName: 'b.mp3', refText: 'Hi there.' }, BASE, made);
    const added = more.samples![1];
    expect(added).toMatchObject({ cloneMode: 'icl', clip: { originalName: 'b.mp3', fileName: `${v.id}-${added.sampleId}.mp3` } });
    expect(more.activeSampleId).toBe('s-0'); // adding keeps what speaks
    expect(voices.conditioning()[0].prompt).toEqual({ mode: 'xvector', embedding: [0.5, 0.25] });
    expect(voices.useSample(v.id, added.sampleId)).toMatchObject({ activeSampleId: added.sampleId, clip: added.clip, cloneMode: 'icl' });
    expect(voices.conditioning()[0].prompt).toMatchObject({ mode: 'icl', refText: 'Hi there.' });
    expect(voices.list()[0].samples).toHaveLength(2);

    await expect(voices.addSample(v.id, { audio: MP3, originalName: 'c.mp3' }, { ...BASE, size: '1b7' }, made)).rejects.toThrow(/cloned with a 0.6B Base model but the loaded one is 1.7B/);
    const designed = voices.design({ name: 'Calm', description: 'calm' }, DESIGN);
    await expect(voices.addSample(designed.id, { audio: MP3, originalName: 'c.mp3' }, BASE, made)).rejects.toThrow(/only cloned voices keep reference samples/);
    expect(() => voices.useSample(v.id, 's-99999999')).toThrow(/has no sample/);

    expect(readdirSync(path.join(dir, 'library', 'voices')).sort()).toEqual([`${v.id}-${added.sampleId}.mp3`, `${v.id}.mp3`].sort());
    expect(await voices.delete(v.id)).toBe(true);
    expect(readdirSync(path.join(dir, 'library', 'voices'))).toEqual([]);
  });

  it('checks names: trims, refuses bad characters, ids, built-in speakers, OpenAI names and taken names', async () => {
    const { voices } = service();
    expect(voices.checkName('  Anna   Lee ')).toBe('Anna Lee');
    expect(voices.checkName("O'Brien-2.0 Zoë")).toBe("O'Brien-2.0 Zoë");
    for (const bad of ['', '   ', '<b>', '"quoted"', '-dash', 'x'.repeat(65), 'a/b']) expect(() => voices.checkName(bad)).toThrow(/is not usable/);
    for (const reserved of ['ryan', 'Vivian', 'alloy', 'v-0123456789ab']) expect(() => voices.checkName(reserved)).toThrow(/built-in voice or a voice id/);
    await voices.clone({ name: 'Anna', audio: MP3, originalName: 'a.mp3' }, BASE, made);
    expect(() => voices.checkName('ANNA')).toThrow(/already called 'Anna'/);
  });

  it('copies the clip only when the encoder accepted it', async () => {
    const { voices, dir } = service();
    const failing = async () => {
      throw new StudioError('invalid-argument', 'the reference clip is silent');
    };
    await expect(voices.clone({ name: 'Quiet', audio: MP3, originalName: 'q.mp3' }, BASE, failing)).rejects.toThrow(/silent/);
    expect(readdirSync(path.join(dir, 'library', 'voices'))).toEqual([]);
    const v = await voices.clone({ name: 'Anna', audio: MP3, originalName: 'a.mp3' }, BASE, made);
    expect(v).toMatchObject({ kind: 'clone', createdAtMs: 7, clip: { fileName: `${v.id}.mp3`, sizeBytes: MP3.length, durationMs: 5123 } });
    expect(new Uint8Array(readFileSync(path.join(dir, 'library', 'voices', `${v.id}.mp3`)))).toEqual(MP3);
    expect(readdirSync(path.join(dir, 'library', 'voices'))).toEqual([`${v.id}.mp3`]); // no temporary file left
    expect(voices.conditioning()[0].prompt).toEqual({ mode: 'xvector', embedding: [0.5, 0.25] });
    const icl = await voices.clone({ name: 'Icl', audio: MP3, originalName: 'a.mp3', refText: '  Hello there. ' }, BASE, made);
    expect(icl.cloneMode).toBe('icl');
    expect(voices.conditioning().find((c) => c.id === icl.id)!.prompt).toEqual({ mode: 'icl', embedding: [0.5, 0.25], refCodes: [[1, 2]], refText: 'Hello there.' });
    await expect(voices.clone({ name: 'Other', audio: MP3, originalName: 'a.mp3' }, DESIGN, made)).rejects.toThrow(/needs a Base model but the loaded one is VoiceDesign 1.7B/);
  });

  it('designs only on a VoiceDesign model and with a description', () => {
    const { voices } = service();
    expect(() => voices.design({ name: 'Calm', description: 'calm' }, BASE)).toThrow(/needs a VoiceDesign model but the loaded one is Base 0.6B; pull Qwen3-TTS-12Hz-1.7B-VoiceDesign/);
    expect(() => voices.design({ name: 'Calm', description: 'calm' }, null)).toThrow(/the loaded one is none/);
    expect(() => voices.design({ name: 'Calm', description: '   ' }, DESIGN)).toThrow(/description is empty/);
    expect(voices.design({ name: 'Calm', description: ' a  calm\nvoice ' }, DESIGN)).toMatchObject({ kind: 'design', description: 'a calm voice', model: { kind: 'voice_design', size: '1b7' } });
  });

  it('renames by id and deletes the row and the clip', async () => {
    const { voices, dir } = service();
    const v = await voices.clone({ name: 'Anna', audio: MP3, originalName: 'a.mp3' }, BASE, made);
    expect(voices.rename(v.id, 'anna')).toMatchObject({ id: v.id, name: 'anna' });
    expect(() => voices.rename('v-000000000000', 'X')).toThrow(/not in the library/);
    expect(await voices.delete(v.id)).toBe(true);
    expect(existsSync(path.join(dir, 'library', 'voices', `${v.id}.mp3`))).toBe(false);
    expect(voices.list()).toEqual([]);
  });

  it('selects the saved voices a request names', () => {
    const all = [
      { id: 'v-aaaaaaaaaaaa', name: 'Anna', kind: 'clone' as const, modelKind: 'base', modelSize: '0.6B' },
      { id: 'v-bbbbbbbbbbbb', name: 'Bob', kind: 'clone' as const, modelKind: 'base', modelSize: '0.6B' },
    ];
    expect(selectSavedVoices(all, { input: 'Bob says hi', inputFormat: 'text', voice: 'anna' }).map((v) => v.name)).toEqual(['Anna']);
    expect(selectSavedVoices(all, { input: '<speak><voice name="bob">x</voice></speak>', inputFormat: 'ssml', voice: 'v-aaaaaaaaaaaa' }).map((v) => v.name)).toEqual(['Anna', 'Bob']);
    expect(selectSavedVoices(all, { input: 'x', inputFormat: 'text', voice: 'ryan' })).toEqual([]);
  });
});
