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
      if (child.connected) child.send(m);
    },
    onMessage: (l) => child.on('message', (m) => l(m as HostToMain)),
    onExit: (l) => child.on('exit', (code, signal) => l(code, signal)),
    kill: (signal) => child.kill(signal ?? 'SIGTERM'),
  };
}
