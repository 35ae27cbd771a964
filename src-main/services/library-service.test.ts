// Library service: clips round-trip through SQLite and float WAV files, search and filters, delete;
// takes of a turn live under their clip's entry (one entry per clip), are chosen per turn, and go with it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LibraryService } from './library-service';
import { encodeWav } from '../audio/wav-encode';
import { newClip } from '../library/testing/new-clip';
import { newClipSchema } from '../api/schemas';


describe('LibraryService', () => {
  let dir: string;
  let lib: LibraryService;
  let clock = 1_000;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lib-'));
    lib = new LibraryService({ dataDir: dir, nowMs: () => clock++ });
  });
  afterEach(() => {
    lib.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps each turn's voice stored with its span, so a re-open names every speaker", async () => {
    const turnSpans = [
      { turnIndex: 0, startSample: 0, endSample: 2, voice: 'ryan' },
      { turnIndex: 1, startSample: 2, endSample: 4, voice: 'vivian' },
    ];
    const rec = await lib.saveClip(newClip({ inputFormat: 'ssml', turnSpans, voices: ['ryan', 'vivian'] }), new Float32Array(4));
    expect(lib.getClip(rec.id).turnSpans).toEqual(turnSpans);
    expect(newClipSchema.safeParse(newClip({ turnSpans })).success).toBe(true); // what the channel accepts
  });

  it('stores a clip with its metadata and reads back the exact samples', async () => {
    const pcm = new Float32Array([0, 0.5, -0.25, 1]);
    const rec = await lib.saveClip(newClip(), pcm);
    // 4 samples at 24 kHz = 4 / 24000 s = 0.1667 ms
    expect(rec.durationMs).toBeCloseTo((4 / 24_000) * 1000, 9);
    expect(rec.numSamples).toBe(4);
    const file = lib.audioPath(rec.id);
    expect(existsSync(file)).toBe(true);
    const bytes = readFileSync(file);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.toString('ascii', 8, 12)).toBe('WAVE');
    expect(bytes.readUInt16LE(20)).toBe(3); // IEEE float
    expect(Buffer.from(bytes).equals(Buffer.from(encodeWav(pcm, 24_000, 'float32')))).toBe(true); // the one WAV writer: 58-byte header + 4 × 4
    const audio = await lib.readClipAudio(rec.id);
    expect(audio.sampleRateHz).toBe(24_000);
    expect(Array.from(audio.pcm)).toEqual([0, 0.5, -0.25, 1]);
    expect(lib.getClip(rec.id)).toEqual(rec);
  });

  it('reads back a clip written before the library used the shared writer (44-byte header, no fact chunk)', async () => {
    const rec = await lib.saveClip(newClip(), new Float32Array([0, 0.5, -0.25, 1]));
    const current = readFileSync(lib.audioPath(rec.id));
    // the old layout: a 16-byte fmt chunk straight followed by data
    const old = Buffer.alloc(44 + 16);
    current.copy(old, 0, 0, 36);
    old.writeUInt32LE(36 + 16, 4);
    old.writeUInt32LE(16, 16);
    old.write('data', 36, 'ascii');
    old.writeUInt32LE(16, 40);
    current.copy(old, 44, 58);
    writeFileSync(lib.audioPath(rec.id), old);
    expect(Array.from((await lib.readClipAudio(rec.id)).pcm)).toEqual([0, 0.5, -0.25, 1]);
  });

  it('lists newest first and filters by search text, voice and language', async () => {
    await lib.saveClip(newClip({ title: 'First', voice: 'ryan' }), new Float32Array(2));
    await lib.saveClip(newClip({ title: 'Second', input: 'Guten Tag', voice: 'vivian', language: 'german' }), new Float32Array(2));
    await lib.saveClip(newClip({ title: 'Third', input: 'plain words', voice: 'ryan' }), new Float32Array(2));
    expect(lib.listClips({}).map((c) => c.title)).toEqual(['Third', 'Second', 'First']);
    expect(lib.listClips({ search: 'guten' }).map((c) => c.title)).toEqual(['Second']);
    expect(lib.listClips({ voice: 'ryan' }).map((c) => c.title)).toEqual(['Third', 'First']);
    expect(lib.listClips({ language: 'german' }).map((c) => c.title)).toEqual(['Second']);
    expect(lib.listClips({ search: '50%' }).map((c) => c.title)).toEqual(['First']);
    // '%' is literal, not a LIKE wildcard: "5%o" would match "50% o" as a pattern but is not in any text
    expect(lib.listClips({ search: '5%o' })).toEqual([]);
    expect(lib.listClips({ limit: 1 }).map((c) => c.title)).toEqual(['Third']);
  });

  it('deletes the row and the audio file, and reports a missing clip as not-found', async () => {
    const rec = await lib.saveClip(newClip(), new Float32Array(3));
    expect(await lib.deleteClip(rec.id)).toBe(true);
    expect(existsSync(lib.audioPath(rec.id))).toBe(false);
    expect(await lib.deleteClip(rec.id)).toBe(false);
    expect(() => lib.getClip(rec.id)).toThrow(/not in the library/);
    await expect(lib.readClipAudio(rec.id)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('keeps clips across a reopen of the database', async () => {
    const rec = await lib.saveClip(newClip({ title: 'Persisted' }), new Float32Array([0.125]));
    lib.dispose();
    lib = new LibraryService({ dataDir: dir });
    expect(lib.listClips({}).map((c) => c.id)).toEqual([rec.id]);
    expect(Array.from((await lib.readClipAudio(rec.id)).pcm)).toEqual([0.125]);
  });

  it('keeps one entry per clip with its takes: a take files under its clip, becomes the chosen one, and is deleted with it', async () => {
    const spans = [{ turnIndex: 0, startSample: 0, endSample: 2 }, { turnIndex: 1, startSample: 2, endSample: 4 }];
    const clip = await lib.saveClip(newClip({ title: 'Story', turnSpans: spans }), new Float32Array(4));
    const take1 = await lib.saveClip(newClip({ title: 'Turn 2 take', voice: 'vivian', takeOf: { clipId: clip.id, turnIndex: 1 } }), new Float32Array([0.1, 0.2]));
    const take2 = await lib.saveClip(newClip({ title: 'Turn 2 take', takeOf: { clipId: take1.id, turnIndex: 1 } }), new Float32Array([0.3, 0.4]));
    expect(take2.takeOf).toEqual({ clipId: clip.id, turnIndex: 1 }); // a take of a take files under the first clip

    const entries = lib.listClips({});
    expect(entries.map((c) => c.id)).toEqual([clip.id]);
    expect(entries[0]).toMatchObject({ numTakes: 2, chosenTakes: { 1: take2.id } });
    expect(lib.listClips({ voice: 'vivian' }).map((c) => c.id)).toEqual([clip.id]); // found by its take's voice
    expect(lib.listClips({ takesOf: clip.id }).map((c) => c.id)).toEqual([take1.id, take2.id]);

    expect(lib.updateClip(clip.id, { chooseTake: { turnIndex: 1, takeId: take1.id } }).chosenTakes).toEqual({ 1: take1.id });
    expect(lib.updateClip(clip.id, { chooseTake: { turnIndex: 1, takeId: null } }).chosenTakes).toEqual({});
    expect(() => lib.updateClip(clip.id, { chooseTake: { turnIndex: 0, takeId: take1.id } })).toThrow(/is not a take of turn 1/);
    await expect(lib.saveClip(newClip({ takeOf: { clipId: clip.id, turnIndex: 5 } }), new Float32Array(2))).rejects.toThrow(/has no turn 6/);

    expect(await lib.deleteClip(clip.id)).toBe(true);
    expect(lib.listClips({ takesOf: clip.id })).toEqual([]);
    expect(existsSync(lib.audioPath(take1.id))).toBe(false);
    expect(existsSync(lib.audioPath(take2.id))).toBe(false);
  });

  it('forgets a deleted take as the choice of its clip', async () => {
    const clip = await lib.saveClip(newClip(), new Float32Array(4));
    const take = await lib.saveClip(newClip({ takeOf: { clipId: clip.id, turnIndex: 0 } }), new Float32Array(4));
    expect(lib.getClip(clip.id).chosenTakes).toEqual({ 0: take.id });
    await lib.deleteClip(take.id);
    expect(lib.getClip(clip.id)).toMatchObject({ chosenTakes: {}, numTakes: 0 });
  });
});
