/**
 * The desktop app's file affordances: native open/save dialogs for projects and exports, audio
 * imports and dropped files. Every path the user picks or drops is granted in FileGrants (the way a
 * desktop user reaches files outside the data folder); imported audio is copied into <data>/imports,
 * the folder SSML `<audio src>` may read. Dialogs come in through a port, so this runs without Electron.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { MAX_DROPPED_FILES, type DroppedFile, type ImportedAudio } from '../../src-shared/contract/desktop';
import type { FileGrants } from '../access/file-grants';
import type { DesktopPort } from '../services/studio-services';

export interface FileFilter {
  name: string;
  extensions: string[];
}

/** The native dialogs (Electron's dialog module in the app; a script in tests). Empty / null = cancelled. */
export interface DialogPort {
  showOpen(options: { title: string; filters: FileFilter[]; multiple: boolean; defaultPath?: string }): Promise<string[]>;
  showSave(options: { title: string; filters: FileFilter[]; defaultPath: string }): Promise<string | null>;
}

export const AUDIO_EXTENSIONS = ['wav', 'flac', 'mp3', 'ogg', 'opus', 'm4a', 'aac'] as const;
export const SSML_EXTENSIONS = ['ssml', 'xml'] as const;
export const TEXT_EXTENSIONS = ['txt', 'md'] as const;
export const PROJECT_SUFFIX = '.studio.json';

export interface DesktopServiceOptions {
  dialogs: DialogPort;
  grants: FileGrants;
  dataDir: string;
  /** Largest audio file an import copies (default 1 GiB). */
  maxImportBytes?: number;
  /** Largest text/SSML file a drop reads into the editor (default 1 MiB, the SSML validator's limit). */
  maxTextBytes?: number;
}

const extensionOf = (p: string): string => path.extname(p).slice(1).toLowerCase();

/** A file name safe on every OS: letters, digits, dot, dash, underscore; at most 80 characters. */
export function safeFileName(name: string): string {
  const base = path.basename(name).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const rawExt = path.extname(base) || (base.startsWith('.') ? base : '');
  const ext = rawExt.toLowerCase().replace(/[^a-z0-9.]/g, '');
  const stem = base.slice(0, base.length - rawExt.length).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60);
  return `${stem || 'audio'}${ext}`;
}

/** The paths in the preload's drop message, or null unless it is 1..MAX_DROPPED_FILES absolute paths. */
export function parseDropMessage(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_DROPPED_FILES) return null;
  const ok = value.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 4096 && !p.includes('\0') && path.isAbsolute(p));
  return ok ? (value as string[]) : null;
}

export class DesktopService implements DesktopPort {
  readonly importsDir: string;
  readonly projectsDir: string;
  private readonly maxImportBytes: number;
  private readonly maxTextBytes: number;

  constructor(private readonly options: DesktopServiceOptions) {
    this.importsDir = path.join(options.dataDir, 'imports');
    this.projectsDir = path.join(options.dataDir, 'projects');
    this.maxImportBytes = options.maxImportBytes ?? 1024 ** 3;
    this.maxTextBytes = options.maxTextBytes ?? 1024 ** 2;
    // The data-folder places its dialogs offer: projects (read/write) and imports (read only:
    // files get there by being copied, never written by a client).
    options.grants.grant(this.projectsDir, 'write', 'folder');
    options.grants.grant(this.importsDir, 'read', 'folder');
  }

  /** Open dialog for a project file; the pick is granted read and write (Save writes it back). */
  async showOpenProject(): Promise<{ path: string | null }> {
    const [picked] = await this.options.dialogs.showOpen({
      title: 'Open project',
      filters: [{ name: 'Studio projects', extensions: ['json'] }],
      multiple: false,
      defaultPath: this.projectsDir,
    });
    if (!picked) return { path: null };
    this.options.grants.grant(picked, 'write', 'file');
    return { path: path.resolve(picked) };
  }

  /** Save dialog for a project; the chosen path (forced to end in .json) is granted write. */
  async showSaveProject(suggestedName: string): Promise<{ path: string | null }> {
    const picked = await this.options.dialogs.showSave({
      title: 'Save project as',
      filters: [{ name: 'Studio projects', extensions: ['json'] }],
      defaultPath: path.join(this.projectsDir, `${safeFileName(suggestedName).replace(/\.[^.]*$/, '')}${PROJECT_SUFFIX}`),
    });
    if (!picked) return { path: null };
    const target = picked.toLowerCase().endsWith('.json') ? picked : `${picked}${PROJECT_SUFFIX}`;
    this.options.grants.grant(target, 'write', 'file');
    return { path: path.resolve(target) };
  }

