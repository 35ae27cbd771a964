/**
 * The models service behind the Models page: the embedded synthetic model, installed models from
 * the model store and known hub models, merged into one list; plan, pull (hub repo, alias, id or
 * local folder; cancellable), remove and verify go to the model manager when one is provided.
 * A folder named by a caller must lie inside the file grants (as every path a client names), so
 * the service never says whether other folders exist or how big they are. Owns no downloads itself.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { ModelEntry, ModelsState, ModelType, PullPlan, PullProgress } from '../../src-shared/contract/models';
import type { ModelInfo } from '../../src-shared/synthesis';
import { loadKnownModels, type KnownModel } from '../models/known-models';
import { ModelStore, modelIdForRepo } from '../models/model-store';
import type { FileGrants } from '../access/file-grants';

/** What the service needs of the model manager (plan, pull with progress, verify, remove). */
export interface ModelManagerPort {
  /** `target`: hub repo id, known alias or checkpoint folder; resolves to the installed model's id. */
  pull(target: string, onProgress: (p: PullProgress) => void, options?: { build?: boolean; signal?: AbortSignal }): Promise<{ id: string }>;
  plan(target: string): Promise<PullPlan>;
  state(): Promise<Omit<ModelsState, 'pulling'>>;
  verify(modelId: string): Promise<{ ok: boolean; problems: string[] }>;
  remove(modelId: string): Promise<void>;
}

export interface ModelsServiceOptions {
  modelsDir: string;
  loadedModel: () => Promise<ModelInfo | null>;
  knownModels?: () => Promise<KnownModel[]>;
  manager?: ModelManagerPort;
  /** Where checkpoint folders may be read from; without grants no folder is accepted (hub models and installed ids only). */
  grants?: FileGrants;
}

/** A target that names a folder rather than a hub repo, alias or installed id (the model manager's rule, plus file: URLs and ~). */
export function looksLikeFolder(target: string): boolean {
  const t = target.trim();
  return path.isAbsolute(t) || t.startsWith('.') || t.startsWith('~') || t.includes('\\') || /^file:/i.test(t);
}

const FOLDER_REFUSED =
  'that folder is not available to this client; put the checkpoint folder under the data folder\'s imports/ folder and name it there, or import it from a terminal with `studio model pull <folder>`';

export const EMBEDDED_MODEL_ID = 'embedded:tiny';

const MODEL_TYPES: readonly ModelType[] = ['custom_voice', 'voice_design', 'base'];

/** A checkpoint folder's type from its config.json (tts_model_type), or null when it cannot be read. */
async function readModelType(checkpointDir: string): Promise<ModelType | null> {
  try {
    const config = JSON.parse(await readFile(path.join(checkpointDir, 'config.json'), 'utf8')) as { tts_model_type?: unknown };
    return MODEL_TYPES.find((t) => t === config.tts_model_type) ?? null;
  } catch {
    return null;
  }
}

/** A known hub model's type from what it can do. */
function typeOfCapabilities(capabilities: readonly string[]): ModelType {
  if (capabilities.includes('voice-clone')) return 'base';
  if (capabilities.includes('voice-design')) return 'voice_design';
  return 'custom_voice';
}

export class ModelsService {
  private readonly store: ModelStore;
  /** Running pulls by the model id they install, so they can be cancelled and shown. */
  private readonly pulls = new Map<string, AbortController>();

  constructor(private readonly options: ModelsServiceOptions) {
    this.store = new ModelStore(options.modelsDir);
  }

  async listModels(): Promise<ModelEntry[]> {
    const loaded = await this.options.loadedModel().catch(() => null);
    const entries: ModelEntry[] = [
      {
        id: EMBEDDED_MODEL_ID,
        displayName: 'Embedded test model (random weights)',
        kind: 'embedded',
        status: 'ready',
        synthetic: true,
        sizeBytes: null,
        summary: 'A tiny synthetic checkpoint with seeded random weights: it produces noise, not speech. For tests and trying the studio.',
        capabilities: ['preset-speakers'],
        repo: null,
        localPath: null,
        modelType: 'custom_voice',
      },
    ];
    if (loaded && !loaded.synthetic) {
      const manifest = await this.store.readManifest(loaded.id).catch(() => null);
      entries.push({
        id: loaded.id,
        displayName: loaded.displayName,
        kind: 'installed',
        status: 'ready',
        synthetic: false,
        sizeBytes: manifest ? manifest.files.reduce((n, f) => n + f.sizeBytes, 0) : null,
        summary: `loaded from ${loaded.path}`,
        capabilities: loaded.supportsInstruct ? ['preset-speakers', 'instruct'] : ['preset-speakers'],
        repo: manifest?.source.kind === 'hub' ? manifest.source.repo : null,
        localPath: manifest?.source.kind === 'local' ? manifest.source.path : null,
        modelType: loaded.kind,
      });
    }
    const known = await (this.options.knownModels ?? (() => loadKnownModels()))().catch(() => [] as KnownModel[]);
    const installedIds = new Set<string>();
    for (const id of await this.store.listIds().catch(() => [] as string[])) {
      const manifest = await this.store.readManifest(id).catch(() => null);
      if (!manifest || entries.some((e) => e.id === id)) continue;
      installedIds.add(id);
      const k = known.find((m) => modelIdForRepo(m.repo) === id);
      entries.push({
        id,
        displayName: k?.displayName ?? (manifest.source.kind === 'local' ? `${path.basename(manifest.source.path)} (local folder)` : manifest.source.repo),
        kind: 'installed',
        status: manifest.status,
        synthetic: false,
        sizeBytes: manifest.files.reduce((n, f) => n + f.sizeBytes, 0),
        summary: k?.summary ?? (manifest.source.kind === 'hub' ? `from the hub (${manifest.source.revision})` : 'imported from a checkpoint folder on this machine (read in place)'),
        capabilities: k?.capabilities ?? [],
        repo: manifest.source.kind === 'hub' ? manifest.source.repo : null,
        localPath: manifest.source.kind === 'local' ? manifest.source.path : null,
        // an imported folder is read in place; a pulled one lives in the store's checkpoint folder
        modelType: k ? typeOfCapabilities(k.capabilities) : await readModelType(manifest.source.kind === 'local' ? manifest.source.path : this.store.paths(id).checkpointDir),
      });
    }
    for (const k of known) {
      const id = modelIdForRepo(k.repo);
      if (installedIds.has(id) || entries.some((e) => e.id === id)) continue;
      entries.push({ id, displayName: k.displayName, kind: 'known', status: 'not-installed', synthetic: false, sizeBytes: k.approxSizeBytes, summary: k.summary, capabilities: k.capabilities, repo: k.repo, localPath: null, modelType: typeOfCapabilities(k.capabilities) });
    }
    return entries;
  }

