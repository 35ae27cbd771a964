/**
 * ModelManager: the one entry point for models on this machine. pull() brings a hub repo (or
 * registers a local checkpoint folder), verifies it and builds its ONNX graphs; list(), remove(),
 * verify() and resolve() work on what is installed under the models folder. The CLI
 * (`studio model …`), the Models page and engine start-up call this and nothing below it.
 */
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { availableBytes, formatBytes, type StatfsLike } from './disk-space';
import { HubClient } from './hub-client';
import { createHubFetch, type FetchLike } from './hub-fetch';
import { pullFromHub } from './hub-pull';
import { findKnownModel, loadKnownModels, type KnownModel } from './known-models';
import { importLocalDir } from './local-import';
import { buildFilesIntact, buildIfNeeded, checkpointDirOf } from './model-build-step';
import { defaultModelBuilder, type ModelBuilder } from './model-builder-port';
import { resolveModelManagerConfig, type ModelManagerConfig } from './model-manager-config';
import { folderSizeBytes, modelIdForLocalDir, modelIdForRepo, ModelStore } from './model-store';
import type { ModelEntry, ModelStatus, PullOptions, PullPlan, StudioModelManifest, VerifyReport } from './model-types';
import { verifyModel } from './model-verify';
import { PullProgressTracker } from './pull-progress';

export interface ModelManagerOptions extends Partial<ModelManagerConfig> {
  /** Replaces fetch (tests, custom transports); default Node's fetch, or undici through HTTPS_PROXY. */
  fetchImpl?: FetchLike;
  /** Replaces fs.statfs for the free-space check. */
  statfs?: StatfsLike;
  /** Replaces the model builder (default: buildModel from src-main/model-builder/build.ts). */
  builder?: ModelBuilder;
  /** Where known-models.json is; default resources/models/known-models.json under the app root. */
  knownModelsPath?: string;
  /** Environment read for defaults (HF_TOKEN, HF_ENDPOINT, HTTPS_PROXY…); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** A known model with what is installed of it. */
export interface KnownModelStatus extends KnownModel {
  id: string;
  status: ModelStatus | null;
}

/** What pull() was asked for, after aliases and paths are told apart. */
export type PullTarget = { kind: 'hub'; repo: string } | { kind: 'local'; dir: string };

const REPO_ID = /^[\w.-]+\/[\w.-]+$/;

export class ModelManager {
  readonly config: Readonly<ModelManagerConfig>;
  private readonly store: ModelStore;
  private readonly inFlight = new Set<string>();
  private knownModels: Promise<KnownModel[]> | null = null;
  private hubClient: HubClient | null = null;

  constructor(private readonly options: ModelManagerOptions = {}) {
    const { fetchImpl: _f, statfs: _s, builder: _b, knownModelsPath: _k, env, ...overrides } = options;
    this.config = resolveModelManagerConfig(overrides, env);
    this.store = new ModelStore(this.config.rootDir);
  }

  /**
   * Downloads (or registers) a model, verifies every file and builds its graphs; returns the entry.
   * `repoOrPath`: a hub repo id ("Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"), a known alias
   * ("0.6b-customvoice") or a local checkpoint folder. Safe to call again after any failure:
   * verified files are kept, partial files resume, a half-built model is rebuilt.
   */
  async pull(repoOrPath: string, options: PullOptions = {}): Promise<ModelEntry> {
    const target = await this.parseTarget(repoOrPath);
    const id = target.kind === 'hub' ? modelIdForRepo(target.repo) : modelIdForLocalDir(target.dir);
    if (this.inFlight.has(id)) throw new StudioError('busy', `${id} is already being pulled; wait for that pull to finish`, { id });
    this.inFlight.add(id);
    const progress = new PullProgressTracker(id, options.onProgress);
    try {
      let manifest: StudioModelManifest =
        target.kind === 'hub'
          ? await pullFromHub(
              { config: this.config, store: this.store, client: () => this.client(), statfs: this.options.statfs },
              { repo: target.repo, revision: options.revision ?? 'main', skipBuild: options.skipBuild === true, progress, signal: options.signal },
            )
          : await importLocalDir(this.store, target.dir, progress);
      if (!options.skipBuild) {
        options.signal?.throwIfAborted();
        manifest = await buildIfNeeded(this.store, manifest, this.options.builder ?? defaultModelBuilder, options.dtype ?? this.config.dtype, progress);
      }
      progress.setPhase('done', `${id} is ${manifest.status}`);
      return this.entryOf(manifest);
    } finally {
      this.inFlight.delete(id);
    }
  }

