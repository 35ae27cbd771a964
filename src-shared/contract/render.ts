/**
 * The render service of the studio contract: a long document (pasted text, a granted text/SSML
 * file or folder, or a project) rendered in parts on this machine's engines or, when a queue URL is
 * set, by `studio worker`s on BullMQ; per-chapter progress, failures with reasons, cancel, resume
 * (also after a restart) and the finished work saved to the Library. Types and channel names only.
 */
import type { SamplingParams } from '../synthesis';

export const RENDER_CHANNELS = Object.freeze({
  startRender: 'studio:render.start',
  listRenders: 'studio:render.list',
  cancelRender: 'studio:render.cancel',
  resumeRender: 'studio:render.resume',
  getRenderQueue: 'studio:render.getQueue',
  setRenderQueue: 'studio:render.setQueue',
} as const);

export const RENDER_EVENTS = Object.freeze({
  onDidChangeRender: 'studio:render.onDidChange',
} as const);

/** 'interrupted': the studio stopped while it ran (quit, crash); its finished parts are kept and Resume goes on. */
export type RenderState = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** What to render: text as typed, a text/SSML file or folder the caller may read, or a project's document. */
export type RenderSource =
  | { kind: 'text'; text: string; inputFormat: 'text' | 'ssml'; title: string }
  | { kind: 'file'; path: string }
  | { kind: 'project'; path: string };

export interface RenderStartRequest {
  source: RenderSource;
  voice: string;
  language: string;
  seed: number;
  params?: Partial<SamplingParams>;
  /** Folder for the parts and the result (a granted, writable one); default <data>/renders/<id>. */
  outputDir?: string;
}

export interface RenderJob {
  id: string;
  title: string;
  state: RenderState;
  /** 'queue': parts go to BullMQ workers (the queue URL set at start); 'local': this machine's engines. */
  mode: 'local' | 'queue';
  createdAtMs: number;
  updatedAtMs: number;
  voice: string;
  language: string;
  seed: number;
  outputDir: string;
  numParts: number;
  numDone: number;
  numFailed: number;
  chapters: { title: string; numDone: number; numParts: number }[];
  /** Parts that failed for good, with the reason (fix and Resume: finished parts are kept). */
  failures: { partIndex: number; chapter: number; reason: string }[];
  /** Tries that failed and were retried (the latest few). */
  retries: { partIndex: number; attempt: number; reason: string }[];
  /** The assembled WAV once done. */
  outputPath: string | null;
  /** The Library clip of the finished work (null before, or when the library is unavailable). */
  clipId: string | null;
  durationMs: number | null;
  /** Why the whole render stopped (planning, assembly, the queue), when it did. */
  error: string | null;
}

export interface RenderApi {
  [RENDER_CHANNELS.startRender]: { request: RenderStartRequest; response: RenderJob };
  /** Every render this studio knows, newest first (kept in <data>/renders across restarts). */
  [RENDER_CHANNELS.listRenders]: { request: Record<string, never>; response: RenderJob[] };
  [RENDER_CHANNELS.cancelRender]: { request: { jobId: string }; response: { cancelled: boolean } };
  /** Runs an interrupted, failed or cancelled render again; parts already rendered are skipped. */
  [RENDER_CHANNELS.resumeRender]: { request: { jobId: string }; response: RenderJob };
  [RENDER_CHANNELS.getRenderQueue]: { request: Record<string, never>; response: { queueUrl: string | null } };
  /** redis:// or rediss:// URL of a BullMQ render queue, or null: render on this machine. */
  [RENDER_CHANNELS.setRenderQueue]: { request: { queueUrl: string | null }; response: { queueUrl: string | null } };
}

export interface RenderEvents {
  /** A render's state or progress changed (sent to the studio's own admin windows). */
  [RENDER_EVENTS.onDidChangeRender]: RenderJob;
}
