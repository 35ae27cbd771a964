/**
 * The projects service of the studio contract: project files (editor text, voice settings,
 * timeline turns with their takes and the chosen one) saved atomically, autosave with crash
 * recovery, recent projects; plus SSML validation for the editor's inline diagnostics.
 * Types and channel names only.
 */
import type { SamplingParams, SsmlDialect, SsmlRequestOptions } from '../synthesis';

export const PROJECT_CHANNELS = Object.freeze({
  saveProject: 'studio:projects.save',
  openProject: 'studio:projects.open',
  listRecent: 'studio:projects.listRecent',
  listProjects: 'studio:projects.list',
  deleteProject: 'studio:projects.delete',
  autosave: 'studio:projects.autosave',
  readRecovery: 'studio:projects.readRecovery',
  discardRecovery: 'studio:projects.discardRecovery',
  validateSsml: 'studio:ssml.validate',
} as const);

export const PROJECT_SCHEMA_VERSION = 1;

export interface VoiceSettings {
  modelId: string | null;
  voice: string;
  language: string;
  seed: number;
  params: SamplingParams | null;
  instruct: string;
  voiceDescription: string;
}

/** One take of a turn: a span of a library clip. */
export interface TakeRef {
  takeId: string;
  clipId: string;
  seed: number;
  startSample: number;
  endSample: number;
  createdAtMs: number;
  /** The voice the engine made it with (absent in projects saved before takes recorded it). */
  voice?: string;
  /** A user-visible name ('Take 3'); absent: numbered by position. */
  label?: string;
}

export interface ProjectTurn {
  turnIndex: number;
  takes: TakeRef[];
  chosenTakeId: string;
  /** The take chosen before the current one, for revert. */
  previousTakeId: string | null;
  /** Timeline edits of this turn (absent: none). */
  edit?: TurnEdit;
}

/** The valid values of a turn's edits: the project schema checks them and the Timeline's fields take their bounds from here. */
export const TURN_EDIT_LIMITS = Object.freeze({
  trimMs: Object.freeze({ min: 0, max: 3_600_000 }),
  gapBeforeMs: Object.freeze({ min: 0, max: 600_000 }),
  gainDb: Object.freeze({ min: -60, max: 24 }),
});

/** How the timeline plays a turn's chosen take: trimmed, moved, louder or softer. */
export interface TurnEdit {
  /** Cut from the take's start / end. */
  trimStartMs: number;
  trimEndMs: number;
  /** Silence before the turn; null keeps the generated document's gap (its break). */
  gapBeforeMs: number | null;
  gainDb: number;
}

export interface ProjectDocument {
  schemaVersion: typeof PROJECT_SCHEMA_VERSION;
  id: string;
  name: string;
  /** ssmlOptions: how the editor's SSML is read (dialect, lenient); absent in projects saved before it existed. */
  editor: { text: string; inputFormat: 'text' | 'ssml'; ssmlOptions?: SsmlRequestOptions };
  voice: VoiceSettings;
  /** The clip whose layout (gaps between turns) the timeline follows; null before the first generation. */
  baseClipId: string | null;
  turns: ProjectTurn[];
}

export interface RecentProject {
  path: string;
  name: string;
  savedAtMs: number;
  /** The clip the project's timeline is built on (listProjects only; absent in recent entries): a Library re-open finds its project by it. */
  baseClipId?: string | null;
}

export interface SsmlDiagnostic {
  line: number;
  column: number;
  message: string;
}

/**
 * The editor's live check, by the same parser and settings as generation. numTurns counts dialogue
 * turns (a new one where the voice or language changes; tuned words and breaks stay in theirs).
 * dialect is the one the document was read in (what 'auto' chose); warnings are what lenient mode
 * dropped or what was approximated, and never block Generate.
 */
export type SsmlValidation =
  | { ok: true; numTurns: number; dialect?: Exclude<SsmlDialect, 'auto'>; dialectDetectedFrom?: string | null; warnings?: SsmlDiagnostic[] }
  | { ok: false; diagnostics: SsmlDiagnostic[]; dialect?: Exclude<SsmlDialect, 'auto'> };

export interface ProjectsApi {
  [PROJECT_CHANNELS.saveProject]: { request: { project: ProjectDocument; path?: string }; response: { path: string; savedAtMs: number } };
  [PROJECT_CHANNELS.openProject]: { request: { path: string }; response: { path: string; project: ProjectDocument } };
  [PROJECT_CHANNELS.listRecent]: { request: Record<string, never>; response: RecentProject[] };
  /** Every project file in the data folder's projects/ folder, newest first (savedAtMs: the file's mtime), with the clip each is built on. */
  [PROJECT_CHANNELS.listProjects]: { request: Record<string, never>; response: RecentProject[] };
  /** Deletes a project file inside the projects folder (never elsewhere) and drops it from recent projects. */
  [PROJECT_CHANNELS.deleteProject]: { request: { path: string }; response: { deleted: boolean } };
  [PROJECT_CHANNELS.autosave]: { request: { project: ProjectDocument; path: string | null }; response: { savedAtMs: number } };
  [PROJECT_CHANNELS.readRecovery]: {
    request: Record<string, never>;
    response: { project: ProjectDocument; path: string | null; autosavedAtMs: number } | null;
  };
  [PROJECT_CHANNELS.discardRecovery]: { request: Record<string, never>; response: { discarded: boolean } };
  [PROJECT_CHANNELS.validateSsml]: { request: { text: string; ssmlOptions?: SsmlRequestOptions; language?: string }; response: SsmlValidation };
}

export interface ProjectsEvents {}
