/**
 * The Speak screen: its own text (separate from the Timeline's document), whether each Generate
 * keeps the seed or draws a new one, the last result with the voice, language, seed and sampling
 * parameters the engine actually used, the speaker previews heard so far, and the take history:
 * every generation (newest first, bounded by speak-takes.ts), its audio once loaded, the A/B pair
 * and which take is sounding.
 */
import type { StateCreator } from 'zustand';
import type { SamplingParams } from '../../../src-shared/synthesis';
import { fieldSetters } from '../../store/field-setters';
import { trimSpeakTakes, validCompare, type SpeakCompare, type SpeakTake } from './speak-takes';

export interface SpeakTakeAudio {
  sampleRateHz: number;
  pcm: Float32Array;
}

/** The take sounding now, and its side when it was played from the A/B compare. */
export interface SpeakSounding {
  takeId: string;
  side: 'A' | 'B' | null;
}

export const DEFAULT_SPEAK_TEXT = 'Hello! This is Qwen3-TTS Studio. Type anything here, pick a voice and press Generate.';

export interface SpeakResult {
  clipId: string;
  requestId: string;
  sampleRateHz: number;
  pcm: Float32Array;
  /** What the engine reports it used, not what the form said. */
  used: SamplingParams & { seed: number; voice: string; language: string };
  modelId: string | null;
  durationMs: number;
  rtf: number;
  latencyFirstAudioMs: number;
  warnings: string[];
}

export interface SpeakSlice {
  speakText: string;
  speakFormat: 'text' | 'ssml';
  /** 'keep': every Generate uses the seed field; 'random': each Generate draws a new seed into it. */
  seedMode: 'keep' | 'random';
  speakResult: SpeakResult | null;
  speakError: string | null;
  /** The speaker whose preview is being made or played, or null. */
  previewingVoice: string | null;
  setSpeakText(text: string): void;
  setSpeakFormat(format: 'text' | 'ssml'): void;
  setSeedMode(mode: 'keep' | 'random'): void;
  setSpeakResult(result: SpeakResult | null): void;
  setSpeakError(message: string | null): void;
  setPreviewingVoice(voice: string | null): void;
  /** Every generation, newest first. */
  speakTakes: SpeakTake[];
  nextSpeakTakeNumber: number;
  /** Audio by take id, loaded from the Library or kept from the generation; null: the Library no longer has it. Not persisted. */
  speakTakeAudio: Record<string, SpeakTakeAudio | null>;
  speakCompare: SpeakCompare | null;
  speakSounding: SpeakSounding | null;
  /** Files a new take first in the history (numbered, not kept) and trims the history; returns it. */
  addSpeakTake(take: Omit<SpeakTake, 'takeNumber' | 'kept'>, audio: SpeakTakeAudio | null): SpeakTake;
  setSpeakTakeKept(takeId: string, kept: boolean): void;
  /** Drops an unkept take from the history (its clip stays in the Library); a kept take stays. */
  removeSpeakTake(takeId: string): void;
  setSpeakTakeAudio(takeId: string, audio: SpeakTakeAudio | null): void;
  setSpeakCompare(compare: SpeakCompare | null): void;
  setSpeakSounding(sounding: SpeakSounding | null): void;
  /** The history as it was stored (a reload): trimmed, numbering continued. */
  restoreSpeakTakes(takes: SpeakTake[], nextSpeakTakeNumber: number): void;
}

/** The history fields after `takes` replaced the list: audio, compare and sounding of dropped takes let go. */
function withTakes(s: SpeakSlice, takes: SpeakTake[]): Pick<SpeakSlice, 'speakTakes' | 'speakTakeAudio' | 'speakCompare' | 'speakSounding'> {
  const ids = new Set(takes.map((t) => t.takeId));
  const speakTakeAudio = Object.fromEntries(Object.entries(s.speakTakeAudio).filter(([id]) => ids.has(id)));
  return { speakTakes: takes, speakTakeAudio, speakCompare: validCompare(s.speakCompare, takes), speakSounding: s.speakSounding && ids.has(s.speakSounding.takeId) ? s.speakSounding : null };
}

export const createSpeakSlice: StateCreator<SpeakSlice, [], [], SpeakSlice> = (set, get) => ({
  speakText: DEFAULT_SPEAK_TEXT,
  speakFormat: 'text',
  seedMode: 'keep',
  speakResult: null,
  speakError: null,
  previewingVoice: null,
  ...fieldSetters(set, ['speakText', 'speakFormat', 'seedMode', 'speakError', 'previewingVoice']),
  setSpeakResult: (speakResult) => set({ speakResult, speakError: null }),
  speakTakes: [],
  nextSpeakTakeNumber: 1,
  speakTakeAudio: {},
  speakCompare: null,
  speakSounding: null,
  addSpeakTake: (fields, audio) => {
    const s = get();
    const take: SpeakTake = { ...fields, takeNumber: s.nextSpeakTakeNumber, kept: false };
    const speakTakeAudio = audio ? { ...s.speakTakeAudio, [take.takeId]: audio } : s.speakTakeAudio;
    set({ ...withTakes({ ...s, speakTakeAudio }, trimSpeakTakes([take, ...s.speakTakes.filter((t) => t.takeId !== take.takeId)])), nextSpeakTakeNumber: take.takeNumber + 1 });
    return take;
  },
  setSpeakTakeKept: (takeId, kept) => set({ speakTakes: get().speakTakes.map((t) => (t.takeId === takeId ? { ...t, kept } : t)) }),
  removeSpeakTake: (takeId) => set(withTakes(get(), get().speakTakes.filter((t) => t.takeId !== takeId || t.kept))),
  setSpeakTakeAudio: (takeId, audio) => {
    if (get().speakTakes.some((t) => t.takeId === takeId)) set({ speakTakeAudio: { ...get().speakTakeAudio, [takeId]: audio } });
  },
  setSpeakCompare: (compare) => set({ speakCompare: validCompare(compare, get().speakTakes) }),
  setSpeakSounding: (speakSounding) => set({ speakSounding }),
  restoreSpeakTakes: (takes, next) => {
    const maxNumber = Math.max(0, ...takes.map((t) => t.takeNumber));
    set({ ...withTakes(get(), trimSpeakTakes(takes)), nextSpeakTakeNumber: Math.max(next, maxNumber + 1) });
  },
});
