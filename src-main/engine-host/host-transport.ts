/**
 * The engine host's side of the message port: Electron's process.parentPort in a utilityProcess,
 * or Node's process.send / 'message' in a forked child. Nothing else in the host knows which.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { HostToMain, MainToHost } from '../engine-protocol/protocol';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

export interface HostTransport {
  post(message: HostToMain): void;
  onMessage(listener: (message: MainToHost) => void): void;
  /** Called when the parent goes away (the host should exit). */
  onParentGone(listener: () => void): void;
}

export function createHostTransport(): HostTransport {
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (parentPort) {
    return {
      post: (m) => parentPort.postMessage(m),
      onMessage: (l) => parentPort.on('message', (e) => l(e.data as MainToHost)),
      onParentGone: () => {},
    };
  }
  if (!process.send) throw new Error('the engine host must be started by the studio (no IPC channel to the parent)');
  return {
    post: (m) => {
      if (process.connected) process.send!(m);
    },
    onMessage: (l) => process.on('message', (m) => l(m as MainToHost)),
    onParentGone: (l) => process.on('disconnect', l),
  };
}
