/**
 * Composition of the main-side services shared by the Electron app and the headless host:
 * the engine host client, the contract services and the dispatcher. No Electron imports here;
 * main.ts passes a utilityProcess spawner, headless mode uses a Node child process.
 */
import path from 'node:path';
import type { AppInfo } from '../../src-shared/contract/app';
import { Dispatcher } from '../api/dispatcher';
import { HostClient } from '../engine-host/host-client';
import { spawnNodeHost, type HostProcess } from '../engine-host/host-process';
import type { HostStartOptions } from '../engine-host/protocol';
import { StudioServices } from '../services/studio-services';
import { defaultUserDataDir, resolveHostEntry } from './paths';
import { createModelManagerPort } from './model-manager-port';

export interface StudioRuntimeOptions {
  hostKind: AppInfo['hostKind'];
  version: string;
  /** Model to load: a folder or 'embedded:tiny' (default). */
  model?: string;
  userDataDir?: string;
  engineConfig?: Record<string, unknown>;
  schedulerConfig?: Record<string, unknown>;
  /** How to start the engine host; defaults to a Node child process. */
  spawnHost?: (args: string[]) => HostProcess;
  log?: (m: string) => void;
}

export interface StudioRuntime {
  host: HostClient;
  services: StudioServices;
  dispatcher: Dispatcher;
  userDataDir: string;
  dispose(): Promise<void>;
}

export function createStudioRuntime(options: StudioRuntimeOptions): StudioRuntime {
  const userDataDir = options.userDataDir ?? defaultUserDataDir();
  const start: HostStartOptions = {
    model: options.model ?? 'embedded:tiny',
    cacheDir: path.join(userDataDir, 'cache'),
    engineConfig: options.engineConfig ?? {},
    schedulerConfig: options.schedulerConfig ?? {},
  };
  const args = [JSON.stringify(start)];
  const spawn =
    options.spawnHost ??
    ((a: string[]) => {
      const entry = resolveHostEntry();
      return spawnNodeHost({ entry: entry.entry, execArgv: entry.execArgv, args: a });
    });
  const log = options.log ?? ((m: string) => console.warn(m));
  const host = new HostClient({ spawn: () => spawn(args), log: (m) => log(`[engine-host] ${m}`) });
  const services = new StudioServices({
    host,
    modelManager: createModelManagerPort(userDataDir),
    appInfo: () => ({
      version: options.version,
      hostKind: options.hostKind,
      platform: process.platform,
      userDataDir,
      syntheticModel: host.lastKnownStatus?.model?.synthetic ?? true,
    }),
  });
  const dispatcher = new Dispatcher(services.handlers, { warn: log });
  return {
    host,
    services,
    dispatcher,
    userDataDir,
    dispose: () => host.dispose(),
  };
}
