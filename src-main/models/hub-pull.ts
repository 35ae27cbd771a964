/**
 * Brings a hub repo's files for one pinned commit into `<root>/<id>/checkpoint/`: lists the
 * revision, skips files already verified, checks free space, downloads the rest in parallel
 * (bounded) with automatic resume on dropped connections, and records every verified file in
 * studio-model.json as it lands. In offline mode it only checks what is on disk.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { ensureDiskSpace, formatBytes, type StatfsLike } from './disk-space';
import { downloadHubFile } from './file-download';
import type { HubClient, HubFile } from './hub-client';
import type { ModelManagerConfig } from './model-manager-config';
import { modelIdForRepo, type ModelStore } from './model-store';
import type { ManifestFile, StudioModelManifest } from './model-types';
import type { PullProgressTracker } from './pull-progress';

export interface HubPullContext {
  config: Readonly<ModelManagerConfig>;
  store: ModelStore;
  client: () => HubClient;
  statfs?: StatfsLike;
}

export interface HubPullRequest {
  repo: string;
  revision: string;
  skipBuild: boolean;
  progress: PullProgressTracker;
  signal?: AbortSignal;
}

export async function pullFromHub(ctx: HubPullContext, req: HubPullRequest): Promise<StudioModelManifest> {
  const id = modelIdForRepo(req.repo);
  const paths = ctx.store.paths(id);
  const existing = await ctx.store.readManifest(id);
  if (ctx.config.offline) return checkOffline(ctx, req, existing);

  req.progress.setPhase('listing', `listing ${req.repo}@${req.revision}`);
  const revision = await ctx.client().getRevision(req.repo, req.revision, req.signal);
  const sameCommit = existing?.source.kind === 'hub' && existing.source.commitSha === revision.commitSha;
  const recorded = new Map((existing?.files ?? []).map((f) => [f.path, f]));

  // Plan: keep files already verified for this content; everything else is (re)downloaded.
  const kept: ManifestFile[] = [];
  const todo: HubFile[] = [];
  let numBytesToFetch = 0;
  for (const file of revision.files) {
    const destPath = path.join(paths.checkpointDir, file.path);
    const prior = recorded.get(file.path);
    const sameContent = prior !== undefined && prior.sizeBytes === file.sizeBytes && (sameCommit || (file.lfsSha256 !== null && prior.sha256 === file.lfsSha256));
    if (sameContent && (await sizeOf(destPath)) === file.sizeBytes) {
      kept.push(prior);
      req.progress.addFile(file.path, file.sizeBytes, 'skipped', file.sizeBytes);
      continue;
    }
    todo.push(file);
    const partBytes = (await sizeOf(`${destPath}.part`)) ?? 0;
    numBytesToFetch += Math.max(0, file.sizeBytes - partBytes);
    req.progress.addFile(file.path, file.sizeBytes, 'queued', 0);
  }

  const builtForThisCommit = sameCommit && todo.length === 0 && existing?.build !== null;
  const safetensorsBytes = revision.files.filter((f) => f.path.endsWith('.safetensors')).reduce((s, f) => s + f.sizeBytes, 0);
  const numBuildBytes = req.skipBuild || builtForThisCommit ? 0 : Math.round(safetensorsBytes * ctx.config.buildSizeFactor);
  await mkdir(paths.dir, { recursive: true });
  await ensureDiskSpace(paths.dir, numBytesToFetch + numBuildBytes, ctx.config.reserveBytes, `pulling ${req.repo} (${formatBytes(numBytesToFetch)} to download, ${formatBytes(numBuildBytes)} for the built graphs)`, ctx.statfs);

  const manifest: StudioModelManifest = {
    schemaVersion: 1,
    id,
    source: { kind: 'hub', repo: req.repo, revision: req.revision, commitSha: revision.commitSha, endpoint: ctx.config.endpoint },
    status: todo.length === 0 && existing ? existing.status : 'downloading',
    files: kept,
    build: todo.length === 0 && sameCommit ? (existing?.build ?? null) : null,
    createdAt: existing?.createdAt ?? new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  if (todo.length > 0 && manifest.status !== 'downloading') manifest.status = 'downloading';
  await ctx.store.writeManifest(manifest);
  await removeStaleFiles(paths.checkpointDir, existing, new Set(revision.files.map((f) => f.path)));

  req.progress.setPhase('downloading', `downloading ${todo.length} of ${revision.files.length} files (${formatBytes(numBytesToFetch)})`);
  let writeChain = Promise.resolve();
  const record = (entry: ManifestFile) => {
    manifest.files.push(entry);
    manifest.files.sort((a, b) => a.path.localeCompare(b.path));
    writeChain = writeChain.then(() => ctx.store.writeManifest(manifest));
    return writeChain;
  };
  const errors = await runBounded(todo, ctx.config.numParallelFiles, async (file) => {
    const result = await downloadWithRetries(ctx, req, file, revision.commitSha);
    await record({ path: file.path, sizeBytes: result.sizeBytes, sha256: result.sha256 });
  });
  await writeChain;
  if (errors.length > 0) throw pickError(errors, todo.length);

  if (manifest.status === 'downloading') {
    manifest.status = 'downloaded';
    await ctx.store.writeManifest(manifest);
  }
  return manifest;
}

async function downloadWithRetries(ctx: HubPullContext, req: HubPullRequest, file: HubFile, commitSha: string) {
  const paths = ctx.store.paths(modelIdForRepo(req.repo));
  for (let attempt = 0; ; attempt++) {
    try {
      req.progress.updateFile(file.path, { state: 'downloading' }, attempt > 0 ? `resuming ${file.path} (attempt ${attempt + 1})` : `downloading ${file.path}`);
      const result = await downloadHubFile({
        client: ctx.client(),
        repo: req.repo,
        commitSha,
        file,
        destPath: path.join(paths.checkpointDir, file.path),
        quarantineDir: paths.quarantineDir,
        stallTimeoutMs: ctx.config.stallTimeoutMs,
        signal: req.signal,
        onVerifying: () => req.progress.updateFile(file.path, { state: 'verifying' }, `re-hashing the partial ${file.path}`),
        onBytes: (receivedBytes, _total, resumedFromBytes) => req.progress.updateFile(file.path, { state: 'downloading', receivedBytes, resumedFromBytes }),
      });
      req.progress.updateFile(file.path, { state: 'done', receivedBytes: file.sizeBytes }, `verified ${file.path}`);
      return result;
    } catch (err) {
      const retryable = err instanceof StudioError && err.code === 'network' && attempt < ctx.config.numRetries;
      if (!retryable) {
        req.progress.updateFile(file.path, { state: 'failed' }, (err as Error).message);
        throw err;
      }
      await delay(ctx.config.retryDelayMs * 2 ** attempt, req.signal);
    }
  }
}

/** Offline: nothing is fetched; the model must already be complete on disk, else say what is missing. */
async function checkOffline(ctx: HubPullContext, req: HubPullRequest, existing: StudioModelManifest | null): Promise<StudioModelManifest> {
  const help = `offline mode is on (STUDIO_OFFLINE=1, HF_HUB_OFFLINE=1 or --offline): unset it (e.g. \`STUDIO_OFFLINE= studio model pull ${req.repo}\`) on a connected machine, or import a checkpoint folder already on disk with \`studio model pull <folder>\``;
  if (existing === null || existing.source.kind !== 'hub') {
    throw new StudioError('model-missing', `offline mode: ${req.repo} is not downloaded (no ${ctx.store.paths(modelIdForRepo(req.repo)).manifestPath}); ${help}`, { repo: req.repo, offline: true });
  }
  const source = existing.source;
  if (req.revision !== source.revision && req.revision !== source.commitSha) {
    throw new StudioError('model-missing', `offline mode: ${req.repo}@${req.revision} is not on disk, only revision ${source.revision} (commit ${source.commitSha.slice(0, 12)}); ${help}`, { repo: req.repo, revision: req.revision, offline: true });
  }
  const checkpointDir = ctx.store.paths(existing.id).checkpointDir;
  const missing: string[] = [];
  for (const f of existing.files) if ((await sizeOf(path.join(checkpointDir, f.path))) !== f.sizeBytes) missing.push(f.path);
  if (existing.status === 'downloading' || missing.length > 0) {
    const what = missing.length > 0 ? `files missing or incomplete: ${missing.join(', ')}` : 'the download never finished, so the full file list is unknown';
    throw new StudioError('model-missing', `offline mode: ${req.repo} is incomplete (${what}); ${help}`, { repo: req.repo, offline: true, missing });
  }
  for (const f of existing.files) req.progress.addFile(f.path, f.sizeBytes, 'skipped', f.sizeBytes);
  return existing;
}

