/**
 * The project service: project files (JSON) written atomically (temp file, fsync, rename, fsync
 * of the folder), an autosave slot restored after a crash, the recent-projects list, and SSML
 * validation for the editor. Layout: <dataDir>/projects/*.studio.json, .autosave.json, recent.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { ProjectDocument, RecentProject, SsmlValidation } from '../../src-shared/contract/projects';
import { projectDocumentSchema } from '../api/schemas';
import { parseSsml } from '../ssml/parse-ssml';
import { numDialogueTurns } from '../ssml/turn-builder';
import type { SsmlOptionsInput } from '../ssml/ssml-options';
import { FileGrants } from '../access/file-grants';

export const MAX_RECENT_PROJECTS = 10;
/** The projects folder listing stops here (newest first). */
export const MAX_LISTED_PROJECTS = 500;
/** A project file is JSON text; anything larger is not one of ours. */
export const MAX_PROJECT_FILE_BYTES = 32 * 1024 * 1024;
const AUTOSAVE_FILE = '.autosave.json';
const RECENT_FILE = 'recent.json';

export interface ProjectServiceOptions {
  dataDir: string;
  /** Replaces the studio's SSML parser as the validator (tests). */
  validateSsml?: (text: string, options: SsmlOptionsInput) => SsmlValidation;
  nowMs?: () => number;
  /** Which paths callers may name; default: the projects folder only. The desktop app adds dialog picks. */
  grants?: FileGrants;
}

interface AutosaveSlot {
  project: ProjectDocument;
  path: string | null;
  autosavedAtMs: number;
}