  /**
   * What pull() would do, before it does it: the target told apart, how many bytes it would
   * download (known-model size, minus what is already verified) and build, the free space, and
   * why it cannot run (offline with nothing on disk, or too little space). Never touches the network.
   */
  async planPull(repoOrPath: string): Promise<PullPlan> {
    const target = await this.parseTarget(repoOrPath);
    const id = target.kind === 'hub' ? modelIdForRepo(target.repo) : modelIdForLocalDir(target.dir);
    const manifest = await this.store.readManifest(id);
    const installedBytes = manifest ? await folderSizeBytes(this.store.paths(id).dir) : 0;
    let downloadBytes: number | null = 0;
    let checkpointBytes: number | null;
    if (target.kind === 'hub') {
      const known = findKnownModel(await this.known().catch(() => []), target.repo);
      const recordedBytes = manifest?.files.reduce((n, f) => n + f.sizeBytes, 0) ?? 0;
      checkpointBytes = known?.approxSizeBytes ?? (manifest?.status === 'downloading' || !manifest ? null : recordedBytes);
      downloadBytes = manifest && manifest.status !== 'downloading' ? 0 : checkpointBytes === null ? null : Math.max(0, checkpointBytes - installedBytes);
    } else {
      checkpointBytes = await folderSizeBytes(target.dir);
    }
    const buildBytes = manifest?.status === 'ready' || checkpointBytes === null ? 0 : Math.round(checkpointBytes * this.config.buildSizeFactor);
    const freeBytes = await this.freeBytes();
    const neededBytes = (downloadBytes ?? 0) + buildBytes + this.config.reserveBytes;
    let blockedReason: string | null = null;
    if (target.kind === 'hub' && this.config.offline && (!manifest || manifest.status === 'downloading')) {
      blockedReason = `offline mode is on (STUDIO_OFFLINE=1, HF_HUB_OFFLINE=1 or --offline) and ${target.repo} is not fully downloaded; turn offline mode off to download it, or import a checkpoint folder that is already on disk`;
    } else if (freeBytes !== null && freeBytes < neededBytes) {
      blockedReason = `needs about ${formatBytes(neededBytes)} (download, build and ${formatBytes(this.config.reserveBytes)} headroom) but only ${formatBytes(freeBytes)} is free under ${this.config.rootDir}; free some space first`;
    }
    return {
      target: target.kind === 'hub' ? target.repo : target.dir,
      kind: target.kind,
      id,
      status: manifest?.status ?? null,
      downloadBytes,
      buildBytes,
      freeBytes,
      offline: this.config.offline,
      blockedReason,
    };
  }

  /** Bytes free on the volume holding the models folder (its nearest existing parent); null when statfs fails. */
  async freeBytes(): Promise<number | null> {
    let dir = this.config.rootDir;
    while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return availableBytes(dir, this.options.statfs).catch(() => null);
  }

  /** Every installed model (any status), with its size on disk. */
  async list(): Promise<ModelEntry[]> {
    const entries: ModelEntry[] = [];
    for (const id of await this.store.listIds()) {
      const manifest = await this.store.readManifest(id);
      if (manifest) entries.push(await this.entryOf(manifest));
    }
    return entries;
  }

  /** The known models list with what is installed of each. */
  async listKnown(): Promise<KnownModelStatus[]> {
    const known = await this.known();
    const out: KnownModelStatus[] = [];
    for (const k of known) {
      const id = modelIdForRepo(k.repo);
      out.push({ ...k, id, status: (await this.store.readManifest(id))?.status ?? null });
    }
    return out;
  }

  /** One installed model; `idOrRepo` may be the id, the repo id, a known alias or the local folder. */
  async get(idOrRepo: string): Promise<ModelEntry> {
    return this.entryOf(await this.manifestOf(idOrRepo));
  }

  /** Deletes the model's folder (checkpoint, partial files, graphs) and its quarantine. A local source folder is left alone. */
  async remove(idOrRepo: string): Promise<void> {
    const manifest = await this.manifestOf(idOrRepo);
    if (this.inFlight.has(manifest.id)) throw new StudioError('busy', `${manifest.id} is being pulled; cancel the pull before removing it`, { id: manifest.id });
    await this.store.remove(manifest.id);
  }

  /** Re-hashes every file against studio-model.json; bad downloaded files are quarantined (see model-verify.ts). */
  async verify(idOrRepo: string, onFile?: (path: string) => void): Promise<VerifyReport> {
    return verifyModel(this.store, await this.manifestOf(idOrRepo), onFile);
  }

