/**
 * App-shell state: which area is open, the engine status and app info shown in the header.
 */
import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../src-shared/contract/app';
import type { EngineStatus } from '../../src-shared/synthesis';
import { fieldSetters } from '../store/field-setters';

export const AREAS = ['speak', 'voice', 'timeline', 'library', 'render', 'bench', 'models', 'settings'] as const;
export type Area = (typeof AREAS)[number];

export const AREA_LABELS: Record<Area, string> = {
  speak: 'Speak',
  voice: 'Voice',
  timeline: 'Timeline',
  library: 'Library',
  render: 'Render',
  bench: 'Benchmark',
  models: 'Models',
  settings: 'Settings',
};

export interface ShellSlice {
  area: Area;
  appInfo: AppInfo | null;
  engineStatus: EngineStatus | null;
  connectionError: string | null;
  setArea(area: Area): void;
  setAppInfo(info: AppInfo): void;
  setEngineStatus(status: EngineStatus): void;
  setConnectionError(message: string | null): void;
}

export const createShellSlice: StateCreator<ShellSlice, [], [], ShellSlice> = (set) => ({
  area: 'speak',
  appInfo: null,
  engineStatus: null,
  connectionError: null,
  ...fieldSetters(set, ['area', 'appInfo', 'engineStatus', 'connectionError']),
});
