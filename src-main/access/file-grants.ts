/**
 * File capabilities: which paths a caller may read or write. The data folder's own subfolders are
 * granted at start; the desktop app adds what the user picked in its own open/save dialogs. Remote
 * callers never name an arbitrary path: every path goes through check(), which answers with one
 * generic refusal that does not say whether the path exists. Pure bookkeeping plus realpath.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StudioError } from '../../src-shared/errors';

export type FileAccess = 'read' | 'write';

export interface FileGrant {
  /** Absolute path of a folder (everything below it) or of one file. */
  path: string;
  scope: 'folder' | 'file';
  access: FileAccess;
}

const REFUSED = 'that file is not available to this client; pick it in the studio (Open/Import) or place it in the data folder';

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (for files not yet written). */
function realpathOrAncestor(p: string): string {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Turns a path or file: URL into an absolute path; anything else is refused. */
export function toLocalPath(pathOrUrl: string): string {
  if (typeof pathOrUrl !== 'string' || pathOrUrl.length === 0 || pathOrUrl.length > 4096 || pathOrUrl.includes('\0')) {
    throw new StudioError('forbidden', REFUSED);
  }
  if (/^file:/i.test(pathOrUrl)) {
    try {
      return fileURLToPath(pathOrUrl);
    } catch {
      throw new StudioError('forbidden', REFUSED);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl) || !path.isAbsolute(pathOrUrl)) throw new StudioError('forbidden', REFUSED);
  return path.resolve(pathOrUrl);
}

export class FileGrants {
  private readonly grants: FileGrant[] = [];

  constructor(initial: readonly FileGrant[] = []) {
    for (const g of initial) this.grant(g.path, g.access, g.scope);
  }

  /** Adds a grant; 'write' implies 'read'. Paths are stored by their real path. */
  grant(absPath: string, access: FileAccess, scope: 'folder' | 'file' = 'file'): void {
    this.grants.push({ path: realpathOrAncestor(path.resolve(absPath)), scope, access });
  }

  list(): readonly FileGrant[] {
    return this.grants;
  }

  /** Whether `absPath` (already resolved) may be used for `access`; no error, no I/O beyond realpath. */
  isGranted(pathOrUrl: string, access: FileAccess): boolean {
    try {
      this.check(pathOrUrl, access);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Resolves `pathOrUrl` (absolute path or file: URL) through symlinks and returns the real path
   * when a grant covers it; otherwise throws StudioError 'forbidden' with one generic message.
   */
  check(pathOrUrl: string, access: FileAccess): string {
    const real = realpathOrAncestor(toLocalPath(pathOrUrl));
    for (const g of this.grants) {
      if (access === 'write' && g.access !== 'write') continue;
      if (g.scope === 'folder' ? isInside(real, g.path) : real === g.path) return real;
    }
    throw new StudioError('forbidden', REFUSED);
  }
}
