/**
 * Speak's take history, pure parts: a take is one generation of the Speak screen (its clip in the
 * Library, the text, and the voice, seed and parameters the engine used). The newest comes first;
 * the list keeps the last MAX_SPEAK_TAKES, and kept takes are never dropped. A/B compare names two
 * takes of the list. No store, no DOM; speak.slice.ts holds the state.
 */
import type { SamplingParams } from '../../../src-shared/synthesis';

/** How many takes the history keeps (kept takes not dropped, so it may hold more when most are kept). */
export const MAX_SPEAK_TAKES = 50;

export interface SpeakTake {
  /** The Library clip id; the take's audio lives there. */
  takeId: string;
  /** 1, 2, 3… in the order the takes were made; never reused, so a name stays with its take. */
  takeNumber: number;
  createdAtMs: number;
  input: string;
  inputFormat: 'text' | 'ssml';
  instruct: string;
  /** What the engine reports it used, not what the form said. */
  used: SamplingParams & { seed: number; voice: string; language: string };
  modelId: string | null;
  sampleRateHz: number;
  durationMs: number;
  rtf: number;
  /** Kept takes survive the trim. */
  kept: boolean;
}

export interface SpeakCompare {
  takeIdA: string;
  takeIdB: string;
}

/**
 * `takes` (newest first) with only as many unkept takes as fit beside the kept ones in `max`,
 * the newest of them; every kept take stays.
 */
export function trimSpeakTakes(takes: readonly SpeakTake[], max = MAX_SPEAK_TAKES): SpeakTake[] {
  const numKept = takes.filter((t) => t.kept).length;
  let numUnkeptLeft = Math.max(0, max - numKept);
  return takes.filter((t) => {
    if (t.kept) return true;
    if (numUnkeptLeft === 0) return false;
    numUnkeptLeft--;
    return true;
  });
}

/** The compare pair still valid for `takes`: both takes present and different; else null. */
export function validCompare(compare: SpeakCompare | null, takes: readonly SpeakTake[]): SpeakCompare | null {
  if (!compare || compare.takeIdA === compare.takeIdB) return null;
  const has = (id: string) => takes.some((t) => t.takeId === id);
  return has(compare.takeIdA) && has(compare.takeIdB) ? compare : null;
}

/** The pair a new compare starts with: the newest take as B against the one before it as A; null with fewer than two. */
export function defaultCompare(takes: readonly SpeakTake[]): SpeakCompare | null {
  return takes.length >= 2 ? { takeIdA: takes[1].takeId, takeIdB: takes[0].takeId } : null;
}

/** A WAV file name for the take: its name, voice and seed ("take-3-aiden-seed42.wav"). */
export function speakTakeFileName(take: SpeakTake, voiceName: string): string {
  const voice = voiceName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'voice';
  return `take-${take.takeNumber}-${voice}-seed${take.used.seed}.wav`;
}