/** Files the previous commit had and this one does not (their partials too). */
async function removeStaleFiles(checkpointDir: string, existing: StudioModelManifest | null, current: Set<string>): Promise<void> {
  for (const f of existing?.files ?? []) {
    if (current.has(f.path)) continue;
    await rm(path.join(checkpointDir, f.path), { force: true });
  }
}

/** Runs `task` over items with at most `limit` at once; returns the errors (every item is tried). */
async function runBounded<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return errors;
}

/** The error to report when some files failed: cancellation first, then the most actionable. */
function pickError(errors: unknown[], numFiles: number): StudioError {
  const order = ['cancelled', 'unauthorized', 'not-found', 'disk-full', 'checksum-mismatch', 'network'];
  const studioErrors = errors.filter((e): e is StudioError => e instanceof StudioError);
  studioErrors.sort((a, b) => rank(a.code) - rank(b.code));
  const first = studioErrors[0];
  if (!first) return new StudioError('internal', `pull failed: ${String(errors[0])}`);
  if (errors.length === 1) return first;
  return new StudioError(first.code, `${errors.length} of ${numFiles} files failed; first: ${first.message}`, { ...first.details, numFailed: errors.length });

  function rank(code: string): number {
    const i = order.indexOf(code);
    return i < 0 ? order.length : i;
  }
}

async function sizeOf(p: string): Promise<number | null> {
  try {
    return (await stat(p)).size;
  } catch {
    return null;
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new StudioError('cancelled', 'pull cancelled'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new StudioError('cancelled', 'pull cancelled'))), { once: true });
  });
}
