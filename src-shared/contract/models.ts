/**
 * The models service of the studio contract: installed models (plus the embedded synthetic
 * test model), the known hub models, pull with progress, remove and verify. Types and channel
 * names only.
 */

export const MODEL_CHANNELS = Object.freeze({
  listModels: 'studio:models.list',
  pullModel: 'studio:models.pull',
  removeModel: 'studio:models.remove',
  verifyModel: 'studio:models.verify',
} as const);

export const MODEL_EVENTS = Object.freeze({
  onDidProgressPull: 'studio:models.onDidProgressPull',
} as const);

export interface ModelEntry {
  id: string;
  displayName: string;
  /** 'embedded': the synthetic tiny model with random weights (noise); 'installed': on disk; 'known': on the hub, not installed. */
  kind: 'embedded' | 'installed' | 'known';
  status: 'ready' | 'downloading' | 'downloaded' | 'building' | 'not-installed';
  synthetic: boolean;
  sizeBytes: number | null;
  summary: string;
  capabilities: string[];
}

export interface PullProgress {
  modelId: string;
  phase: 'download' | 'verify' | 'build' | 'done' | 'failed';
  numBytesDone: number;
  numBytesTotal: number;
  message: string;
}

export interface ModelsApi {
  [MODEL_CHANNELS.listModels]: { request: Record<string, never>; response: ModelEntry[] };
  [MODEL_CHANNELS.pullModel]: { request: { modelId: string }; response: ModelEntry };
  [MODEL_CHANNELS.removeModel]: { request: { modelId: string }; response: { removed: boolean } };
  [MODEL_CHANNELS.verifyModel]: { request: { modelId: string }; response: { ok: boolean; problems: string[] } };
}

export interface ModelsEvents {
  [MODEL_EVENTS.onDidProgressPull]: PullProgress;
}
