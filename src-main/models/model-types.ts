/**
 * The shapes the model manager shares with its callers (CLI, Models page, engine start-up):
 * the local manifest `studio-model.json`, installed-model entries, pull progress and verify reports.
 * Types only; no I/O.
 */

/** Where an installed model's checkpoint came from. */
export type ModelSource =
  | { kind: 'hub'; repo: string; revision: string; commitSha: string; endpoint: string }
  | { kind: 'local'; path: string };

/**
 * 'downloading': files are missing or partial; 'downloaded': every file is verified, graphs not built;
 * 'building': a build started and did not finish (a crash leaves this; the next pull rebuilds);
 * 'ready': verified files and built graphs, the only state resolve() accepts.
 */
export type ModelStatus = 'downloading' | 'downloaded' | 'building' | 'ready';

export interface ManifestFile {
  /** Path relative to the checkpoint folder (or the build folder for built files), with '/' separators. */
  path: string;
  sizeBytes: number;
  sha256: string;
}

export interface ModelBuildRecord {
  dtype: string;
  /** Where the builder put the graphs, relative to the model's `onnx/` folder ('' = onnx/ itself). */
  builtSubdir: string;
  builtAt: string;
  durationMs: number;
  files: ManifestFile[];
}

/** The local manifest written as `studio-model.json` in the model's folder. */
export interface StudioModelManifest {
  schemaVersion: 1;
  id: string;
  source: ModelSource;
  status: ModelStatus;
  files: ManifestFile[];
  build: ModelBuildRecord | null;
  createdAt: string;
  updatedAt: string;
}

/** One installed model as list() reports it. */
export interface ModelEntry {
  id: string;
  dir: string;
  checkpointDir: string;
  buildDir: string;
  status: ModelStatus;
  source: ModelSource;
  /** Bytes the model's folder takes on disk (checkpoint, partial files and built graphs). */
  diskSizeBytes: number;
  numFiles: number;
  /** The known-models entry for this repo, when it is one. */
  knownName: string | null;
}

export type PullPhase = 'listing' | 'downloading' | 'verifying' | 'building' | 'done';

export type FileState = 'queued' | 'downloading' | 'verifying' | 'done' | 'skipped' | 'failed';

export interface FileProgress {
  path: string;
  state: FileState;
  receivedBytes: number;
  totalBytes: number;
  /** Bytes that were already on disk in `<name>.part` when this file's download started. */
  resumedFromBytes: number;
}

/** One progress event; `file` is the file it is about, or null for whole-pull events. */
export interface PullProgress {
  phase: PullPhase;
  modelId: string;
  receivedBytes: number;
  totalBytes: number;
  numFilesDone: number;
  numFiles: number;
  file: FileProgress | null;
  /** 0..1 during 'building', else null. */
  buildFraction: number | null;
  message: string;
}

export interface PullOptions {
  /** Branch, tag or commit sha; default 'main'. The resolved commit sha is pinned in the manifest. */
  revision?: string;
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
  /** Build dtype passed to the model builder; default from the manager config. */
  dtype?: string;
  /** Skip building the ONNX graphs (status stays 'downloaded'). */
  skipBuild?: boolean;
}

/** What pull() would do for a target (ModelManager.planPull); sizes in bytes, null when unknown. */
export interface PullPlan {
  /** The hub repo id or the absolute checkpoint folder the target resolved to. */
  target: string;
  kind: 'hub' | 'local';
  id: string;
  /** What is installed of it now, or null. */
  status: ModelStatus | null;
  /** Bytes still to download (0 for a local folder or a finished download; null when the size is unknown). */
  downloadBytes: number | null;
  /** Bytes the built graphs are expected to take (0 when already built). */
  buildBytes: number;
  freeBytes: number | null;
  offline: boolean;
  /** Why the pull cannot run now (offline, disk space), naming the fix; null when it can. */
  blockedReason: string | null;
}

export type VerifyFileStatus = 'ok' | 'missing' | 'size-mismatch' | 'checksum-mismatch';

export interface VerifyReport {
  id: string;
  ok: boolean;
  numFilesChecked: number;
  files: { path: string; area: 'checkpoint' | 'build'; status: VerifyFileStatus; quarantinedTo: string | null }[];
}
