/**
 * The voice library: saves cloned voices (the Base model's speaker embedding, with the source clip
 * copied beside the database) and designed voices (a VoiceDesign description) under a unique name,
 * lists, renames and deletes them, keeps several reference samples per cloned voice (one speaks), and
 * hands the engine host what a request's saved voices need. Layout: rows in
 * <dataDir>/library/library.sqlite, clips in <dataDir>/library/voices/<id>.<ext> (more samples: <id>-<sample>.<ext>).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import {
  findSavedVoice,
  MAX_VOICE_NAME_CHARS,
  VOICE_ID_PATTERN,
  VOICE_MODEL_KINDS,
  VOICE_NAME_PATTERN,
  type SavedVoice,
  type SavedVoiceConditioning,
  type SavedVoiceKind,
} from '../../src-shared/contract/voices';
import type { ModelInfo, SynthesisRequest } from '../../src-shared/synthesis';
import type { ClonePrompt } from '../../src-shared/voice-clone';
import { readVoiceDescriptors } from '../engine/list-voices';
import { defaultOpenAiVoiceMap } from '../api/openai-voices';
import { sniffAudioContainer } from '../audio/reference-audio';
import type { LibraryDb } from '../library/library-db';
import { FIRST_SAMPLE_ID, VoiceStore, conditioningOf, publicVoice, type StoredSample, type StoredVoice } from '../library/voice-store';
import { modelSizeLabel, modelTypeLabel } from '../../src-shared/model-labels';

export interface VoiceLibraryOptions {
  dataDir: string;
  libraryDb: LibraryDb;
  /** Names a saved voice may not take: the speakers and aliases requests already use (ryan, alloy, …). */
  reservedNames?: readonly string[];
  nowMs?: () => number;
}

/** What the engine host made of a clip (HostMethods.makeVoice). */
export type MakeVoice = (audio: Uint8Array, refText?: string) => Promise<{ prompt: ClonePrompt; durationMs: number; warnings: string[] }>;

export interface NewClonedVoice {
  name: string;
  audio: Uint8Array;
  originalName: string;
  /** What the clip says: clones in-context ('icl'); absent, from the x-vector alone. */
  refText?: string;
}

const newVoiceId = () => `v-${randomBytes(6).toString('hex')}`;
const newSampleId = () => `s-${randomBytes(4).toString('hex')}`;
const clipExtension = (audio: Uint8Array) => {
  const container = sniffAudioContainer(audio);
  return container === 'mp4' || container === null ? 'bin' : container;
};

/** Writes `bytes` next to `file`, flushes it to disk, then renames it into place: a crash leaves the old file or none. */
async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

export class VoiceLibraryService {
  private readonly store: VoiceStore;
  private readonly voicesDir: string;
  private readonly reserved: Set<string>;
  private readonly nowMs: () => number;

  constructor(options: VoiceLibraryOptions) {
    this.voicesDir = path.join(options.dataDir, 'library', 'voices');
    mkdirSync(this.voicesDir, { recursive: true });
    this.store = new VoiceStore(options.libraryDb.db);
    this.reserved = new Set((options.reservedNames ?? []).map((n) => n.toLowerCase()));
    this.nowMs = options.nowMs ?? Date.now;
  }

  clipPath(voice: Pick<SavedVoice, 'clip'>): string | null {
    return voice.clip ? path.join(this.voicesDir, voice.clip.fileName) : null;
  }

  list(): SavedVoice[] {
    return this.store.list().map(publicVoice);
  }

  get(id: string): SavedVoice {
    return publicVoice(this.stored(id));
  }

  /** A voice by id or name (case-insensitive), or null. */
  find(idOrName: string): SavedVoice | null {
    const v = this.store.find(idOrName);
    return v ? publicVoice(v) : null;
  }

  /** What each saved voice needs to speak, for a request that may name any of them (SSML may name several). */
  conditioning(): SavedVoiceConditioning[] {
    return this.store.list().map(conditioningOf);
  }

