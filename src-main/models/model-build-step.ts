/**
 * Compiles a verified checkpoint into ONNX graphs with the model builder, safely: the builder
 * writes into `onnx.partial/`, the manifest says 'building' meanwhile, and only a finished build
 * is hashed, renamed to `onnx/` and marked 'ready'. A crash mid-build leaves 'building', which
 * resolve() refuses and the next pull rebuilds from scratch.
 */
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError, toStudioError } from '../../src-shared/errors';
import { sha256File } from './file-hash';
import { buildFractionOf, builtSubdirOf, type ModelBuilder } from './model-builder-port';
import { exists, listFilesRecursive, type ModelStore } from './model-store';
import type { ManifestFile, StudioModelManifest } from './model-types';
import type { PullProgressTracker } from './pull-progress';

export function checkpointDirOf(store: ModelStore, manifest: StudioModelManifest): string {
  return manifest.source.kind === 'local' ? manifest.source.path : store.paths(manifest.id).checkpointDir;
}

export async function buildIfNeeded(
  store: ModelStore,
  manifest: StudioModelManifest,
  builder: ModelBuilder,
  dtype: string,
  progress: PullProgressTracker,
): Promise<StudioModelManifest> {
  const paths = store.paths(manifest.id);
  if (manifest.status === 'ready' && manifest.build?.dtype === dtype && (await buildFilesIntact(paths.buildDir, manifest.build.files))) {
    return manifest;
  }
  const startedMs = performance.now();
  await rm(paths.partialBuildDir, { recursive: true, force: true });
  const building: StudioModelManifest = { ...manifest, status: 'building', build: null };
  await store.writeManifest(building);
  progress.setPhase('building', `building ONNX graphs (${dtype})`, 0);
  let builtSubdir = '';
  try {
    const result = await builder({
      checkpointDir: checkpointDirOf(store, manifest),
      outDir: paths.partialBuildDir,
      dtype,
      onProgress: (p) => {
        const { fraction, message } = buildFractionOf(p);
        progress.setPhase('building', message || 'building ONNX graphs', fraction);
      },
    });
    builtSubdir = builtSubdirOf(result, paths.partialBuildDir);
  } catch (err) {
    await rm(paths.partialBuildDir, { recursive: true, force: true });
    await store.writeManifest({ ...manifest, status: 'downloaded', build: null });
    const cause = toStudioError(err);
    throw new StudioError(cause.code, `building ${manifest.id} failed: ${cause.message}`, { ...cause.details, id: manifest.id });
  }
  const files: ManifestFile[] = [];
  for (const rel of await listFilesRecursive(paths.partialBuildDir)) {
    const abs = path.join(paths.partialBuildDir, rel);
    files.push({ path: rel, sizeBytes: (await stat(abs)).size, sha256: await sha256File(abs) });
  }
  await rm(paths.buildDir, { recursive: true, force: true });
  await rename(paths.partialBuildDir, paths.buildDir);
  const ready: StudioModelManifest = {
    ...manifest,
    status: 'ready',
    build: { dtype, builtSubdir, builtAt: new Date().toISOString(), durationMs: Math.round(performance.now() - startedMs), files },
  };
  await store.writeManifest(ready);
  progress.setPhase('building', 'built', 1);
  return ready;
}

/** Cheap check (sizes only) that every recorded build file is still there. */
export async function buildFilesIntact(buildDir: string, files: readonly ManifestFile[]): Promise<boolean> {
  if (files.length === 0 || !(await exists(buildDir))) return false;
  for (const f of files) {
    try {
      if ((await stat(path.join(buildDir, f.path))).size !== f.sizeBytes) return false;
    } catch {
      return false;
    }
  }
  return true;
}
