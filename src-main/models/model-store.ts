/**
 * The on-disk layout of the models folder and the local manifest: one folder per model
 * (`<root>/<id>/checkpoint/`, `<root>/<id>/onnx/`, `<root>/<id>/studio-model.json`) plus
 * `<root>/.quarantine/`. Reads and atomically writes manifests, sizes folders, removes models.
 * Knows nothing about the network or the builder.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { StudioModelManifest } from './model-types';

export const MANIFEST_FILE_NAME = 'studio-model.json';
export const QUARANTINE_DIR_NAME = '.quarantine';

export interface ModelPaths {
  dir: string;
  checkpointDir: string;
  buildDir: string;
  /** Where a build writes before it is complete; renamed to buildDir at the end. */
  partialBuildDir: string;
  manifestPath: string;
  quarantineDir: string;
}

/** "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice" → "Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice". */
export function modelIdForRepo(repo: string): string {
  return repo.replace('/', '--');
}

/** A local folder gets "local--<name>-<8 hex of its absolute path>", so two folders named alike never collide. */
export function modelIdForLocalDir(absDir: string): string {
  const tag = createHash('sha256').update(absDir).digest('hex').slice(0, 8);
  return `local--${path.basename(absDir).replace(/[^\w.-]/g, '_')}-${tag}`;
}

/**
 * A loaded model's id as clients see it: a model started from a folder (`--model /some/dir`) has
 * the folder as its id; it is named like an imported folder instead, never by its path.
 */
export function publicModelId(id: string): string {
  return /[\\/]/.test(id) ? modelIdForLocalDir(path.resolve(id)) : id;
}

export class ModelStore {
  constructor(readonly rootDir: string) {}

  paths(id: string): ModelPaths {
    if (!/^[\w.-]+$/.test(id) || id.startsWith('.')) {
      throw new StudioError('invalid-argument', `model id ${JSON.stringify(id)} is not a folder name the store makes; use an id from list()`, { id });
    }
    const dir = path.join(this.rootDir, id);
    return {
      dir,
      checkpointDir: path.join(dir, 'checkpoint'),
      buildDir: path.join(dir, 'onnx'),
      partialBuildDir: path.join(dir, 'onnx.partial'),
      manifestPath: path.join(dir, MANIFEST_FILE_NAME),
      quarantineDir: path.join(this.rootDir, QUARANTINE_DIR_NAME, id),
    };
  }

  async readManifest(id: string): Promise<StudioModelManifest | null> {
    const { manifestPath } = this.paths(id);
    const text = await readFile(manifestPath, 'utf8').catch(() => null); // absent or unreadable: none
    if (text === null) return null;
    try {
      const manifest = JSON.parse(text) as StudioModelManifest;
      if (manifest.schemaVersion !== 1 || manifest.id !== id) throw new Error(`schemaVersion ${manifest.schemaVersion}, id ${manifest.id}`);
      return manifest;
    } catch (err) {
      throw new StudioError('model-invalid', `${manifestPath} is not a studio model manifest (${(err as Error).message}); remove the model and pull it again`, { path: manifestPath });
    }
  }

  /** Writes the manifest through a temporary file and a rename, so a crash never leaves half a manifest. */
  async writeManifest(manifest: StudioModelManifest): Promise<void> {
    const { dir, manifestPath } = this.paths(manifest.id);
    await mkdir(dir, { recursive: true });
    const tmp = `${manifestPath}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ ...manifest, updatedAt: new Date().toISOString() }, null, 2)}\n`);
    await rename(tmp, manifestPath);
  }

  /** Ids of every folder under the root that holds a manifest. */
  async listIds(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.rootDir);
    } catch {
      return [];
    }
    const ids: string[] = [];
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      if (await exists(path.join(this.rootDir, name, MANIFEST_FILE_NAME))) ids.push(name);
    }
    return ids;
  }

  async remove(id: string): Promise<void> {
    const { dir, quarantineDir } = this.paths(id);
    await rm(dir, { recursive: true, force: true });
    await rm(quarantineDir, { recursive: true, force: true });
  }
}

/** Bytes of every file below `dir` (0 when it does not exist). */
export async function folderSizeBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderSizeBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

/** Relative paths ('/'-separated) of every file below `dir`. */
export async function listFilesRecursive(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFilesRecursive(path.join(dir, e.name), rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
