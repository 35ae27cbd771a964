/**
 * The desktop service of the studio contract (Electron only; the headless host answers
 * 'unsupported'): native open/save dialogs whose picks main grants to this window, audio imports
 * copied into the data folder, application-menu commands and files dropped on the window.
 * Types and channel names only.
 */

export const DESKTOP_CHANNELS = Object.freeze({
  showOpenProject: 'studio:desktop.showOpenProject',
  showSaveProject: 'studio:desktop.showSaveProject',
  showImportAudio: 'studio:desktop.showImportAudio',
  showOpenDocument: 'studio:desktop.showOpenDocument',
} as const);

export const DESKTOP_EVENTS = Object.freeze({
  onDidInvokeMenu: 'studio:desktop.onDidInvokeMenu',
  onDidDropFiles: 'studio:desktop.onDidDropFiles',
} as const);

/**
 * The preload's own message to main with the paths of files dropped on the window (read with
 * webUtils.getPathForFile from real dropped File objects). Not a contract channel: the page cannot
 * send it; main answers with the onDidDropFiles event.
 */
export const DESKTOP_DROP_MESSAGE = 'studio:desktop-drop';
export const MAX_DROPPED_FILES = 32;

/** Menu items the renderer carries out (the rest — quit, copy, zoom — Electron handles itself). */
export const MENU_COMMANDS = ['open-project', 'save-project', 'save-project-as', 'import-audio', 'show-voice', 'show-timeline', 'show-library', 'show-bench', 'show-models', 'show-settings'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** An audio file copied into the data folder's imports folder, where SSML `<audio src>` may read it. */
export interface ImportedAudio {
  /** The name the user's file had. */
  originalName: string;
  /** Absolute path of the copy under <data>/imports. */
  path: string;
  sizeBytes: number;
}

export type DroppedFile =
  | { kind: 'audio'; imported: ImportedAudio }
  | { kind: 'text' | 'ssml'; name: string; text: string }
  | { kind: 'project'; name: string; path: string }
  | { kind: 'refused'; name: string; reason: string };

export interface DesktopApi {
  [DESKTOP_CHANNELS.showOpenProject]: { request: Record<string, never>; response: { path: string | null } };
  [DESKTOP_CHANNELS.showSaveProject]: { request: { suggestedName: string }; response: { path: string | null } };
  [DESKTOP_CHANNELS.showImportAudio]: { request: Record<string, never>; response: { imported: ImportedAudio[] } };
  /** Open dialog for a text or SSML document to render; the pick is granted read. */
  [DESKTOP_CHANNELS.showOpenDocument]: { request: Record<string, never>; response: { path: string | null } };
}

export interface DesktopEvents {
  [DESKTOP_EVENTS.onDidInvokeMenu]: { command: MenuCommand };
  [DESKTOP_EVENTS.onDidDropFiles]: { files: DroppedFile[] };
}
