/**
 * The studio contract: every channel and event name, declared once, with its payload types.
 * Electron IPC (preload), the headless WebSocket bridge and the in-memory test protocol all
 * speak exactly this. A service adds its own file under contract/ and is merged here.
 */
import type { SerializedStudioError } from './errors';
import { APP_CHANNELS, type AppApi, type AppEvents } from './contract/app';
import { TTS_CHANNELS, TTS_EVENTS, type TtsApi, type TtsEvents } from './contract/tts';
import { LIBRARY_CHANNELS, type LibraryApi, type LibraryEvents } from './contract/library';
import { PROJECT_CHANNELS, type ProjectsApi, type ProjectsEvents } from './contract/projects';
import { BENCH_CHANNELS, BENCH_EVENTS, type BenchApi, type BenchEvents } from './contract/bench';
import { MODEL_CHANNELS, MODEL_EVENTS, type ModelsApi, type ModelsEvents } from './contract/models';
import { EXPORT_CHANNELS, type ExportApi, type ExportEvents } from './contract/export';
import { DESKTOP_CHANNELS, DESKTOP_EVENTS, type DesktopApi, type DesktopEvents } from './contract/desktop';
import { VOICE_CHANNELS, type VoicesApi, type VoicesEvents } from './contract/voices';
import { RENDER_CHANNELS, RENDER_EVENTS, type RenderApi, type RenderEvents } from './contract/render';

export const CHANNELS = Object.freeze({
  ...APP_CHANNELS,
  ...TTS_CHANNELS,
  ...LIBRARY_CHANNELS,
  ...PROJECT_CHANNELS,
  ...BENCH_CHANNELS,
  ...MODEL_CHANNELS,
  ...EXPORT_CHANNELS,
  ...DESKTOP_CHANNELS,
  ...VOICE_CHANNELS,
  ...RENDER_CHANNELS,
});
export const EVENTS = Object.freeze({ ...TTS_EVENTS, ...BENCH_EVENTS, ...MODEL_EVENTS, ...DESKTOP_EVENTS, ...RENDER_EVENTS });

export type StudioApi = AppApi & TtsApi & LibraryApi & ProjectsApi & BenchApi & ModelsApi & ExportApi & DesktopApi & RenderApi & VoicesApi;
export type StudioEvents = AppEvents & TtsEvents & LibraryEvents & ProjectsEvents & BenchEvents & ModelsEvents & ExportEvents & DesktopEvents & RenderEvents & VoicesEvents;

export type Channel = keyof StudioApi & string;
export type EventName = keyof StudioEvents & string;
export type RequestOf<C extends Channel> = StudioApi[C]['request'];
export type ResponseOf<C extends Channel> = StudioApi[C]['response'];

/**
 * Channels that change what every client gets (switch the model, download or delete models, run
 * benchmarks, change the voice library, change or delete the shared clips and projects) or that
 * read server folders: only the local privileged session may call them (the Electron window, or
 * the headless UI signed in on this machine). Remote clients may read the library and projects,
 * synthesize, and add clips; they may not change or delete what others made.
 */
export const ADMIN_CHANNELS: readonly Channel[] = Object.freeze([
  CHANNELS.loadModel,
  CHANNELS.pullModel,
  CHANNELS.planPull, // names server folders: says whether they exist and how big they are
  CHANNELS.cancelPull,
  CHANNELS.removeModel,
  CHANNELS.verifyModel,
  CHANNELS.startRun,
  CHANNELS.stopRun,
  // the library and the projects folder are shared: a remote client adds, never renames, overwrites or deletes
  CHANNELS.deleteClip,
  CHANNELS.updateClip,
  CHANNELS.saveProject,
  CHANNELS.autosave,
  CHANNELS.discardRecovery,
  CHANNELS.deleteProject,
  // the voice library is every client's: only the local session adds to it, renames or deletes
  CHANNELS.cloneVoice,
  CHANNELS.designVoice,
  CHANNELS.renameVoice,
  CHANNELS.deleteVoice,
  CHANNELS.addVoiceSample,
  CHANNELS.useVoiceSample,
  // renders write files, hold the engines for long and are shared by every window
  CHANNELS.startRender,
  CHANNELS.listRenders,
  CHANNELS.cancelRender,
  CHANNELS.resumeRender,
  CHANNELS.getRenderQueue,
  CHANNELS.setRenderQueue,
]);

export const CHANNEL_NAMES: readonly string[] = Object.freeze(Object.values(CHANNELS));
export const EVENT_NAMES: readonly string[] = Object.freeze(Object.values(EVENTS));

/** The reply envelope every transport returns for a call. */
export type CallReply<T> = { ok: true; value: T } | { ok: false; error: SerializedStudioError };

/** What the renderer sees as `window.studio` (Electron) or gets from the WebSocket client. */
export interface StudioBridge {
  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<CallReply<ResponseOf<C>>>;
  on<E extends EventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void;
}

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && CHANNEL_NAMES.includes(name);
}
