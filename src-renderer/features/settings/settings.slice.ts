/**
 * Output settings the user chooses: the loudness target (LUFS) and true-peak ceiling (dBTP) that
 * every generation request and the Timeline's export carry. Kept in localStorage (versioned key,
 * range-checked on read; a bad value falls back to the default).
 */
import type { StateCreator } from 'zustand';
import { DEFAULT_OUTPUT_LOUDNESS, outputLoudnessProblem, type OutputLoudness } from '../../../src-shared/audio-format';

export const LOUDNESS_STORAGE_KEY = 'qwen3-tts-studio.output-loudness.v1';

export function readOutputLoudness(storage: Storage | undefined): OutputLoudness {
  try {
    const raw = storage?.getItem(LOUDNESS_STORAGE_KEY);
    if (!raw) return { ...DEFAULT_OUTPUT_LOUDNESS };
    const parsed = JSON.parse(raw) as Partial<OutputLoudness>;
    const value = { targetLufs: Number(parsed.targetLufs), truePeakCeilingDbtp: Number(parsed.truePeakCeilingDbtp) };
    return outputLoudnessProblem(value) ? { ...DEFAULT_OUTPUT_LOUDNESS } : value;
  } catch {
    return { ...DEFAULT_OUTPUT_LOUDNESS };
  }
}

export interface SettingsSlice {
  outputLoudness: OutputLoudness;
  /** Sets and remembers the target; returns the problem ('' when accepted, nothing changes otherwise). */
  setOutputLoudness(value: OutputLoudness): string;
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export const createSettingsSlice: StateCreator<SettingsSlice, [], [], SettingsSlice> = (set) => ({
  outputLoudness: readOutputLoudness(browserStorage()),
  setOutputLoudness: (value) => {
    const problem = outputLoudnessProblem(value);
    if (problem) return problem;
    set({ outputLoudness: { ...value } });
    try {
      browserStorage()?.setItem(LOUDNESS_STORAGE_KEY, JSON.stringify(value));
    } catch {
      // storage disabled: the setting holds for this page only
    }
    return '';
  },
});
