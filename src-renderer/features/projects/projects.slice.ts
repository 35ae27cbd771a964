/**
 * Project housekeeping: a recovered autosave waiting for the user's answer, recent projects,
 * and when the project was last saved or autosaved.
 */
import type { StateCreator } from 'zustand';
import type { ProjectDocument, RecentProject } from '../../../src-shared/contract/projects';

export interface ProjectsSlice {
  recovery: { project: ProjectDocument; path: string | null; autosavedAtMs: number } | null;
  recentProjects: RecentProject[];
  lastSavedAtMs: number | null;
  lastAutosavedAtMs: number | null;
  projectError: string | null;
  setRecovery(recovery: ProjectsSlice['recovery']): void;
  setRecentProjects(list: RecentProject[]): void;
  setSaved(kind: 'save' | 'autosave', atMs: number): void;
  setProjectError(message: string | null): void;
}

export const createProjectsSlice: StateCreator<ProjectsSlice, [], [], ProjectsSlice> = (set) => ({
  recovery: null,
  recentProjects: [],
  lastSavedAtMs: null,
  lastAutosavedAtMs: null,
  projectError: null,
  setRecovery: (recovery) => set({ recovery }),
  setRecentProjects: (recentProjects) => set({ recentProjects }),
  setSaved: (kind, atMs) => set(kind === 'save' ? { lastSavedAtMs: atMs, lastAutosavedAtMs: null } : { lastAutosavedAtMs: atMs }),
  setProjectError: (projectError) => set({ projectError }),
});
