/**
 * Registers a checkpoint folder that is already on this machine: checks it has the official
 * layout, hashes every file (so verify can tell later if it changed) and writes the manifest.
 * The folder is read in place, never copied or modified.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { sha256File } from './file-hash';
import { exists, listFilesRecursive, modelIdForLocalDir, type ModelStore } from './model-store';
import type { ManifestFile, StudioModelManifest } from './model-types';
import type { PullProgressTracker } from './pull-progress';

/** Files every Qwen3-TTS checkpoint folder has (design.md, "Models"). */
export const REQUIRED_CHECKPOINT_FILES = ['config.json', 'model.safetensors'] as const;

export async function importLocalDir(store: ModelStore, dirPath: string, progress: PullProgressTracker): Promise<StudioModelManifest> {
  const absDir = path.resolve(dirPath);
  const missing: string[] = [];
  for (const name of REQUIRED_CHECKPOINT_FILES) if (!(await exists(path.join(absDir, name)))) missing.push(name);
  if (!(await exists(path.join(absDir, 'speech_tokenizer')))) missing.push('speech_tokenizer/');
  if (missing.length > 0) {
    throw new StudioError('model-invalid', `${absDir} is not a Qwen3-TTS checkpoint folder: missing ${missing.join(', ')}; point at the folder that holds config.json and model.safetensors`, { dir: absDir, missing });
  }
  const id = modelIdForLocalDir(absDir);
  const existing = await store.readManifest(id);
  const relPaths = (await listFilesRecursive(absDir)).filter((p) => !p.endsWith('.part'));
  const sizes = new Map<string, number>();
  for (const rel of relPaths) {
    const sizeBytes = (await stat(path.join(absDir, rel))).size;
    sizes.set(rel, sizeBytes);
    progress.addFile(rel, sizeBytes, 'queued');
  }
  progress.setPhase('verifying', `hashing ${relPaths.length} files in ${absDir}`);
  const files: ManifestFile[] = [];
  for (const rel of relPaths) {
    const sizeBytes = sizes.get(rel) ?? 0;
    let hashedBytes = 0;
    progress.updateFile(rel, { state: 'verifying' });
    const sha256 = await sha256File(path.join(absDir, rel), (n) => {
      hashedBytes += n;
      progress.updateFile(rel, { state: 'verifying', receivedBytes: hashedBytes });
    });
    progress.updateFile(rel, { state: 'done', receivedBytes: sizeBytes });
    files.push({ path: rel, sizeBytes, sha256 });
  }
  const unchanged = existing !== null && sameFiles(existing.files, files);
  const manifest: StudioModelManifest = {
    schemaVersion: 1,
    id,
    source: { kind: 'local', path: absDir },
    status: unchanged ? existing.status : 'downloaded',
    files,
    build: unchanged ? existing.build : null,
    createdAt: existing?.createdAt ?? new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  await store.writeManifest(manifest);
  return manifest;
}

function sameFiles(a: readonly ManifestFile[], b: readonly ManifestFile[]): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i].path && f.sha256 === b[i].sha256);
}
