/**
 * App-shell state: which area is open, the engine status and app info shown in the header, and the
 * connection to the host (numConnects counts arrivals at 'connected', so a screen that failed while
 * the host was away knows to try again).
 */
import type { StateCreator } from 'zustand';
import type { AppInfo } from '../../src-shared/contract/app';
import type { EngineStatus } from '../../src-shared/synthesis';
import { fieldSetters } from '../store/field-setters';
import type { ConnectionState } from '../ipc/connection';

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
  connection: ConnectionState;
  numConnects: number;
  setArea(area: Area): void;
  setAppInfo(info: AppInfo): void;
  setEngineStatus(status: EngineStatus): void;
  setConnection(connection: ConnectionState): void;
}

export const createShellSlice: StateCreator<ShellSlice, [], [], ShellSlice> = (set) => ({
  area: 'speak',
  appInfo: null,
  engineStatus: null,
  connection: { state: 'connecting' },
  numConnects: 0,
  ...fieldSetters(set, ['area', 'appInfo', 'engineStatus']),
  setConnection: (connection) =>
    set((s) => ({ connection, numConnects: connection.state === 'connected' && s.connection.state !== 'connected' ? s.numConnects + 1 : s.numConnects })),
});
