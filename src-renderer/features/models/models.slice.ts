/**
 * The Models page: the model list, the manager's online/offline state, pull progress per model,
 * the pull waiting for confirmation (its plan: sizes and free space) and the last error.
 */
import type { StateCreator } from 'zustand';
import type { ModelEntry, ModelsState, PullPlan, PullProgress } from '../../../src-shared/contract/models';
import { fieldSetters } from '../../store/field-setters';

export interface ModelsSlice {
  models: ModelEntry[];
  modelsState: ModelsState | null;
  pulls: Record<string, PullProgress>;
  /** A pull shown for confirmation (size, free space) before anything is downloaded. */
  pendingPull: PullPlan | null;
  modelsError: string | null;
  /** The first-run screen is showing (it carries the synthetic-model note then). */
  firstRunOpen: boolean;
  setFirstRunOpen(open: boolean): void;
  setModels(models: ModelEntry[]): void;
  setModelsState(state: ModelsState): void;
  setPull(progress: PullProgress): void;
  setPendingPull(plan: PullPlan | null): void;
  setModelsError(message: string | null): void;
}

export const createModelsSlice: StateCreator<ModelsSlice, [], [], ModelsSlice> = (set, get) => ({
  models: [],
  modelsState: null,
  pulls: {},
  pendingPull: null,
  modelsError: null,
  firstRunOpen: false,
  ...fieldSetters(set, ['firstRunOpen', 'models', 'modelsState', 'pendingPull', 'modelsError']),
  setPull: (p) => set({ pulls: { ...get().pulls, [p.modelId]: p } }),
});
