/**
 * The Speak screen: its own text (separate from the Timeline's document), whether each Generate
 * keeps the seed or draws a new one, the last result with the voice, language, seed and sampling
 * parameters the engine actually used, and the speaker previews heard so far.
 */
import type { StateCreator } from 'zustand';
import type { SamplingParams } from '../../../src-shared/synthesis';
import { fieldSetters } from '../../store/field-setters';

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
}

export const createSpeakSlice: StateCreator<SpeakSlice, [], [], SpeakSlice> = (set) => ({
  speakText: DEFAULT_SPEAK_TEXT,
  speakFormat: 'text',
  seedMode: 'keep',
  speakResult: null,
  speakError: null,
  previewingVoice: null,
  ...fieldSetters(set, ['speakText', 'speakFormat', 'seedMode', 'speakError', 'previewingVoice']),
  setSpeakResult: (speakResult) => set({ speakResult, speakError: null }),
});
