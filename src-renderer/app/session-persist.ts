/**
 * The session a reload keeps: the open area, voice settings (voice, language, seed, parameters),
 * the Speak text, the Timeline document and which project it belongs to. Written to localStorage
 * under a versioned key (debounced, flushed when the page hides); read back at start only when it
 * passes the schema, otherwise dropped. Timeline takes come back from the project's autosave.
 */
import { z } from 'zod';
import { SSML_DIALECTS } from '../../src-shared/synthesis';
import { MAX_SEED } from '../features/voice/voice.slice';
import { AREAS } from './shell.slice';
import type { StudioState } from '../store/store';

export const SESSION_STORAGE_KEY = 'qwen3-tts-studio.session';
export const SESSION_VERSION = 1;
export const SESSION_WRITE_DELAY_MS = 300;
const MAX_TEXT_CHARS = 1_048_576;

const samplingSchema = z.object({
  doSample: z.boolean(),
  temperature: z.number(),
  topK: z.number(),
  topP: z.number(),
  repetitionPenalty: z.number(),
  subtalkerDoSample: z.boolean().optional(),
  subtalkerTemperature: z.number().optional(),
  subtalkerTopK: z.number().optional(),
  subtalkerTopP: z.number().optional(),
  maxNewTokens: z.number().optional(),
});

const sessionSchema = z.object({
  version: z.literal(SESSION_VERSION),
  area: z.enum(AREAS),
  voiceSettings: z.object({
    modelId: z.string().max(4096).nullable(),
    voice: z.string().max(256),
    language: z.string().max(64),
    seed: z.number().int().min(0).max(MAX_SEED),
    params: samplingSchema.nullable(),
    instruct: z.string().max(MAX_TEXT_CHARS),
    voiceDescription: z.string().max(MAX_TEXT_CHARS),
  }),
  speakText: z.string().max(MAX_TEXT_CHARS),
  speakFormat: z.enum(['text', 'ssml']),
  seedMode: z.enum(['keep', 'random']),
  editorText: z.string().max(MAX_TEXT_CHARS),
  editorFormat: z.enum(['text', 'ssml']),
  editorSsmlOptions: z.object({ dialect: z.enum(SSML_DIALECTS as [string, ...string[]]), lenient: z.boolean() }),
  projectId: z.string().min(1).max(256),
  projectName: z.string().max(1024),
  projectPath: z.string().max(4096).nullable(),
});

export type SessionSnapshot = z.infer<typeof sessionSchema>;

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
  let text: string | null;
  try {
    text = storage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const parsed = sessionSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: dropped below
  }
  storage.removeItem(SESSION_STORAGE_KEY);
  return null;
}

/** Puts a stored session into the store (the store's setters, so derived state stays consistent). */
export function applySession(snapshot: SessionSnapshot, s: StudioState): void {
  s.setArea(snapshot.area);
  s.updateVoiceSettings({ ...snapshot.voiceSettings, params: snapshot.voiceSettings.params as StudioState['voiceSettings']['params'] });
  s.setSpeakText(snapshot.speakText);
  s.setSpeakFormat(snapshot.speakFormat);
  s.setSeedMode(snapshot.seedMode);
  s.setEditorText(snapshot.editorText);
  s.setEditorFormat(snapshot.editorFormat);
  s.setEditorSsmlOptions({ dialect: snapshot.editorSsmlOptions.dialect as StudioState['editorSsmlOptions']['dialect'], lenient: snapshot.editorSsmlOptions.lenient });
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
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    timer = null;
    try {
      storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(sessionSnapshot(store.getState())));
    } catch {
      // storage full or disabled: the session simply is not kept
    }
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (sameSnapshot(s, prev)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(write, delayMs);
  });
  const flush = () => {
    if (!timer) return;
    clearTimeout(timer);
    write();
  };
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
