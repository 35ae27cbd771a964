/**
 * Adapts the dispatcher to Electron IPC: one invoke channel and one event channel, a check of the
 * sender's origin on every call, and per-window event routing. The only module that touches ipcMain.
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

export function registerIpc(dispatcher: Dispatcher, services: StudioServices, log: (m: string) => void): void {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  const attached = new Set<number>();
  const contextFor = (sender: WebContents) => {
    const ctx = {
      callerId: `window-${sender.id}`,
      role: 'admin' as const, // the app's own window, checked by isAppUrl before any call
      emit: (event: string, payload: unknown) => {
        if (!sender.isDestroyed()) sender.send(IPC_EVENT, event, payload);
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
    return dispatcher.dispatch(channel, payload, contextFor(event.sender));
  });
}
