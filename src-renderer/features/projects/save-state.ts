/**
 * The project bar's one-line save state. "saved" whenever the project file holds the current
 * revision (a later autosave of the same revision is only a recovery copy and must not relabel a
 * Save as "autosaved"); "autosaved" when only the recovery copy holds it; else unsaved. Pure.
 */
export interface SaveStateInput {
  projectRevision: number;
  /** The latest revision written anywhere (file or autosave). */
  savedRevision: number;
  /** The latest revision written to the project file. */
  fileRevision: number;
  lastSavedAtMs: number | null;
  lastAutosavedAtMs: number | null;
}

export function saveStateText(s: SaveStateInput, timeOf: (ms: number) => string): string {
  if (s.projectRevision !== s.savedRevision) return 'unsaved changes';
  if (s.lastSavedAtMs !== null && s.fileRevision >= s.projectRevision) return `saved ${timeOf(s.lastSavedAtMs)}`;
  if (s.lastAutosavedAtMs !== null) return `autosaved ${timeOf(s.lastAutosavedAtMs)}`;
  return s.lastSavedAtMs !== null ? `saved ${timeOf(s.lastSavedAtMs)}` : 'not saved yet';
}
