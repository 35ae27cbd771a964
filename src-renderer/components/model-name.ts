/**
 * The name to show for the loaded model. The engine names a model after the folder it loads, which
 * for an installed model is its build folder ('3f9a…-v7-fp16', a hash); the model list knows where
 * it came from: an imported checkpoint by its folder's name, a hub model by its repo. Pure.
 */
import type { ModelEntry } from '../../src-shared/contract/models';
import type { ModelInfo } from '../../src-shared/synthesis';
import { modelTypeLabel } from '../../src-shared/model-labels';

function folderName(dir: string): string {
  return dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
}

export function loadedModelName(info: Pick<ModelInfo, 'id' | 'displayName' | 'synthetic'>, models: readonly ModelEntry[]): string {
  const entry = models.find((m) => m.id === info.id);
  // the embedded test model names itself; an imported synthetic checkpoint is named like any import
  if (info.synthetic && (entry ? entry.kind === 'embedded' : !info.id.startsWith('local--'))) return info.displayName;
  if (entry && entry.displayName !== info.displayName) return entry.displayName; // the list names it better than the engine
  if (entry?.localPath) return `${folderName(entry.localPath)} (local folder)`; // as the list names imported models not loaded
  if (entry?.repo) return entry.repo;
  // Not listed (yet): the store's ids say it too (model-store.ts: 'local--<folder>-<8 hex>', '<owner>--<name>').
  const local = /^local--(.+)-[0-9a-f]{8}$/.exec(info.id);
  if (local) return `${local[1]} (local folder)`;
  if (/^[\w.-]+--[\w.-]+$/.test(info.id)) return info.id.replace('--', '/');
  return info.displayName;
}

/** A model list entry's name: the loaded model's as above, any other as the list gives it. */
export function modelEntryName(entry: ModelEntry, loaded: ModelInfo | null, models: readonly ModelEntry[]): string {
  return loaded && entry.id === loaded.id ? loadedModelName(loaded, models) : entry.displayName;
}


/** A list entry's type label, the loaded model's from the engine (with its size), else as the list knows it; null when unknown. */
export function modelEntryTypeLabel(entry: ModelEntry, loaded: Pick<ModelInfo, 'id' | 'kind' | 'size'> | null): string | null {
  if (loaded && entry.id === loaded.id) return modelTypeLabel(loaded.kind, loaded.size);
  return entry.modelType ? modelTypeLabel(entry.modelType) : null;
}

/**
 * The Library's Model cell for a clip, which records its checkpoint's hash: the loaded model's name and
 * type when it made the clip, else "another model" with the short hash (clips do not record a name).
 */
export function clipModelLabel(modelHash: string, loaded: Pick<ModelInfo, 'id' | 'displayName' | 'synthetic' | 'kind' | 'size' | 'modelHash'> | null, models: readonly ModelEntry[]): string {
  if (loaded && modelHash === loaded.modelHash) return `${loadedModelName(loaded, models)} · ${modelTypeLabel(loaded.kind, loaded.size)}`;
  return modelHash ? `another model (${modelHash.slice(0, 8)})` : 'unknown model';
}
