/**
 * The sandboxed bridge: exposes exactly the studio contract as window.studio (invoke + on) and
 * nothing else. Channels and events are checked against the contract's lists before they cross.
 * It also forwards the paths of files dropped on the window to main (drop-listener.ts).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES } from '../src-shared/ipc-contract';
import { StudioError } from '../src-shared/errors';
import { listenForDroppedFiles } from './drop-listener';

const IPC_INVOKE = 'studio:invoke';
const IPC_EVENT = 'studio:event';

const studio = {
  invoke(channel: string, request: unknown) {
    if (!CHANNEL_NAMES.includes(channel)) {
      return Promise.resolve({ ok: false, error: new StudioError('unknown-channel', `unknown channel ${channel}`).toJSON() });
    }
    return ipcRenderer.invoke(IPC_INVOKE, channel, request);
  },
  on(event: string, listener: (payload: unknown) => void) {
    if (!EVENT_NAMES.includes(event)) throw new Error(`unknown event ${event}`);
    const wrapped = (_e: unknown, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => ipcRenderer.removeListener(IPC_EVENT, wrapped);
  },
};

contextBridge.exposeInMainWorld('studio', studio);
listenForDroppedFiles(window, (file) => webUtils.getPathForFile(file), (channel, paths) => ipcRenderer.send(channel, paths));