  /**
   * Pulls a hub repo id, a known alias, an installed model id (its recorded source is pulled again:
   * resume, or build what is downloaded) or a local checkpoint folder; returns its entry.
   */
  async pullModel(target: string, onProgress: (p: PullProgress) => void, options: { build?: boolean } = {}): Promise<ModelEntry> {
    const manager = this.requireManager('pull', target);
    const source = await this.sourceOf(target);
    const plan = await manager.plan(source);
    if (plan.blockedReason) throw new StudioError(plan.offline ? 'model-missing' : 'disk-full', plan.blockedReason, { target: plan.target, offline: plan.offline });
    if (this.pulls.has(plan.id)) throw new StudioError('busy', `${plan.id} is already being pulled; wait for it or cancel it`, { modelId: plan.id });
    const controller = new AbortController();
    this.pulls.set(plan.id, controller);
    let id: string;
    try {
      ({ id } = await manager.pull(source, onProgress, { build: options.build ?? true, signal: controller.signal }));
    } catch (err) {
      const cancelled = controller.signal.aborted;
      onProgress({ modelId: plan.id, phase: cancelled ? 'cancelled' : 'failed', numBytesDone: 0, numBytesTotal: 0, message: cancelled ? 'cancelled; pull again to resume' : (err as Error).message });
      if (cancelled) throw new StudioError('cancelled', `pull of ${plan.target} was cancelled; pull again to resume where it stopped`, { modelId: plan.id });
      throw err;
    } finally {
      this.pulls.delete(plan.id);
    }
    const entry = (await this.listModels()).find((e) => e.id === id);
    if (!entry) throw new StudioError('internal', `model ${id} finished pulling but is not in the models folder ${this.options.modelsDir}; pull it again`, { modelId: id });
    return entry;
  }

  /** What pulling `target` would download and build, the free space, and whether it can run now. */
  async planPull(target: string): Promise<PullPlan> {
    return this.requireManager('plan', target).plan(await this.sourceOf(target));
  }

  /** Aborts a running pull (by target or installed id); its verified files and partial downloads stay for a resume. */
  async cancelPull(target: string): Promise<boolean> {
    const controller = this.pulls.get(target) ?? (this.options.manager ? this.pulls.get((await this.options.manager.plan(await this.sourceOf(target)).catch(() => null))?.id ?? '') : undefined);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  async modelsState(): Promise<ModelsState> {
    const base = this.options.manager ? await this.options.manager.state() : { offline: false, endpoint: '', modelsDir: this.options.modelsDir, freeBytes: null };
    return { ...base, pulling: [...this.pulls.keys()] };
  }

  /**
   * An installed model id → the repo or folder it came from; a folder → its real path when granted
   * (else one refusal that does not say whether it exists); a repo id or alias passes through.
   */
  private async sourceOf(target: string): Promise<string> {
    if (target === EMBEDDED_MODEL_ID) throw new StudioError('invalid-argument', 'the embedded test model is part of the app; there is nothing to pull', { modelId: target });
    if (looksLikeFolder(target)) {
      if (!this.options.grants?.isGranted(target.trim(), 'read')) throw new StudioError('forbidden', FOLDER_REFUSED, { field: 'modelId' });
      return this.options.grants.check(target.trim(), 'read');
    }
    if (/^[\w.-]+$/.test(target)) {
      const manifest = await this.store.readManifest(target).catch(() => null);
      if (manifest) return manifest.source.kind === 'hub' ? manifest.source.repo : manifest.source.path;
      const known = await (this.options.knownModels ?? (() => loadKnownModels()))().catch(() => [] as KnownModel[]);
      const k = known.find((m) => modelIdForRepo(m.repo) === target);
      if (k) return k.repo;
    }
    return target;
  }

  async removeModel(modelId: string): Promise<boolean> {
    if (modelId === EMBEDDED_MODEL_ID) throw new StudioError('invalid-argument', 'the embedded test model is part of the app and cannot be removed', { modelId });
    if ((await this.store.readManifest(modelId)) === null) return false;
    if (this.options.manager) await this.options.manager.remove(modelId);
    else await this.store.remove(modelId);
    return true;
  }

  async verifyModel(modelId: string): Promise<{ ok: boolean; problems: string[] }> {
    if (modelId === EMBEDDED_MODEL_ID) return { ok: true, problems: [] };
    return this.requireManager('verify', modelId).verify(modelId);
  }

  private requireManager(action: string, modelId: string): ModelManagerPort {
    if (!this.options.manager) {
      throw new StudioError('unsupported', `this host has no model manager wired in, so it cannot ${action} ${modelId}; run \`studio model ${action} ${modelId}\` from a terminal`, { modelId });
    }
    return this.options.manager;
  }
}
