/**
 * Project housekeeping: a recovered autosave waiting for the user's answer, recent projects,
 * when the project was last saved or autosaved, and whether changes are still waiting to be
 * written (the revision of the latest change against the revision the last write covered).
 */
import type { StateCreator } from 'zustand';
import type { ProjectDocument, RecentProject } from '../../../src-shared/contract/projects';
import { fieldSetters } from '../../store/field-setters';

export interface ProjectsSlice {
  recovery: { project: ProjectDocument; path: string | null; autosavedAtMs: number } | null;
  recentProjects: RecentProject[];
  /** The project files in the data folder's projects/ folder (Open and Delete choose from these). */
  projectFiles: RecentProject[];
  lastSavedAtMs: number | null;
  lastAutosavedAtMs: number | null;
  projectError: string | null;
  /** Counts changes to the project (document, voice, timeline, name) since the session began. */
  projectRevision: number;
  /** The projectRevision that the latest completed save or autosave wrote. */
  savedRevision: number;
  /**
   * The projectRevision that the project file holds (its last explicit save, or the revision right after it
   * was opened). An autosave does not count: it is a recovery copy, and New or Re-open would drop it.
   */
  fileRevision: number;
  setRecovery(recovery: ProjectsSlice['recovery']): void;
  setRecentProjects(list: RecentProject[]): void;
  setProjectFiles(list: RecentProject[]): void;
  markProjectChanged(): void;
  /** A save or autosave of the state at `revision` finished at `atMs`. */
  setSaved(kind: 'save' | 'autosave', atMs: number, revision: number): void;
  /** The state at `revision` holds nothing worth writing (an untouched new project). */
  markNothingToSave(revision: number): void;
  /** The state at `revision` is what the project file holds (just opened from it). */
  markInFile(revision: number): void;
  setProjectError(message: string | null): void;
}

export const createProjectsSlice: StateCreator<ProjectsSlice, [], [], ProjectsSlice> = (set) => ({
  recovery: null,
  recentProjects: [],
  projectFiles: [],
  lastSavedAtMs: null,
  lastAutosavedAtMs: null,
  projectError: null,
  projectRevision: 0,
  savedRevision: 0,
  fileRevision: 0,
  ...fieldSetters(set, ['recovery', 'recentProjects', 'projectFiles', 'projectError']),
  markProjectChanged: () => set((s) => ({ projectRevision: s.projectRevision + 1 })),
  setSaved: (kind, atMs, revision) =>
    set((s) => ({
      ...(kind === 'save' ? { lastSavedAtMs: atMs, lastAutosavedAtMs: null } : { lastAutosavedAtMs: atMs }),
      savedRevision: Math.max(s.savedRevision, revision),
      ...(kind === 'save' ? { fileRevision: Math.max(s.fileRevision, revision) } : {}),
    })),
  markNothingToSave: (revision) => set((s) => ({ savedRevision: Math.max(s.savedRevision, revision), fileRevision: Math.max(s.fileRevision, revision) })),
  markInFile: (revision) => set((s) => ({ savedRevision: Math.max(s.savedRevision, revision), fileRevision: Math.max(s.fileRevision, revision) })),
});
