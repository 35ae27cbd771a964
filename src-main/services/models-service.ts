/**
 * The models service behind the Models page: the embedded synthetic model, installed models from
 * the model store and known hub models, merged into one list; pull, remove and verify go to the
 * model manager when one is provided. Owns no downloads itself.
 */
import { StudioError } from '../../src-shared/errors';
import type { ModelEntry, PullProgress } from '../../src-shared/contract/models';
import type { ModelInfo } from '../../src-shared/synthesis';
import { loadKnownModels, type KnownModel } from '../models/known-models';
import { ModelStore, modelIdForRepo } from '../models/model-store';

/** What the service needs of the model manager (pull with progress, verify, remove). */
export interface ModelManagerPort {
  pull(modelId: string, onProgress: (p: PullProgress) => void): Promise<void>;
  verify(modelId: string): Promise<{ ok: boolean; problems: string[] }>;
  remove(modelId: string): Promise<void>;
}

export interface ModelsServiceOptions {
  modelsDir: string;
  loadedModel: () => Promise<ModelInfo | null>;
  knownModels?: () => Promise<KnownModel[]>;
  manager?: ModelManagerPort;
}

export const EMBEDDED_MODEL_ID = 'embedded:tiny';

export class ModelsService {
  private readonly store: ModelStore;

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
      },
    ];
    if (loaded && !loaded.synthetic) {
      entries.push({ id: loaded.id, displayName: loaded.displayName, kind: 'installed', status: 'ready', synthetic: false, sizeBytes: null, summary: `loaded from ${loaded.path}`, capabilities: loaded.supportsInstruct ? ['preset-speakers', 'instruct'] : ['preset-speakers'] });
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
        displayName: k?.displayName ?? id,
        kind: 'installed',
        status: manifest.status,
        synthetic: false,
        sizeBytes: manifest.files.reduce((n, f) => n + f.sizeBytes, 0),
        summary: k?.summary ?? (manifest.source.kind === 'hub' ? manifest.source.repo : manifest.source.path),
        capabilities: k?.capabilities ?? [],
      });
    }
    for (const k of known) {
      const id = modelIdForRepo(k.repo);
      if (installedIds.has(id) || entries.some((e) => e.id === id)) continue;
      entries.push({ id, displayName: k.displayName, kind: 'known', status: 'not-installed', synthetic: false, sizeBytes: k.approxSizeBytes, summary: k.summary, capabilities: k.capabilities });
    }
    return entries;
  }

  async pullModel(modelId: string, onProgress: (p: PullProgress) => void): Promise<ModelEntry> {
    const manager = this.requireManager('pull', modelId);
    await manager.pull(modelId, onProgress);
    const entry = (await this.listModels()).find((e) => e.id === modelId);
    if (!entry) throw new StudioError('internal', `model ${modelId} finished pulling but is not in the models folder ${this.options.modelsDir}; pull it again`, { modelId });
    return entry;
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
