/**
 * Speak's take history across reloads and crashes: the takes' facts (not their audio, which the
 * Library holds) in localStorage under a versioned key, written as soon as the history changes (a
 * take is seconds of work, so none waits on a timer), read back at start when it passes the checks;
 * an unreadable value is dropped. The session's own key (app/session-persist.ts) is left alone.
 */
import type { SamplingParams } from '../../../src-shared/synthesis';
import { readStoredJson } from '../../components/stored-json';
import type { SpeakTake } from './speak-takes';
import type { SpeakSlice } from './speak.slice';

export const SPEAK_TAKES_STORAGE_KEY = 'qwen3-tts-studio.speak-takes';
export const SPEAK_TAKES_VERSION = 1;
const MAX_TEXT_CHARS = 1_048_576;

export interface SpeakTakesSnapshot {
  version: typeof SPEAK_TAKES_VERSION;
  nextSpeakTakeNumber: number;
  takes: SpeakTake[];
}

// Checked by hand rather than with zod, as the session is: this runs on the first page.
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = MAX_TEXT_CHARS): v is string => typeof v === 'string' && v.length <= max;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function parseUsed(v: unknown): SpeakTake['used'] | null {
  if (!isObject(v)) return null;
  const ok =
    typeof v.doSample === 'boolean' && isNum(v.temperature) && isNum(v.topK) && isNum(v.topP) && isNum(v.repetitionPenalty) &&
    typeof v.subtalkerDoSample === 'boolean' && isNum(v.subtalkerTemperature) && isNum(v.subtalkerTopK) && isNum(v.subtalkerTopP) && isNum(v.maxNewTokens) &&
    isCount(v.seed) && isText(v.voice, 256) && isText(v.language, 64);
  if (!ok) return null;
  const params: SamplingParams = {
    doSample: v.doSample as boolean,
    temperature: v.temperature as number,
    topK: v.topK as number,
    topP: v.topP as number,
    repetitionPenalty: v.repetitionPenalty as number,
    subtalkerDoSample: v.subtalkerDoSample as boolean,
    subtalkerTemperature: v.subtalkerTemperature as number,
    subtalkerTopK: v.subtalkerTopK as number,
    subtalkerTopP: v.subtalkerTopP as number,
    maxNewTokens: v.maxNewTokens as number,
  };
  return { ...params, seed: v.seed as number, voice: v.voice as string, language: v.language as string };
}

function parseTake(v: unknown): SpeakTake | null {
  if (!isObject(v)) return null;
  const used = parseUsed(v.used);
  const ok =
    used !== null && isText(v.takeId, 256) && (v.takeId as string).length > 0 && isCount(v.takeNumber) && (v.takeNumber as number) > 0 && isNum(v.createdAtMs) &&
    isText(v.input) && (v.inputFormat === 'text' || v.inputFormat === 'ssml') && isText(v.instruct) && (v.modelId === null || isText(v.modelId, 4096)) &&
    isCount(v.sampleRateHz) && isNum(v.durationMs) && isNum(v.rtf) && typeof v.kept === 'boolean';
  if (!ok) return null;
  return {
    takeId: v.takeId as string,
    takeNumber: v.takeNumber as number,
    createdAtMs: v.createdAtMs as number,
    input: v.input as string,
    inputFormat: v.inputFormat as 'text' | 'ssml',
    instruct: v.instruct as string,
    used,
    modelId: v.modelId as string | null,
    sampleRateHz: v.sampleRateHz as number,
    durationMs: v.durationMs as number,
    rtf: v.rtf as number,
    kept: v.kept as boolean,
  };
}

/** The stored value as a history, or null when it is of another version or any take fails the checks. */
export function parseSpeakTakes(v: unknown): SpeakTakesSnapshot | null {
  if (!isObject(v) || v.version !== SPEAK_TAKES_VERSION || !isCount(v.nextSpeakTakeNumber) || !Array.isArray(v.takes)) return null;
  const takes = v.takes.map(parseTake);
  if (takes.some((t) => t === null)) return null;
  return { version: SPEAK_TAKES_VERSION, nextSpeakTakeNumber: v.nextSpeakTakeNumber as number, takes: takes as SpeakTake[] };
}

export function readSpeakTakes(storage: Storage): SpeakTakesSnapshot | null {
  return readStoredJson(storage, SPEAK_TAKES_STORAGE_KEY, parseSpeakTakes);
}

interface StoreLike {
  getState(): SpeakSlice;
  subscribe(listener: (s: SpeakSlice, prev: SpeakSlice) => void): () => void;
}

/** Restores the stored history into `store` (if valid), then writes it on every change; returns the stop function. */
export function startSpeakTakesPersistence(store: StoreLike, storage: Storage): { restored: SpeakTakesSnapshot | null; stop: () => void } {
  const restored = readSpeakTakes(storage);
  if (restored) store.getState().restoreSpeakTakes(restored.takes, restored.nextSpeakTakeNumber);
  const write = (s: SpeakSlice) => {
    const snapshot: SpeakTakesSnapshot = { version: SPEAK_TAKES_VERSION, nextSpeakTakeNumber: s.nextSpeakTakeNumber, takes: s.speakTakes };
    try {
      storage.setItem(SPEAK_TAKES_STORAGE_KEY, JSON.stringify(snapshot));
    } catch {
      // storage full or disabled: the takes stay in the Library, only the list is not kept
    }
  };
  const stop = store.subscribe((s, prev) => {
    if (s.speakTakes !== prev.speakTakes || s.nextSpeakTakeNumber !== prev.nextSpeakTakeNumber) write(s);
  });
  return { restored, stop };
}