  /** Trimmed and checked: a name SSML, the CLI and the API can all say. */
  checkName(raw: string, exceptId: string | null = null): string {
    const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
    if (name.length === 0 || name.length > MAX_VOICE_NAME_CHARS || !VOICE_NAME_PATTERN.test(name)) {
      throw new StudioError('invalid-argument', `voice name '${raw.slice(0, 80)}' is not usable; give 1–${MAX_VOICE_NAME_CHARS} letters, digits, spaces or . _ ' - starting with a letter or digit`, {
        field: 'name',
        value: raw.slice(0, 80),
      });
    }
    if (VOICE_ID_PATTERN.test(name) || this.reserved.has(name.toLowerCase())) {
      throw new StudioError('invalid-argument', `'${name}' already names a built-in voice or a voice id; pick another name`, { field: 'name', value: name });
    }
    const taken = this.store.find(name);
    if (taken && taken.id !== exceptId) throw new StudioError('invalid-argument', `a saved voice is already called '${taken.name}'; pick another name or rename that one first`, { field: 'name', value: name });
    return name;
  }

  /** Clones the clip's voice with the loaded Base model and saves it with a copy of the clip. */
  async clone(input: NewClonedVoice, model: ModelInfo | null, makeVoice: MakeVoice): Promise<SavedVoice> {
    const name = this.checkName(input.name);
    requireModel('clone', model);
    const refText = input.refText?.trim() || undefined;
    const made = await makeVoice(input.audio, refText); // decodes and checks the clip; refuses bad audio
    const id = newVoiceId();
    const fileName = `${id}.${clipExtension(input.audio)}`;
    const file = path.join(this.voicesDir, fileName);
    await writeFileAtomic(file, input.audio);
    const voice: StoredVoice = {
      id,
      name,
      kind: 'clone',
      createdAtMs: this.nowMs(),
      model: { id: model!.id, kind: model!.kind, size: model!.size },
      description: null,
      cloneMode: made.prompt.mode,
      clip: { originalName: input.originalName.slice(0, 255), fileName, sizeBytes: input.audio.byteLength, durationMs: Math.round(made.durationMs) },
      warnings: made.warnings,
      prompt: made.prompt,
    };
    voice.storedSamples = [{ sampleId: FIRST_SAMPLE_ID, clip: voice.clip!, cloneMode: made.prompt.mode, warnings: made.warnings, addedAtMs: voice.createdAtMs, prompt: made.prompt }];
    voice.activeSampleId = FIRST_SAMPLE_ID;
    try {
      this.store.insert(voice);
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    return publicVoice(voice);
  }

  /** Saves a VoiceDesign description under a name. */
  design(input: { name: string; description: string }, model: ModelInfo | null): SavedVoice {
    const name = this.checkName(input.name);
    requireModel('design', model);
    const description = input.description.trim().replace(/\s+/g, ' ');
    if (description.length === 0) throw new StudioError('invalid-argument', 'the voice description is empty; describe the voice, e.g. "a calm elderly woman with a low, warm voice"', { field: 'description' });
    const voice: StoredVoice = {
      id: newVoiceId(),
      name,
      kind: 'design',
      createdAtMs: this.nowMs(),
      model: { id: model!.id, kind: model!.kind, size: model!.size },
      description,
      cloneMode: null,
      clip: null,
      warnings: [],
      prompt: null,
    };
    this.store.insert(voice);
    return publicVoice(voice);
  }

  rename(id: string, rawName: string): SavedVoice {
    this.stored(id);
    const name = this.checkName(rawName, id);
    const renamed = this.store.rename(id, name);
    if (!renamed) throw notFound(id);
    return publicVoice(renamed);
  }

  /**
   * Clones another clip of the same voice with the loaded Base model (which must be the kind and size
   * the voice was made with) and keeps it as one more sample; the sample the voice speaks with stays.
   */
  async addSample(id: string, input: Omit<NewClonedVoice, 'name'>, model: ModelInfo | null, makeVoice: MakeVoice): Promise<SavedVoice> {
    const voice = this.stored(id);
    if (voice.kind !== 'clone' || !voice.storedSamples) throw new StudioError('invalid-argument', `${voice.name} is a designed voice; only cloned voices keep reference samples`, { field: 'id', value: id });
    requireModel('clone', model);
    if (model!.size !== voice.model.size) {
      throw new StudioError('unsupported', `${voice.name} was cloned with a ${modelSizeLabel(voice.model.size)} Base model but the loaded one is ${modelSizeLabel(model!.size)}; load a ${modelSizeLabel(voice.model.size)} Base model to add a sample`, { field: 'model', validValues: [voice.model.size] });
    }
    const made = await makeVoice(input.audio, input.refText?.trim() || undefined);
    const sampleId = newSampleId();
    const fileName = `${id}-${sampleId}.${clipExtension(input.audio)}`;
    const file = path.join(this.voicesDir, fileName);
    await writeFileAtomic(file, input.audio);
    const sample: StoredSample = {
      sampleId,
      clip: { originalName: input.originalName.slice(0, 255), fileName, sizeBytes: input.audio.byteLength, durationMs: Math.round(made.durationMs) },
      cloneMode: made.prompt.mode,
      warnings: made.warnings,
      addedAtMs: this.nowMs(),
      prompt: made.prompt,
    };
    const updated = this.store.setSamples(id, [...voice.storedSamples, sample], voice.activeSampleId ?? voice.storedSamples[0].sampleId);
    if (!updated) {
      await rm(file, { force: true });
      throw notFound(id);
    }
    return publicVoice(updated);
  }

  /** Makes `sampleId` the sample the voice speaks with. */
  useSample(id: string, sampleId: string): SavedVoice {
    const voice = this.stored(id);
    const updated = this.store.setSamples(id, voice.storedSamples ?? [], sampleId);
    if (!updated) throw notFound(id);
    return publicVoice(updated);
  }

  /** Deletes the row, then its clips (a crash in between leaves only unreferenced files). */
  async delete(id: string): Promise<boolean> {
    const voice = this.store.get(id);
    if (!voice) return false;
    const deleted = this.store.delete(id);
    const clips = voice.storedSamples?.map((x) => x.clip) ?? (voice.clip ? [voice.clip] : []);
    for (const clip of clips) {
      const file = this.clipPath({ clip });
      if (file) await rm(file, { force: true });
    }
    return deleted;
  }

  private stored(id: string): StoredVoice {
    const v = this.store.get(id);
    if (!v) throw notFound(id);
    return v;
  }
}

/** Names a saved voice may not take: the official speakers and the OpenAI voice names the API maps. */
export function defaultReservedVoiceNames(): string[] {
  return [...Object.keys(readVoiceDescriptors()), ...Object.keys(defaultOpenAiVoiceMap())];
}

/**
 * The saved voices a request may speak in: plain text, the one its voice names (id or name); SSML,
 * also those the document mentions (a cheap text match; the parser decides which it really names).
 */
export function selectSavedVoices(all: readonly SavedVoiceConditioning[], req: Pick<SynthesisRequest, 'input' | 'inputFormat' | 'voice'>): SavedVoiceConditioning[] {
  const named = findSavedVoice(req.voice, all);
  if (req.inputFormat !== 'ssml') return named ? [named] : [];
  const text = req.input.toLowerCase();
  return all.filter((v) => v === named || text.includes(v.name.toLowerCase()) || text.includes(v.id));
}

function notFound(id: string): StudioError {
  return new StudioError('not-found', `saved voice ${id.slice(0, 64)} is not in the library; it may have been deleted — refresh the list`, { id: id.slice(0, 64) });
}

/** The loaded model must be the kind the voice needs; the error names the checkpoint to pull. */
export function requireModel(kind: SavedVoiceKind, model: ModelInfo | null): void {
  const need = VOICE_MODEL_KINDS[kind];
  if (model?.kind === need.kind) return;
  const action = kind === 'clone' ? 'Cloning a voice from a clip' : 'Designing a voice from a description';
  throw new StudioError('unsupported', `${action} needs a ${kind === 'clone' ? 'Base' : 'VoiceDesign'} model but the loaded one is ${model ? modelTypeLabel(model.kind, model.size) : 'none'}; pull ${need.pull} on the Models page (or studio model pull) and use it`, {
    field: 'model',
    validValues: [need.kind],
  });
}
