/**
 * The voice library of the studio contract: voices the user made and named — cloned from a clip
 * (a Base checkpoint's speaker embedding, and later its in-context codes) or designed from a
 * description (a VoiceDesign checkpoint) — used wherever a built-in speaker name is. Types,
 * channel names and the one rule for naming a saved voice in a request (findSavedVoice); the store
 * is src-main/library/voice-store.ts.
 */
import type { ClonePrompt } from '../voice-clone';

export const VOICE_CHANNELS = Object.freeze({
  listSavedVoices: 'studio:voices.list',
  cloneVoice: 'studio:voices.clone',
  designVoice: 'studio:voices.design',
  renameVoice: 'studio:voices.rename',
  deleteVoice: 'studio:voices.delete',
  addVoiceSample: 'studio:voices.addSample',
  useVoiceSample: 'studio:voices.useSample',
} as const);

export type SavedVoiceKind = 'clone' | 'design';

/** What makes a cloned voice speak: the clone prompt of src-shared/voice-clone.ts ('xvector' or 'icl'). */
export type VoiceClonePrompt = ClonePrompt;

/** The reference clip a cloned voice was made from, as copied into the data folder. */
export interface SavedVoiceClip {
  /** The file name the user's clip had (display only). */
  originalName: string;
  /** File name under <data>/library/voices/ (the clip's own bytes, any format). */
  fileName: string;
  sizeBytes: number;
  /** Seconds of sound the voice was made from, after trimming. */
  durationMs: number;
}

/** One reference sample of a cloned voice: a clip and what the clip checks said of it. */
export interface SavedVoiceSample {
  /** 's-' and 8 hex digits, or 's-0' for the clip a voice saved before samples was made from. */
  sampleId: string;
  clip: SavedVoiceClip;
  cloneMode: VoiceClonePrompt['mode'];
  warnings: string[];
  addedAtMs: number;
}

/** A saved voice as every client sees it (no embeddings, no local paths). */
export interface SavedVoice {
  /** 'v-' and 12 hex digits; stable across renames. The API's `voice` accepts it. */
  id: string;
  /** Unique (case-insensitively) among saved voices; SSML <voice name> and the CLI use it. */
  name: string;
  kind: SavedVoiceKind;
  createdAtMs: number;
  /** The model it was made with (ModelInfo.id, kind and size); a clone speaks only on a Base model of that size. */
  model: { id: string; kind: string; size: string };
  /** design: the VoiceDesign description. */
  description: string | null;
  /** clone: the clone mode and the source clip. */
  cloneMode: VoiceClonePrompt['mode'] | null;
  clip: SavedVoiceClip | null;
  /** What the clip checks said when the voice was made (short, clipped). */
  warnings: string[];
  /**
   * clone: every reference sample the voice keeps, oldest first; `clip`, `cloneMode` and `warnings`
   * above are the active one's. Absent from a client older than samples: one sample, the clip.
   */
  samples?: SavedVoiceSample[];
  /** clone: which sample the voice speaks with. */
  activeSampleId?: string;
}

/** The model a voice needs, per kind: the checkpoint type to pull when the active model cannot. */
export const VOICE_MODEL_KINDS: { readonly [K in SavedVoiceKind]: { kind: string; pull: string } } = Object.freeze({
  clone: { kind: 'base', pull: 'Qwen3-TTS-12Hz-0.6B-Base or Qwen3-TTS-12Hz-1.7B-Base' },
  design: { kind: 'voice_design', pull: 'Qwen3-TTS-12Hz-1.7B-VoiceDesign' },
});

/** Longest voice name; names are letters, digits, spaces and . _ ' - and start with a letter or digit. */
export const MAX_VOICE_NAME_CHARS = 64;
export const VOICE_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u;
export const VOICE_ID_PATTERN = /^v-[0-9a-f]{12}$/;

export interface VoicesApi {
  [VOICE_CHANNELS.listSavedVoices]: { request: Record<string, never>; response: SavedVoice[] };
  /**
   * Clones the voice of a clip with the loaded Base model and saves it. The clip is `audio` (its
   * file's bytes, uploaded) or `path` (a file the user picked in the import dialog or dropped, which
   * main has granted); `originalName` is shown in the list. With `refText` (what the clip says) the
   * voice is cloned in-context ('icl', the official default; more faithful), else from the x-vector alone.
   */
  [VOICE_CHANNELS.cloneVoice]: { request: { name: string; audio?: Uint8Array; path?: string; originalName?: string; refText?: string }; response: SavedVoice };
  /** Saves a VoiceDesign description as a named voice (the loaded model must be VoiceDesign). */
  [VOICE_CHANNELS.designVoice]: { request: { name: string; description: string }; response: SavedVoice };
  [VOICE_CHANNELS.renameVoice]: { request: { id: string; name: string }; response: SavedVoice };
  [VOICE_CHANNELS.deleteVoice]: { request: { id: string }; response: { deleted: boolean } };
  /** Adds another reference sample to a cloned voice (cloned with the loaded Base model, which must fit the voice); the active sample stays. */
  [VOICE_CHANNELS.addVoiceSample]: { request: { id: string; audio?: Uint8Array; path?: string; originalName?: string; refText?: string }; response: SavedVoice };
  /** Makes one of a cloned voice's samples the one it speaks with. */
  [VOICE_CHANNELS.useVoiceSample]: { request: { id: string; sampleId: string }; response: SavedVoice };
}

export interface VoicesEvents {}

/**
 * What main hands the engine host with a request that names saved voices (SynthesisRequest.savedVoices):
 * enough to speak, nothing to show. Clients never send it; main fills it in from the library.
 */
export interface SavedVoiceConditioning {
  id: string;
  name: string;
  kind: SavedVoiceKind;
  /** The model kind and size it was made with. */
  modelKind: string;
  modelSize: string;
  /** clone */
  prompt?: VoiceClonePrompt;
  /** design */
  description?: string;
}

/**
 * The saved voice a request's voice names: by id, else by name in any case; null for ''. The one
 * match the HTTP API, the services (which voices to attach) and the engine host (per turn) all use.
 */
export function findSavedVoice<V extends { id: string; name: string }>(voice: string, saved: readonly V[] | undefined): V | null {
  if (!saved || voice === '') return null;
  const key = voice.toLowerCase();
  return saved.find((v) => v.id === voice) ?? saved.find((v) => v.name.toLowerCase() === key) ?? null;
}
