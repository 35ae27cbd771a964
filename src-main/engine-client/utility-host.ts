/**
 * HostProcess over an Electron utilityProcess: the app's way of running the engine host, so
 * onnxruntime never blocks the main thread. Imported only by main.ts (Electron builds).
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import { utilityProcess } from 'electron';
import type { HostProcess } from './host-process';
import type { HostToMain } from '../engine-protocol/protocol';

export function spawnUtilityHost(entry: string, args: string[]): HostProcess {
  const child = utilityProcess.fork(entry, args, { serviceName: 'Qwen3-TTS engine', stdio: 'inherit' });
  let alive = true;
  child.on('exit', () => (alive = false));
  return {
    get pid() {
      return child.pid;
    },
    send: (m) => {
      if (alive) child.postMessage(m);
    },
    onMessage: (l) => child.on('message', (m: unknown) => l(m as HostToMain)),
    onExit: (l) => child.on('exit', (code) => l(code, null)),
    kill: () => {
      child.kill();
    },
  };
}