  /** Open dialog for a text or SSML document (the Render page); the pick is granted read only. */
  async showOpenDocument(): Promise<{ path: string | null }> {
    const [picked] = await this.options.dialogs.showOpen({
      title: 'Open a document to render',
      filters: [{ name: 'Text and SSML', extensions: [...TEXT_EXTENSIONS, ...SSML_EXTENSIONS] }],
      multiple: false,
    });
    if (!picked) return { path: null };
    this.options.grants.grant(picked, 'read', 'file');
    return { path: path.resolve(picked) };
  }

  /** The folder and name an export's save dialog starts at, and the grant once the user chose. */
  grantExport(savedPath: string): void {
    this.options.grants.grant(savedPath, 'write', 'file');
  }

  /** Open dialog for audio files (several at once), each copied into the imports folder. */
  async showImportAudio(): Promise<{ imported: ImportedAudio[] }> {
    const picked = await this.options.dialogs.showOpen({
      title: 'Import audio',
      filters: [{ name: 'Audio', extensions: [...AUDIO_EXTENSIONS] }],
      multiple: true,
    });
    const imported: ImportedAudio[] = [];
    for (const file of picked) imported.push(await this.importAudio(file));
    return { imported };
  }

  /**
   * Copies a user-picked audio file into <data>/imports under a unique safe name (temp file, then
   * rename, so a half-copied file is never visible). Only regular files up to maxImportBytes.
   */
  async importAudio(sourcePath: string): Promise<ImportedAudio> {
    const originalName = path.basename(sourcePath);
    if (!(AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(sourcePath))) {
      throw new StudioError('invalid-argument', `${originalName} is not an audio file the studio imports (${AUDIO_EXTENSIONS.join(', ')})`, { field: 'path' });
    }
    const info = await stat(sourcePath);
    if (!info.isFile()) throw new StudioError('invalid-argument', `${originalName} is not a regular file; pick an audio file`, { field: 'path' });
    if (info.size > this.maxImportBytes) {
      throw new StudioError('payload-too-large', `${originalName} is ${info.size} bytes; imports are limited to ${this.maxImportBytes} bytes — trim the file first`, {
        sizeBytes: info.size,
        maxBytes: this.maxImportBytes,
      });
    }
    await mkdir(this.importsDir, { recursive: true });
    const target = path.join(this.importsDir, `${randomUUID().slice(0, 8)}-${safeFileName(originalName)}`);
    const tmp = `${target}.part`;
    try {
      await copyFile(sourcePath, tmp);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { originalName, path: target, sizeBytes: info.size };
  }

  /**
   * Files dropped on the window (paths the preload read off real dropped File objects): audio is
   * imported, text and SSML are read for the editor, a project is granted and handed back to open;
   * anything else, or a file that fails, is reported as refused with the reason.
   */
  async acceptDroppedPaths(paths: readonly string[]): Promise<DroppedFile[]> {
    const out: DroppedFile[] = [];
    for (const p of paths) {
      const name = path.basename(p);
      try {
        out.push(await this.acceptOne(p, name));
      } catch (err) {
        out.push({ kind: 'refused', name, reason: err instanceof StudioError ? err.message : `could not read ${name}: ${(err as Error).message}` });
      }
    }
    return out;
  }

  private async acceptOne(p: string, name: string): Promise<DroppedFile> {
    const ext = extensionOf(p);
    if ((AUDIO_EXTENSIONS as readonly string[]).includes(ext)) return { kind: 'audio', imported: await this.importAudio(p) };
    if (name.toLowerCase().endsWith('.json')) {
      this.options.grants.grant(p, 'write', 'file');
      return { kind: 'project', name, path: path.resolve(p) };
    }
    const isSsml = (SSML_EXTENSIONS as readonly string[]).includes(ext);
    if (isSsml || (TEXT_EXTENSIONS as readonly string[]).includes(ext)) {
      return { kind: isSsml ? 'ssml' : 'text', name, text: await this.readText(p, name) };
    }
    throw new StudioError('invalid-argument', `${name}: drop audio (${AUDIO_EXTENSIONS.join(', ')}), text (.txt, .md), SSML (.ssml, .xml) or a project (.studio.json)`);
  }

  /** Reads at most maxTextBytes (+1 to detect more) so a huge or endless file cannot stall main. */
  private async readText(p: string, name: string): Promise<string> {
    const info = await stat(p);
    if (!info.isFile()) throw new StudioError('invalid-argument', `${name} is not a regular file`);
    const handle = await open(p, 'r');
    try {
      const buf = Buffer.alloc(this.maxTextBytes + 1);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      if (bytesRead > this.maxTextBytes) {
        throw new StudioError('payload-too-large', `${name} is larger than ${this.maxTextBytes} bytes; the editor takes documents up to that size`, { maxBytes: this.maxTextBytes });
      }
      return buf.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
    } finally {
      await handle.close();
    }
  }
}
