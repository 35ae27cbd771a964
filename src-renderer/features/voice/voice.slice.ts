/**
 * Voice settings and what they are chosen from: the loaded model's facts (speakers, languages,
 * default sampling parameters, instruct support), the model list, and the user's choices.
 */
import type { StateCreator } from 'zustand';
import type { ModelEntry } from '../../../src-shared/contract/models';
import type { VoiceSettings } from '../../../src-shared/contract/projects';
import type { ModelInfo, SamplingParams, VoiceInfo } from '../../../src-shared/synthesis';
import { DEFAULT_SEED } from '../../../src-shared/sampling-limits';
import { fieldSetters } from '../../store/field-setters';

const SAMPLING_KEYS: readonly (keyof SamplingParams)[] = [
  'doSample', 'temperature', 'topK', 'topP', 'repetitionPenalty', 'subtalkerDoSample', 'subtalkerTemperature', 'subtalkerTopK', 'subtalkerTopP', 'maxNewTokens',
];

/** Keeps only the contract's sampling keys (a host may report more, which requests may not carry). */
export function pickSamplingParams(params: SamplingParams | null | undefined): SamplingParams | null {
  if (!params) return null;
  return Object.fromEntries(SAMPLING_KEYS.filter((k) => k in params).map((k) => [k, params[k]])) as unknown as SamplingParams;
}

export function defaultVoiceSettings(): VoiceSettings {
  return { modelId: null, voice: 'ryan', language: 'auto', seed: DEFAULT_SEED, params: null, instruct: '', voiceDescription: '' };
}

export interface VoiceSlice {
  modelInfo: ModelInfo | null;
  voices: VoiceInfo[];
  models: ModelEntry[];
  voiceSettings: VoiceSettings;
  voiceLoadError: string | null;
  /** True while the engine restarts on another model. */
  modelSwitching: boolean;
  setModelSwitching(switching: boolean): void;
  setVoiceData(data: { modelInfo: ModelInfo | null; voices: VoiceInfo[]; models: ModelEntry[] }): void;
  setVoiceLoadError(message: string | null): void;
  updateVoiceSettings(patch: Partial<VoiceSettings>): void;
  setParam<K extends keyof SamplingParams>(key: K, value: SamplingParams[K]): void;
  resetParams(): void;
}

export const createVoiceSlice: StateCreator<VoiceSlice, [], [], VoiceSlice> = (set, get) => ({
  modelInfo: null,
  voices: [],
  models: [],
  voiceSettings: defaultVoiceSettings(),
  voiceLoadError: null,
  modelSwitching: false,
  ...fieldSetters(set, ['modelSwitching', 'voiceLoadError']),
  setVoiceData: ({ modelInfo: reported, voices, models }) => {
    const modelInfo = reported ? { ...reported, defaultParams: pickSamplingParams(reported.defaultParams)! } : null;
    const current = get().voiceSettings;
    const voice = voices.some((v) => v.name === current.voice) ? current.voice : (voices[0]?.name ?? current.voice);
    set({
      modelInfo,
      voices,
      models,
      voiceLoadError: null,
      voiceSettings: { ...current, voice, modelId: current.modelId ?? modelInfo?.id ?? null, params: current.params ?? modelInfo?.defaultParams ?? null },
    });
  },
  updateVoiceSettings: (patch) =>
    set({ voiceSettings: { ...get().voiceSettings, ...patch, ...('params' in patch ? { params: pickSamplingParams(patch.params) } : {}) } }),
  setParam: (key, value) => {
    const s = get();
    const params = s.voiceSettings.params ?? s.modelInfo?.defaultParams;
    if (!params) return;
    set({ voiceSettings: { ...s.voiceSettings, params: { ...params, [key]: value } } });
  },
  resetParams: () => set({ voiceSettings: { ...get().voiceSettings, params: get().modelInfo?.defaultParams ?? null } }),
});
