/**
 * verify(): re-hashes every checkpoint and build file of an installed model against the sha256
 * recorded in studio-model.json. Bad downloaded files go to quarantine and the model drops back
 * to 'downloading' (so the next pull re-fetches just those); a local folder is only reported on,
 * never touched. A bad build file drops the model to 'downloaded' (the next pull rebuilds).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { quarantineFile } from './file-download';
import { sha256File } from './file-hash';
import { checkpointDirOf } from './model-build-step';
import type { ModelStore } from './model-store';
import type { ManifestFile, StudioModelManifest, VerifyFileStatus, VerifyReport } from './model-types';

export async function verifyModel(store: ModelStore, manifest: StudioModelManifest, onFile?: (path: string) => void): Promise<VerifyReport> {
  const paths = store.paths(manifest.id);
  const report: VerifyReport = { id: manifest.id, ok: true, numFilesChecked: 0, files: [] };
  const areas: { area: 'checkpoint' | 'build'; dir: string; files: readonly ManifestFile[]; mayQuarantine: boolean }[] = [
    { area: 'checkpoint', dir: checkpointDirOf(store, manifest), files: manifest.files, mayQuarantine: manifest.source.kind === 'hub' },
    { area: 'build', dir: paths.buildDir, files: manifest.build?.files ?? [], mayQuarantine: true },
  ];
  const badPaths = { checkpoint: new Set<string>(), build: false };
  for (const { area, dir, files, mayQuarantine } of areas) {
    for (const f of files) {
      onFile?.(f.path);
      const abs = path.join(dir, f.path);
      const status = await checkFile(abs, f);
      report.numFilesChecked++;
      let quarantinedTo: string | null = null;
      if (status !== 'ok') {
        report.ok = false;
        if (area === 'checkpoint') badPaths.checkpoint.add(f.path);
        else badPaths.build = true;
        if (mayQuarantine && status !== 'missing') quarantinedTo = await quarantineFile(abs, paths.quarantineDir, `${area}/${f.path}`);
      }
      report.files.push({ path: f.path, area, status, quarantinedTo });
    }
  }
  if (!report.ok) {
    const damaged: StudioModelManifest = { ...manifest };
    if (badPaths.checkpoint.size > 0 && manifest.source.kind === 'hub') {
      damaged.files = manifest.files.filter((f) => !badPaths.checkpoint.has(f.path));
      damaged.status = 'downloading';
      damaged.build = null;
    } else if (badPaths.checkpoint.size > 0) {
      damaged.status = 'downloaded';
      damaged.build = null;
    } else if (badPaths.build) {
      damaged.status = 'downloaded';
      damaged.build = null;
    }
    await store.writeManifest(damaged);
  }
  return report;
}

async function checkFile(abs: string, f: ManifestFile): Promise<VerifyFileStatus> {
  let sizeBytes: number;
  try {
    sizeBytes = (await stat(abs)).size;
  } catch {
    return 'missing';
  }
  if (sizeBytes !== f.sizeBytes) return 'size-mismatch';
  return (await sha256File(abs)) === f.sha256 ? 'ok' : 'checksum-mismatch';
}
