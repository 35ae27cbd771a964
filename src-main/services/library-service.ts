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

const WAV_HEADER_BYTES = 44;
const WAVE_FORMAT_IEEE_FLOAT = 3;

/** RIFF/WAVE, mono, 32-bit IEEE float. */
function encodeFloatWav(pcm: Float32Array, sampleRateHz: number): Buffer {
  const dataBytes = pcm.length * 4;
  const out = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(WAVE_FORMAT_IEEE_FLOAT, 20);
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRateHz, 24);
  out.writeUInt32LE(sampleRateHz * 4, 28); // byte rate
  out.writeUInt16LE(4, 32); // block align
  out.writeUInt16LE(32, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).copy(out, WAV_HEADER_BYTES);
  return out;
}

function decodeFloatWav(bytes: Buffer, filePath: string): { sampleRateHz: number; pcm: Float32Array } {
  const ok = bytes.length >= WAV_HEADER_BYTES && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.readUInt16LE(20) === WAVE_FORMAT_IEEE_FLOAT;
  if (!ok) throw new StudioError('internal', `${filePath} is not a float WAV written by the library; delete the clip and generate it again`, { path: filePath });
  const numSamples = bytes.readUInt32LE(40) / 4;
  const pcm = new Float32Array(numSamples);
  Buffer.from(pcm.buffer).set(bytes.subarray(WAV_HEADER_BYTES, WAV_HEADER_BYTES + numSamples * 4));
  return { sampleRateHz: bytes.readUInt32LE(24), pcm };
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
    const record: ClipRecord = {
      ...clip,
      id: randomUUID(),
      createdAtMs: this.nowMs(),
      numSamples: pcm.length,
      durationMs: (pcm.length / clip.sampleRateHz) * 1000,
      voices: clipVoices(clip.voice, clip.voices),
      favourite: false,
    };
    const file = this.audioPath(record.id);
    await writeFile(`${file}.tmp`, encodeFloatWav(pcm, clip.sampleRateHz));
    await rename(`${file}.tmp`, file);
    this.store.insert(record);
    return record;
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

  updateClip(id: string, patch: { title?: string; favourite?: boolean }): ClipRecord {
    const updated = this.store.update(id, patch);
    if (!updated) throw new StudioError('not-found', `clip ${id} is not in the library; it may have been deleted — refresh the list`, { id });
    return updated;
  }

  async deleteClip(id: string): Promise<boolean> {
    const deleted = this.store.delete(id);
    await rm(this.audioPath(id), { force: true });
    return deleted;
  }

  dispose(): void {
    this.libraryDb.dispose();
  }
}
