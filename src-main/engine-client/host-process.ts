/**
 * Process handles for the engine host: a Node child process (headless mode, tests) or an Electron
 * utilityProcess (the app). Both look the same to HostClient: send, message, exit, kill.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import { fork } from 'node:child_process';
import type { HostToMain, MainToHost } from '../engine-protocol/protocol';

export interface HostProcess {
  readonly pid: number | undefined;
  send(message: MainToHost): void;
  onMessage(listener: (message: HostToMain) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  kill(signal?: NodeJS.Signals): void;
}

export interface NodeHostSpawnOptions {
  entry: string;
  args: string[];
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
}

export function spawnNodeHost(options: NodeHostSpawnOptions): HostProcess {
  const child = fork(options.entry, options.args, {
    serialization: 'advanced',
    execArgv: options.execArgv ?? [],
    env: options.env ?? process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    get pid() {
      return child.pid;
    },
    send: (m) => {
      // A host that has just died can still read as connected: the write then fails with EPIPE, which without a
      // callback is an 'error' event nobody handles (an uncaught exception in the supervisor). The exit that
      // follows answers every call in flight (host-client.ts), so the failed write needs nothing more.
      if (child.connected) child.send(m, (err) => void err);
    },
    onMessage: (l) => child.on('message', (m) => l(m as HostToMain)),
    onExit: (l) => child.on('exit', (code, signal) => l(code, signal)),
    kill: (signal) => child.kill(signal ?? 'SIGTERM'),
  };
}
