/**
 * What a remote (client-role) caller sees of values that carry server paths: the same value with
 * the paths taken out — the data folder, the models folder, a model's folder and a model started
 * from a folder named by its public id. The local admin session sees everything. Pure.
 */
import type { AppInfo } from '../../src-shared/contract/app';
import type { ModelEntry, ModelsState } from '../../src-shared/contract/models';
import type { SavedVoice } from '../../src-shared/contract/voices';
import type { EngineStatus, ModelInfo } from '../../src-shared/synthesis';
import { publicModelId } from '../models/model-store';

export function clientModelInfo(info: ModelInfo): ModelInfo;
export function clientModelInfo(info: ModelInfo | null): ModelInfo | null;
export function clientModelInfo(info: ModelInfo | null): ModelInfo | null {
  return info ? { ...info, id: publicModelId(info.id), path: '' } : null;
}

export function clientEngineStatus(status: EngineStatus): EngineStatus {
  return { ...status, model: clientModelInfo(status.model) };
}

export function clientAppInfo(info: AppInfo): AppInfo {
  return { ...info, userDataDir: '' };
}

export function clientModelsState(state: ModelsState): ModelsState {
  return { ...state, modelsDir: '' };
}

/** A model list without folders: local sources and "loaded from <folder>" summaries are left out. */
export function clientModelEntries(entries: readonly ModelEntry[]): ModelEntry[] {
  return entries.map((e) => ({
    ...e,
    id: publicModelId(e.id),
    localPath: null,
    summary: e.summary.startsWith('loaded from ') ? 'loaded from a folder on the studio’s machine' : e.summary,
  }));
}

export function clientSavedVoices(voices: readonly SavedVoice[]): SavedVoice[] {
  return voices.map((v) => ({ ...v, model: { ...v.model, id: publicModelId(v.model.id) } }));
}
