/**
 * The desktop's main-initiated traffic: files dropped on a window (the preload's drop message,
 * from trusted windows only, paths checked for shape, then DesktopService), and contract events
 * main sends to one window (menu commands, drop results).
 */
import { ipcMain, type WebContents } from 'electron';
import { DESKTOP_DROP_MESSAGE, type DroppedFile } from '../../src-shared/contract/desktop';
import { parseDropMessage } from '../desktop/desktop-service';
import { EVENTS, type EventName, type StudioEvents } from '../../src-shared/ipc-contract';
import { IPC_EVENT, isTrustedSenderUrl } from './register-ipc';

/** Sends one contract event to one window. */
export function sendToWindow<E extends EventName>(target: WebContents, event: E, payload: StudioEvents[E]): void {
  if (!target.isDestroyed()) target.send(IPC_EVENT, event, payload);
}

export function registerDesktopIpc(accept: (paths: string[]) => Promise<DroppedFile[]>, log: (m: string) => void): void {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  ipcMain.on(DESKTOP_DROP_MESSAGE, (event, value: unknown) => {
    const url = event.senderFrame?.url ?? '';
    const paths = parseDropMessage(value);
    if (!isTrustedSenderUrl(url, devServerUrl) || !paths) {
      log(`[ipc] ignored a drop message from ${url}`);
      return;
    }
    void accept(paths)
      .then((files) => sendToWindow(event.sender, EVENTS.onDidDropFiles, { files }))
      .catch((err: Error) => log(`[desktop] drop failed: ${err.message}`));
  });
}