/** Writes `text` so that readers see the old file or the new one, never a torn one. */
export async function writeFileAtomic(filePath: string, text: string): Promise<void> {
  const tmp = `${filePath}.${randomUUID().slice(0, 8)}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, filePath);
  // fsync the folder so the rename itself survives a power loss (a no-op error on Windows).
  const dir = await open(path.dirname(filePath), 'r').catch(() => null);
  if (dir) {
    await dir.sync().catch(() => {});
    await dir.close();
  }
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'project';
}

export class ProjectService {
  readonly projectsDir: string;
  private readonly nowMs: () => number;
  private readonly grants: FileGrants;

  constructor(private readonly options: ProjectServiceOptions) {
    this.projectsDir = path.join(options.dataDir, 'projects');
    mkdirSync(this.projectsDir, { recursive: true });
    this.nowMs = options.nowMs ?? Date.now;
    this.grants = options.grants ?? new FileGrants([{ path: this.projectsDir, scope: 'folder', access: 'write' }]);
  }

  defaultPathFor(project: ProjectDocument): string {
    return path.join(this.projectsDir, `${slugOf(project.name)}-${project.id.slice(0, 8)}.studio.json`);
  }

  /** Saves the project (to `filePath`, or its default path), clears the autosave slot and updates recent projects. */
  async save(project: ProjectDocument, filePath?: string): Promise<{ path: string; savedAtMs: number }> {
    const target = filePath === undefined ? this.defaultPathFor(project) : this.grants.check(filePath, 'write');
    if (!target.endsWith('.json')) {
      throw new StudioError('invalid-argument', `project path ${target} must end in .json (for example name.studio.json)`, { field: 'path', value: target });
    }
    const savedAtMs = this.nowMs();
    await writeFileAtomic(target, `${JSON.stringify(project, null, 2)}\n`);
    await rm(path.join(this.projectsDir, AUTOSAVE_FILE), { force: true });
    await this.remember({ path: target, name: project.name, savedAtMs });
    return { path: target, savedAtMs };
  }

  async open(filePath: string): Promise<{ path: string; project: ProjectDocument }> {
    const target = this.grants.check(filePath, 'read');
    const unreadable = new StudioError('not-found', 'that project file cannot be opened; pick it again from recent projects or with Open', {});
    const info = await stat(target).catch(() => null);
    if (!info || !info.isFile() || info.size > MAX_PROJECT_FILE_BYTES) throw unreadable;
    const text = await readFile(target, 'utf8').catch(() => {
      throw unreadable;
    });
    const project = this.parseProject(text, target);
    await this.remember({ path: target, name: project.name, savedAtMs: this.nowMs() });
    return { path: target, project };
  }

  async listRecent(): Promise<RecentProject[]> {
    try {
      const list = JSON.parse(await readFile(path.join(this.projectsDir, RECENT_FILE), 'utf8')) as RecentProject[];
      return Array.isArray(list) ? list.slice(0, MAX_RECENT_PROJECTS) : [];
    } catch {
      return [];
    }
  }

  /** Every *.json project file directly in the projects folder, newest first, with the clip each is built on; unreadable files are left out. */
  async listProjects(): Promise<RecentProject[]> {
    const names = (await readdir(this.projectsDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json') && n !== AUTOSAVE_FILE && n !== RECENT_FILE);
    const found: RecentProject[] = [];
    for (const name of names) {
      const file = path.join(this.projectsDir, name);
      const info = await stat(file).catch(() => null);
      if (!info || !info.isFile() || info.size > MAX_PROJECT_FILE_BYTES) continue;
      try {
        const project = this.parseProject(await readFile(file, 'utf8'), file);
        found.push({ path: file, name: project.name, savedAtMs: Math.round(info.mtimeMs), baseClipId: project.baseClipId });
      } catch {
        // Not a studio project (or half-written by something else): not listed.
      }
    }
    found.sort((a, b) => b.savedAtMs - a.savedAtMs);
    return found.slice(0, MAX_LISTED_PROJECTS);
  }

  /** Deletes a project file, only inside the projects folder, and drops it from recent projects. */
  async deleteProject(filePath: string): Promise<boolean> {
    const target = path.resolve(filePath);
    if (path.dirname(target) !== this.projectsDir || !target.endsWith('.json') || [AUTOSAVE_FILE, RECENT_FILE].includes(path.basename(target))) {
      throw new StudioError('forbidden', 'only project files in the data folder\'s projects folder can be deleted from the studio', { field: 'path', value: filePath });
    }
    const info = await stat(target).catch(() => null);
    if (!info || !info.isFile()) return false;
    await rm(target, { force: true });
    const list = (await this.listRecent()).filter((r) => r.path !== target);
    await writeFileAtomic(path.join(this.projectsDir, RECENT_FILE), JSON.stringify(list, null, 2));
    return true;
  }

  async autosave(project: ProjectDocument, filePath: string | null): Promise<{ savedAtMs: number }> {
    const slot: AutosaveSlot = { project, path: filePath, autosavedAtMs: this.nowMs() };
    await writeFileAtomic(path.join(this.projectsDir, AUTOSAVE_FILE), JSON.stringify(slot));
    return { savedAtMs: slot.autosavedAtMs };
  }

  /** The autosaved project left by a session that did not save (a crash or a reload), or null. */
  async readRecovery(): Promise<AutosaveSlot | null> {
    const file = path.join(this.projectsDir, AUTOSAVE_FILE);
    const text = await readFile(file, 'utf8').catch(() => null); // absent or unreadable: none
    if (text === null) return null;
    try {
      const slot = JSON.parse(text) as AutosaveSlot;
      return { project: this.parseProject(JSON.stringify(slot.project), file), path: slot.path ?? null, autosavedAtMs: slot.autosavedAtMs };
    } catch {
      await rm(file, { force: true });
      return null;
    }
  }

  async discardRecovery(): Promise<boolean> {
    const file = path.join(this.projectsDir, AUTOSAVE_FILE);
    const existed = (await readFile(file).catch(() => null)) !== null;
    await rm(file, { force: true });
    return existed;
  }

  /** options: the same parser options generation uses (ssmlOptionsForRequest), so the editor and Generate agree. */
  validateSsml(text: string, options: SsmlOptionsInput = {}): SsmlValidation {
    return (this.options.validateSsml ?? validateWithStudioParser)(text, options);
  }

  private parseProject(text: string, where: string): ProjectDocument {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // The parser's message quotes the file's bytes; say only where it is.
      throw new StudioError('invalid-argument', `${path.basename(where)} is not a studio project (not JSON); restore it from a backup or the autosave`, {});
    }
    const parsed = projectDocumentSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new StudioError('invalid-argument', `${path.basename(where)} is not a studio project: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {});
    }
    return parsed.data as ProjectDocument;
  }

  private async remember(entry: RecentProject): Promise<void> {
    const list = (await this.listRecent()).filter((r) => r.path !== entry.path);
    list.unshift(entry);
    await writeFileAtomic(path.join(this.projectsDir, RECENT_FILE), JSON.stringify(list.slice(0, MAX_RECENT_PROJECTS), null, 2));
  }
}

/**
 * The studio's own SSML parser with the request's settings: an 'ssml-invalid' error becomes one
 * diagnostic at its line:column; lenient-mode drops and approximations come back as warnings.
 */
export function validateWithStudioParser(text: string, options: SsmlOptionsInput = {}): SsmlValidation {
  try {
    const parsed = parseSsml(text, options);
    return {
      ok: true,
      numTurns: numDialogueTurns(parsed.segments),
      dialect: parsed.dialect,
      dialectDetectedFrom: parsed.dialectDetectedFrom,
      warnings: parsed.warnings.slice(0, 50).map((w) => ({ line: w.line, column: w.column, message: w.message })),
    };
  } catch (err) {
    const e = err as StudioError;
    if (e instanceof StudioError && (e.code === 'ssml-invalid' || e.code === 'input-too-long')) {
      const line = typeof e.details.line === 'number' ? e.details.line : 1;
      const column = typeof e.details.column === 'number' ? e.details.column : 1;
      return { ok: false, diagnostics: [{ line, column, message: e.message }] };
    }
    throw err;
  }
}
