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
  planPull: 'studio:models.planPull',
  cancelPull: 'studio:models.cancelPull',
  modelsState: 'studio:models.state',
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
  /** The hub repo id to pull ('Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice'), or null for local and embedded models. */
  repo: string | null;
  /** The checkpoint folder a local model was imported from, else null. */
  localPath: string | null;
  /** The checkpoint's type (config.json tts_model_type), so imported models say what they speak; null or absent when unknown. */
  modelType?: ModelType | null;
}

/** What a checkpoint speaks: preset speakers (CustomVoice), a described voice (VoiceDesign) or cloned voices (Base). */
export type ModelType = 'custom_voice' | 'voice_design' | 'base';

/** What a pull would do, shown for confirmation before anything is downloaded; sizes in bytes, null when unknown. */
export interface PullPlan {
  /** The hub repo id or absolute checkpoint folder the request resolved to. */
  target: string;
  kind: 'hub' | 'local';
  /** The installed model id it will have. */
  id: string;
  status: ModelEntry['status'] | null;
  downloadBytes: number | null;
  buildBytes: number;
  freeBytes: number | null;
  offline: boolean;
  /** Why it cannot run now (offline, disk space), naming the fix; null when it can. */
  blockedReason: string | null;
}

/** The model manager's surroundings, for the Models page header. */
export interface ModelsState {
  /** True when STUDIO_OFFLINE=1 or HF_HUB_OFFLINE=1: nothing is downloaded, local folders still import. */
  offline: boolean;
  endpoint: string;
  modelsDir: string;
  freeBytes: number | null;
  /** Models whose pull is running now (ids). */
  pulling: string[];
}

export interface PullProgress {
  modelId: string;
  phase: 'download' | 'verify' | 'build' | 'done' | 'failed' | 'cancelled';
  numBytesDone: number;
  numBytesTotal: number;
  message: string;
}

export interface ModelsApi {
  [MODEL_CHANNELS.listModels]: { request: Record<string, never>; response: ModelEntry[] };
  /**
   * `modelId`: a hub repo id, a known alias, an installed model id or a local checkpoint folder.
   * `build` (default true): also build the ONNX graphs; false downloads (or registers) only.
   */
  [MODEL_CHANNELS.pullModel]: { request: { modelId: string; build?: boolean }; response: ModelEntry };
  [MODEL_CHANNELS.planPull]: { request: { modelId: string }; response: PullPlan };
  [MODEL_CHANNELS.cancelPull]: { request: { modelId: string }; response: { cancelled: boolean } };
  [MODEL_CHANNELS.modelsState]: { request: Record<string, never>; response: ModelsState };
  [MODEL_CHANNELS.removeModel]: { request: { modelId: string }; response: { removed: boolean } };
  [MODEL_CHANNELS.verifyModel]: { request: { modelId: string }; response: { ok: boolean; problems: string[] } };
}

export interface ModelsEvents {
  [MODEL_EVENTS.onDidProgressPull]: PullProgress;
}
