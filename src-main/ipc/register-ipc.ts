/**
 * Adapts the dispatcher to Electron IPC: one invoke channel and one event channel, a check of the
 * sender's origin on every call, and per-window event routing; an optional observer sees each call's
 * duration and each event (the desktop's background notifier). With desktop-ipc.ts, the only
 * modules that touch ipcMain.
 */
import { ipcMain, type WebContents } from 'electron';
import { StudioError } from '../../src-shared/errors';
import type { Dispatcher } from '../api/dispatcher';
import type { StudioServices } from '../services/studio-services';

export const IPC_INVOKE = 'studio:invoke';
export const IPC_EVENT = 'studio:event';

/** Origins the app's own windows load from: the packaged file:// page or the dev server. */
export function isTrustedSenderUrl(url: string, devServerUrl: string | undefined): boolean {
  if (url.startsWith('file://')) return true;
  return devServerUrl !== undefined && url.startsWith(devServerUrl);
}

/** Sees every call when it is answered and every event sent to a window. */
export interface IpcObserver {
  onDidCall?(channel: string, durationMs: number, ok: boolean, sender: WebContents): void;
  onDidEmit?(event: string, payload: unknown, sender: WebContents): void;
}

export function registerIpc(dispatcher: Dispatcher, services: StudioServices, log: (m: string) => void, observer: IpcObserver = {}): void {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  const attached = new Set<number>();
  const contextFor = (sender: WebContents) => {
    const ctx = {
      callerId: `window-${sender.id}`,
      role: 'admin' as const, // the app's own window, checked by isAppUrl before any call
      emit: (event: string, payload: unknown) => {
        if (!sender.isDestroyed()) sender.send(IPC_EVENT, event, payload);
        observer.onDidEmit?.(event, payload, sender);
      },
    };
    if (!attached.has(sender.id)) {
      attached.add(sender.id);
      const detach = services.attach(ctx);
      sender.once('destroyed', () => {
        attached.delete(sender.id);
        detach();
      });
    }
    return ctx;
  };
  ipcMain.handle(IPC_INVOKE, async (event, channel: unknown, payload: unknown) => {
    const url = event.senderFrame?.url ?? '';
    if (!isTrustedSenderUrl(url, devServerUrl)) {
      log(`[ipc] refused a call to ${String(channel)} from untrusted origin ${url}`);
      return { ok: false, error: new StudioError('unauthorized', `calls from ${url} are not allowed`).toJSON() };
    }
    const startedMs = performance.now();
    const reply = await dispatcher.dispatch(channel, payload, contextFor(event.sender));
    observer.onDidCall?.(String(channel), performance.now() - startedMs, reply.ok, event.sender);
    return reply;
  });
}