  /**
   * The folder of built graphs the engine loads (it holds the builder's manifest.json):
   * `<root>/<id>/onnx/<builtSubdir>`.
   * Refuses anything that is not 'ready', naming the fix.
   */
  async resolve(idOrRepo: string): Promise<string> {
    const manifest = await this.manifestOf(idOrRepo);
    const { buildDir } = this.store.paths(manifest.id);
    const pullHint = `run \`studio model pull ${pullNameOf(manifest)}\``;
    switch (manifest.status) {
      case 'downloading':
        throw new StudioError('model-missing', `${manifest.id} is not fully downloaded; ${pullHint} to resume`, { id: manifest.id, status: manifest.status });
      case 'downloaded':
        throw new StudioError('model-missing', `${manifest.id} is downloaded but its ONNX graphs are not built; ${pullHint} to build them`, { id: manifest.id, status: manifest.status });
      case 'building':
        throw new StudioError('model-invalid', `${manifest.id} was left half-built (the build did not finish); ${pullHint} to rebuild it`, { id: manifest.id, status: manifest.status });
      case 'ready':
        if (!(await buildFilesIntact(buildDir, manifest.build?.files ?? []))) {
          throw new StudioError('model-invalid', `${manifest.id}'s built graphs in ${buildDir} are missing or changed size; ${pullHint} to rebuild them`, { id: manifest.id });
        }
        return path.join(buildDir, manifest.build?.builtSubdir ?? '');
    }
  }

  /** Tells a hub repo, a known alias and a local folder apart. */
  async parseTarget(repoOrPath: string): Promise<PullTarget> {
    const trimmed = repoOrPath.trim();
    const expanded = trimmed.startsWith('~') ? path.join(os.homedir(), trimmed.slice(1)) : trimmed;
    const looksLikePath = path.isAbsolute(expanded) || expanded.startsWith('.') || expanded.includes('\\');
    if (looksLikePath || (existsSync(expanded) && statSync(expanded).isDirectory())) {
      if (!existsSync(expanded)) throw new StudioError('not-found', `no folder at ${path.resolve(expanded)}; give a hub repo id like Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice or an existing checkpoint folder`, { path: expanded });
      return { kind: 'local', dir: path.resolve(expanded) };
    }
    const known = findKnownModel(await this.known(), trimmed);
    if (known) return { kind: 'hub', repo: known.repo };
    if (REPO_ID.test(trimmed)) return { kind: 'hub', repo: trimmed };
    const aliases = (await this.known()).map((k) => k.alias).join(', ');
    throw new StudioError('invalid-argument', `${JSON.stringify(repoOrPath)} is neither a hub repo id (owner/name), a known model (${aliases}) nor a folder`, { target: repoOrPath });
  }

  private async manifestOf(idOrRepo: string): Promise<StudioModelManifest> {
    const candidates = new Set<string>();
    if (/^[\w.-]+$/.test(idOrRepo) && !idOrRepo.startsWith('.')) candidates.add(idOrRepo);
    const known = findKnownModel(await this.known().catch(() => []), idOrRepo);
    if (known) candidates.add(modelIdForRepo(known.repo));
    if (REPO_ID.test(idOrRepo)) candidates.add(modelIdForRepo(idOrRepo));
    if (existsSync(idOrRepo)) candidates.add(modelIdForLocalDir(path.resolve(idOrRepo)));
    for (const id of candidates) {
      const manifest = await this.store.readManifest(id);
      if (manifest) return manifest;
    }
    throw new StudioError('not-found', `no installed model ${JSON.stringify(idOrRepo)} under ${this.config.rootDir}; \`studio model list\` shows what is installed, \`studio model pull\` adds one`, { id: idOrRepo });
  }

  private async entryOf(manifest: StudioModelManifest): Promise<ModelEntry> {
    const paths = this.store.paths(manifest.id);
    const repo = manifest.source.kind === 'hub' ? manifest.source.repo : null;
    const known = repo ? findKnownModel(await this.known().catch(() => []), repo) : null;
    return {
      id: manifest.id,
      dir: paths.dir,
      checkpointDir: checkpointDirOf(this.store, manifest),
      buildDir: path.join(paths.buildDir, manifest.build?.builtSubdir ?? ''),
      status: manifest.status,
      source: manifest.source,
      diskSizeBytes: await folderSizeBytes(paths.dir),
      numFiles: manifest.files.length,
      knownName: known?.displayName ?? null,
    };
  }

  private known(): Promise<KnownModel[]> {
    this.knownModels ??= loadKnownModels(this.options.knownModelsPath);
    return this.knownModels;
  }

  private client(): HubClient {
    if (this.config.offline) throw new StudioError('internal', 'offline mode reached the hub client; this is a bug in the model manager');
    this.hubClient ??= new HubClient(this.config.endpoint, this.config.token, this.options.fetchImpl ?? createHubFetch(this.options.env));
    return this.hubClient;
  }
}

export function createModelManager(options: ModelManagerOptions = {}): ModelManager {
  return new ModelManager(options);
}

function pullNameOf(manifest: StudioModelManifest): string {
  return manifest.source.kind === 'hub' ? manifest.source.repo : manifest.source.path;
}
