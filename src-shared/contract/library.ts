/**
 * The library service of the studio contract: every generated clip with what made it (text,
 * voice, parameters, seed, timings, model hash) and its audio. Clips live in SQLite in the user
 * data folder with one WAV file each beside the database. Types and channel names only.
 */
import type { SamplingParams, SynthesisTimings } from '../synthesis';

export const LIBRARY_CHANNELS = Object.freeze({
  listClips: 'studio:library.listClips',
  saveClip: 'studio:library.saveClip',
  getClip: 'studio:library.getClip',
  readClipAudio: 'studio:library.readClipAudio',
  deleteClip: 'studio:library.deleteClip',
  updateClip: 'studio:library.updateClip',
} as const);

/** What the caller knows about a clip when it stores one. */
export interface NewClip {
  title: string;
  input: string;
  inputFormat: 'text' | 'ssml';
  voice: string;
  language: string;
  seed: number;
  instruct: string | null;
  params: SamplingParams;
  modelHash: string;
  timings: SynthesisTimings;
  sampleRateHz: number;
  /** Turn boundaries in samples, as SynthesisResult.turnSpans, with the voice each turn was made in (absent in clips stored before). */
  turnSpans: { turnIndex: number; startSample: number; endSample: number; voice?: string }[];
  /** Every voice the clip speaks in (SSML turns); absent: only `voice`. The voice filter finds the clip by each. */
  voices?: string[];
  /**
   * This clip is a take of one turn of another clip (a regenerated turn): the Library lists it
   * under that clip's entry, not as a clip of its own. Absent: a clip of its own.
   */
  takeOf?: TakeOf;
}

export interface TakeOf {
  clipId: string;
  turnIndex: number;
}

export interface ClipRecord extends Omit<NewClip, 'takeOf'> {
  id: string;
  createdAtMs: number;
  numSamples: number;
  durationMs: number;
  /** Every voice of the clip, `voice` first, no repeats. */
  voices: string[];
  favourite: boolean;
  takeOf: TakeOf | null;
  /** Takes stored under this clip (0 for a take). */
  numTakes: number;
  /** Turn index → the take clip chosen for it; a turn not listed uses the clip's own audio. */
  chosenTakes: Record<number, string>;
}

export interface ClipQuery {
  /** Case-insensitive substring of the title or the input text. */
  search?: string;
  /** Clips that speak in this voice in any turn. */
  voice?: string;
  language?: string;
  favouritesOnly?: boolean;
  limit?: number;
  /** The takes of this clip (oldest first) instead of the clips; other filters apply to them too. */
  takesOf?: string;
}

export interface LibraryApi {
  [LIBRARY_CHANNELS.listClips]: { request: ClipQuery; response: ClipRecord[] };
  /**
   * Stores a clip (or, with clip.takeOf, a take under its clip's entry). The audio is `pcm`, or — to keep large audio off the wire — the result of a
   * recent studio:tts.synthesize call by the same host, named by its requestId.
   */
  [LIBRARY_CHANNELS.saveClip]: { request: { clip: NewClip; pcm?: Float32Array; fromRequestId?: string }; response: ClipRecord };
  [LIBRARY_CHANNELS.getClip]: { request: { id: string }; response: ClipRecord };
  [LIBRARY_CHANNELS.readClipAudio]: { request: { id: string }; response: { sampleRateHz: number; pcm: Float32Array } };
  [LIBRARY_CHANNELS.deleteClip]: { request: { id: string }; response: { deleted: boolean } };
  /** Renames a clip, marks it a favourite, or chooses a turn's take (takeId null: the clip's own audio). */
  [LIBRARY_CHANNELS.updateClip]: { request: { id: string; title?: string; favourite?: boolean; chooseTake?: { turnIndex: number; takeId: string | null } }; response: ClipRecord };
}

export interface LibraryEvents {}
