/**
 * The Models page: pull progress per model and the last error.
 */
import type { StateCreator } from 'zustand';
import type { PullProgress } from '../../../src-shared/contract/models';

export interface ModelsSlice {
  pulls: Record<string, PullProgress>;
  modelsError: string | null;
  setPull(progress: PullProgress): void;
  setModelsError(message: string | null): void;
}

export const createModelsSlice: StateCreator<ModelsSlice, [], [], ModelsSlice> = (set, get) => ({
  pulls: {},
  modelsError: null,
  setPull: (p) => set({ pulls: { ...get().pulls, [p.modelId]: p } }),
  setModelsError: (modelsError) => set({ modelsError }),
});
