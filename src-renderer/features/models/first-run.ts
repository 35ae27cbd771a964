/**
 * When the first-run screen shows: a data folder with no installed model (only the embedded
 * synthetic one and the hub's list) while the synthetic model is active, until the user sets one
 * up or says "Not now" (kept in localStorage). Pure apart from the storage helpers.
 */
import type { ModelEntry } from '../../../src-shared/contract/models';

export const FIRST_RUN_STORAGE_KEY = 'qwen3-tts-studio.first-run.v1';

export function isFreshDataFolder(models: readonly ModelEntry[]): boolean {
  return models.length > 0 && !models.some((m) => m.kind === 'installed');
}

export function readFirstRunDismissed(storage: Storage | undefined): boolean {
  try {
    return storage?.getItem(FIRST_RUN_STORAGE_KEY) === 'dismissed';
  } catch {
    return false;
  }
}

export function dismissFirstRun(storage: Storage | undefined): void {
  try {
    storage?.setItem(FIRST_RUN_STORAGE_KEY, 'dismissed');
  } catch {
    // storage disabled: dismissed for this page only
  }
}
