/**
 * Whether an autosave left by the last session still needs the user: not when its project file
 * already holds it — the file (as main reads it back) has the same document, or was saved after
 * the autosave was written. A file that cannot be read (moved, deleted, outside the folders this
 * session may read) does not hold it: the autosave is then the only copy, and the user is asked.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import type { ProjectDocument } from '../../../src-shared/contract/projects';
import { call } from '../../ipc/client';

/** `value` as JSON with object keys sorted and undefined members left out, so equal documents compare equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]));
}

export function sameProjectDocument(a: ProjectDocument, b: ProjectDocument): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export async function autosaveIsInItsFile(recovery: { project: ProjectDocument; path: string | null; autosavedAtMs: number }): Promise<boolean> {
  if (recovery.path === null) return false;
  try {
    const file = await call(CHANNELS.openProject, { path: recovery.path });
    if (sameProjectDocument(file.project, recovery.project)) return true;
    // The file's own time (listProjects: its mtime); recent projects' times say when it was last opened.
    const savedAtMs = (await call(CHANNELS.listProjects, {})).find((p) => p.path === file.path || p.path === recovery.path)?.savedAtMs;
    return savedAtMs !== undefined && savedAtMs > recovery.autosavedAtMs;
  } catch {
    return false;
  }
}
