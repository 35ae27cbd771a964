/**
 * The session a reload keeps: the open area, voice settings (voice, language, seed, parameters),
 * the Speak text, the Timeline document and which project it belongs to. Written to localStorage
 * under a versioned key (debounced, flushed when the page hides); read back at start only when it
 * passes the checks (parseSession), otherwise dropped. Timeline takes come back from the project's autosave.
 */
import { SSML_DIALECTS, type SamplingParams, type SsmlDialect } from '../../src-shared/synthesis';
import type { VoiceSettings } from '../../src-shared/contract/projects';
import { MAX_SEED } from '../../src-shared/sampling-limits';
import { AREAS, type Area } from './shell.slice';
import type { StudioState } from '../store/store';
import { createDebouncedTask } from '../components/debounced-task';
import { readStoredJson } from '../components/stored-json';

export const SESSION_STORAGE_KEY = 'qwen3-tts-studio.session';
export const SESSION_VERSION = 1;
export const SESSION_WRITE_DELAY_MS = 300;
const MAX_TEXT_CHARS = 1_048_576;

export interface SessionSnapshot {
  version: typeof SESSION_VERSION;
  area: Area;
  voiceSettings: VoiceSettings;
  speakText: string;
  speakFormat: 'text' | 'ssml';
  seedMode: 'keep' | 'random';
  editorText: string;
  editorFormat: 'text' | 'ssml';
  editorSsmlOptions: { dialect: SsmlDialect; lenient: boolean };
  projectId: string;
  projectName: string;
  projectPath: string | null;
}

// Checked by hand rather than with zod: this runs on the first page, whose weight has a budget.
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = MAX_TEXT_CHARS): v is string => typeof v === 'string' && v.length <= max;
const isOneOf = <T extends string>(v: unknown, list: readonly T[]): v is T => typeof v === 'string' && (list as readonly string[]).includes(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isOptional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);

function isSampling(v: unknown): v is SamplingParams {
  if (!isObject(v)) return false;
  const bool = (x: unknown) => typeof x === 'boolean';
  return (
    bool(v.doSample) && isNum(v.temperature) && isNum(v.topK) && isNum(v.topP) && isNum(v.repetitionPenalty) &&
    isOptional(v.subtalkerDoSample, bool) && isOptional(v.subtalkerTemperature, isNum) && isOptional(v.subtalkerTopK, isNum) &&
    isOptional(v.subtalkerTopP, isNum) && isOptional(v.maxNewTokens, isNum)
  );
}

function isVoiceSettings(v: unknown): v is VoiceSettings {
  if (!isObject(v)) return false;
  return (
    (v.modelId === null || isText(v.modelId, 4096)) && isText(v.voice, 256) && isText(v.language, 64) &&
    Number.isInteger(v.seed) && (v.seed as number) >= 0 && (v.seed as number) <= MAX_SEED &&
    (v.params === null || isSampling(v.params)) && isText(v.instruct) && isText(v.voiceDescription)
  );
}

/** The stored value as a session, or null when any field is missing or of the wrong kind. */
export function parseSession(v: unknown): SessionSnapshot | null {
  if (!isObject(v) || v.version !== SESSION_VERSION) return null;
  const o = v.editorSsmlOptions;
  const ok =
    isOneOf(v.area, AREAS) && isVoiceSettings(v.voiceSettings) && isText(v.speakText) && isOneOf(v.speakFormat, ['text', 'ssml'] as const) &&
    isOneOf(v.seedMode, ['keep', 'random'] as const) && isText(v.editorText) && isOneOf(v.editorFormat, ['text', 'ssml'] as const) &&
    isObject(o) && isOneOf(o.dialect, SSML_DIALECTS) && typeof o.lenient === 'boolean' &&
    isText(v.projectId, 256) && (v.projectId as string).length > 0 && isText(v.projectName, 1024) && (v.projectPath === null || isText(v.projectPath, 4096));
  if (!ok) return null;
  const voice = v.voiceSettings as VoiceSettings;
  return {
    version: SESSION_VERSION,
    area: v.area as Area,
    voiceSettings: { modelId: voice.modelId, voice: voice.voice, language: voice.language, seed: voice.seed, params: voice.params, instruct: voice.instruct, voiceDescription: voice.voiceDescription },
    speakText: v.speakText as string,
    speakFormat: v.speakFormat as 'text' | 'ssml',
    seedMode: v.seedMode as 'keep' | 'random',
    editorText: v.editorText as string,
    editorFormat: v.editorFormat as 'text' | 'ssml',
    editorSsmlOptions: { dialect: (o as Json).dialect as SsmlDialect, lenient: (o as Json).lenient as boolean },
    projectId: v.projectId as string,
    projectName: v.projectName as string,
    projectPath: v.projectPath as string | null,
  };
}

