/**
 * The library service: stores every generated clip (metadata in the clips table, audio as a
 * 32-bit float WAV beside the database), lists and searches them, reads audio back and deletes.
 * Layout: <dataDir>/library/library.sqlite (shared with bench runs) and <dataDir>/library/clips/<id>.wav.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { ClipQuery, ClipRecord, NewClip } from '../../src-shared/contract/library';
import { ClipStore, clipVoices } from '../library/clip-store';
import { openLibraryDb, type LibraryDb } from '../library/library-db';
import type { SqliteBackendLoader } from '../library/open-sqlite';
import { encodeWav } from '../audio/wav-encode';
import { readWavLayout, type WavLayout } from '../audio/wav-read';

/** Reads a clip's audio back: mono 32-bit float WAV (wav-encode.ts writes it; files from before issue 36 lack the fact chunk). */
function decodeFloatWav(bytes: Buffer, filePath: string): { sampleRateHz: number; pcm: Float32Array } {
  const notOurs = () => new StudioError('internal', `${filePath} is not a float WAV written by the library; delete the clip and generate it again`, { path: filePath });
  let layout: WavLayout;
  try {
    layout = readWavLayout(bytes);
  } catch {
    throw notOurs();
  }
  if (layout.sampleKind !== 'float' || layout.bitsPerSample !== 32 || layout.numChannels !== 1) throw notOurs();
  const pcm = new Float32Array(layout.numFrames);
  Buffer.from(pcm.buffer).set(bytes.subarray(layout.dataOffset, layout.dataOffset + layout.numFrames * 4));
  return { sampleRateHz: layout.sampleRateHz, pcm };
}

export interface LibraryServiceOptions {
  dataDir: string;
  nowMs?: () => number;
  /** SQLite backends to try, in order; default: the runtime's order. */
  sqliteLoaders?: readonly SqliteBackendLoader[];
}

export class LibraryService {
  readonly libraryDb: LibraryDb;
  private readonly store: ClipStore;
  private readonly clipsDir: string;
  private readonly nowMs: () => number;

  constructor(options: LibraryServiceOptions) {
    const libraryDir = path.join(options.dataDir, 'library');
    this.clipsDir = path.join(libraryDir, 'clips');
    mkdirSync(this.clipsDir, { recursive: true });
    this.libraryDb = openLibraryDb(libraryDir, undefined, { loaders: options.sqliteLoaders });
    this.store = new ClipStore(this.libraryDb.db);
    this.nowMs = options.nowMs ?? Date.now;
  }

  audioPath(id: string): string {
    return path.join(this.clipsDir, `${id}.wav`);
  }

  async saveClip(clip: NewClip, pcm: Float32Array): Promise<ClipRecord> {
    const takeOf = clip.takeOf ? this.takeParent(clip.takeOf) : null;
    const record: ClipRecord = {
      ...clip,
      takeOf,
      numTakes: 0,
      chosenTakes: {},
      id: randomUUID(),
      createdAtMs: this.nowMs(),
      numSamples: pcm.length,
      durationMs: (pcm.length / clip.sampleRateHz) * 1000,
      voices: clipVoices(clip.voice, clip.voices),
      favourite: false,
    };
    const file = this.audioPath(record.id);
    await writeFile(`${file}.tmp`, encodeWav(pcm, clip.sampleRateHz, 'float32'));
    await rename(`${file}.tmp`, file);
    this.store.insert(record);
    if (takeOf) {
      this.store.addVoices(takeOf.clipId, record.voices);
      this.store.chooseTake(takeOf.clipId, takeOf.turnIndex, record.id);
    }
    return record;
  }

  /** A take's entry is a clip of its own (a take of a take files under the first clip) with that turn. */
  private takeParent(takeOf: { clipId: string; turnIndex: number }): { clipId: string; turnIndex: number } {
    let parent = this.getClip(takeOf.clipId);
    if (parent.takeOf) parent = this.getClip(parent.takeOf.clipId);
    if (!parent.turnSpans.some((t) => t.turnIndex === takeOf.turnIndex)) {
      throw new StudioError('invalid-argument', `clip ${parent.id} has no turn ${takeOf.turnIndex + 1} (it has ${parent.turnSpans.length}); a take belongs to one of its turns`, { field: 'clip.takeOf.turnIndex', value: String(takeOf.turnIndex) });
    }
    return { clipId: parent.id, turnIndex: takeOf.turnIndex };
  }

  listClips(query: ClipQuery): ClipRecord[] {
    return this.store.list(query);
  }

  getClip(id: string): ClipRecord {
    const clip = this.store.get(id);
    if (!clip) throw new StudioError('not-found', `clip ${id} is not in the library; it may have been deleted — refresh the list`, { id });
    return clip;
  }

  async readClipAudio(id: string): Promise<{ sampleRateHz: number; pcm: Float32Array }> {
    this.getClip(id);
    const file = this.audioPath(id);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw new StudioError('not-found', `the audio file of clip ${id} is missing at ${file}; delete the clip and generate it again`, { id, path: file });
    }
    return decodeFloatWav(bytes, file);
  }

  updateClip(id: string, patch: { title?: string; favourite?: boolean; chooseTake?: { turnIndex: number; takeId: string | null } }): ClipRecord {
    if (patch.chooseTake) {
      const clip = this.getClip(id);
      const { turnIndex, takeId } = patch.chooseTake;
      if (takeId !== null) {
        const take = this.getClip(takeId);
        if (take.takeOf?.clipId !== id || take.takeOf.turnIndex !== turnIndex) {
          throw new StudioError('invalid-argument', `clip ${takeId} is not a take of turn ${turnIndex + 1} of clip ${clip.id}`, { field: 'chooseTake.takeId', value: takeId });
        }
      }
      this.store.chooseTake(id, turnIndex, takeId);
    }
    const updated = this.store.update(id, { title: patch.title, favourite: patch.favourite });
    if (!updated) throw new StudioError('not-found', `clip ${id} is not in the library; it may have been deleted — refresh the list`, { id });
    return updated;
  }

  /** Deletes a clip with its takes (their audio files too). */
  async deleteClip(id: string): Promise<boolean> {
    const removed = this.store.deleteWithTakes(id);
    await Promise.all([id, ...removed].map((x) => rm(this.audioPath(x), { force: true })));
    return removed.length > 0;
  }

  dispose(): void {
    this.libraryDb.dispose();
  }
}