export function sessionSnapshot(s: StudioState): SessionSnapshot {
  return {
    version: SESSION_VERSION,
    area: s.area,
    voiceSettings: s.voiceSettings,
    speakText: s.speakText,
    speakFormat: s.speakFormat,
    seedMode: s.seedMode,
    editorText: s.editorText,
    editorFormat: s.editorFormat,
    editorSsmlOptions: s.editorSsmlOptions,
    projectId: s.projectId,
    projectName: s.projectName,
    projectPath: s.projectPath,
  };
}

/** The stored session, or null when there is none, it is from another version or it fails the schema (then it is removed). */
export function readSession(storage: Storage): SessionSnapshot | null {
  return readStoredJson(storage, SESSION_STORAGE_KEY, parseSession);
}

/** Puts a stored session into the store (the store's setters, so derived state stays consistent). */
export function applySession(snapshot: SessionSnapshot, s: StudioState): void {
  s.setArea(snapshot.area);
  s.updateVoiceSettings(snapshot.voiceSettings);
  s.setSpeakText(snapshot.speakText);
  s.setSpeakFormat(snapshot.speakFormat);
  s.setSeedMode(snapshot.seedMode);
  s.setEditorText(snapshot.editorText);
  s.setEditorFormat(snapshot.editorFormat);
  s.setEditorSsmlOptions(snapshot.editorSsmlOptions);
  s.setProjectMeta({ projectId: snapshot.projectId, projectName: snapshot.projectName, projectPath: snapshot.projectPath });
}

function sameSnapshot(a: StudioState, b: StudioState): boolean {
  return (
    a.area === b.area && a.voiceSettings === b.voiceSettings && a.speakText === b.speakText && a.speakFormat === b.speakFormat && a.seedMode === b.seedMode &&
    a.editorText === b.editorText && a.editorFormat === b.editorFormat && a.editorSsmlOptions === b.editorSsmlOptions &&
    a.projectId === b.projectId && a.projectName === b.projectName && a.projectPath === b.projectPath
  );
}

interface StoreLike {
  getState(): StudioState;
  subscribe(listener: (s: StudioState, prev: StudioState) => void): () => void;
}

/** Restores the stored session into `store` (if valid), then keeps writing it; returns the stop function. */
export function startSessionPersistence(store: StoreLike, storage: Storage, delayMs = SESSION_WRITE_DELAY_MS): { restored: SessionSnapshot | null; stop: () => void } {
  const restored = readSession(storage);
  if (restored) applySession(restored, store.getState());
  const sessionWrite = createDebouncedTask(() => {
    try {
      storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(sessionSnapshot(store.getState())));
    } catch {
      // storage full or disabled: the session simply is not kept
    }
  }, delayMs);
  const unsubscribe = store.subscribe((s, prev) => {
    if (!sameSnapshot(s, prev)) sessionWrite.schedule();
  });
  const flush = sessionWrite.flush;
  const hasWindow = typeof window !== 'undefined';
  if (hasWindow) window.addEventListener('pagehide', flush);
  return {
    restored,
    stop: () => {
      flush();
      unsubscribe();
      if (hasWindow) window.removeEventListener('pagehide', flush);
    },
  };
}
