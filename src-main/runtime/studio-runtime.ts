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
import { StudioServices, type InputLimits } from '../services/studio-services';
import { resolveEngineConfig } from '../engine/engine-config';
import { MAX_BYTES_PER_TEXT_TOKEN } from '../engine/create-sequence';
import { resolveSsmlOptions } from '../ssml/ssml-options';
import { FileGrants } from '../access/file-grants';
import { defaultAudioInsertRoots, defaultUserDataDir, resolveHostEntry } from './paths';
import { createModelManagerPort } from './model-manager-port';
import { EMBEDDED_TINY } from '../engine-host/embedded-model';

export interface StudioRuntimeOptions {
  hostKind: AppInfo['hostKind'];
  version: string;
  /** Model to load: a folder or 'embedded:tiny' (default). */
  model?: string;
  userDataDir?: string;
  engineConfig?: Record<string, unknown>;
  schedulerConfig?: Record<string, unknown>;
  /**
   * Folders SSML <audio src> may read from; default defaultAudioInsertRoots(userDataDir). A function
   * is read at every host start, so folders granted later apply from the next (re)start.
   */
  audioRoots?: readonly string[] | (() => readonly string[]);
  /** How to start the engine host; defaults to a Node child process. */
  spawnHost?: (args: string[]) => HostProcess;
  log?: (m: string) => void;
}

export interface StudioRuntime {
  host: HostClient;
  /** Paths clients may name (projects); the desktop app's dialogs add to it. */
  grants: FileGrants;
  services: StudioServices;
  dispatcher: Dispatcher;
  userDataDir: string;
  dispose(): Promise<void>;
}

/** The input limits main can check before the engine host sees a request; none when the config is invalid (the host reports that). */
function inputLimitsFor(engineConfig: Record<string, unknown>): InputLimits | undefined {
  try {
    const { maxSequenceTokens } = resolveEngineConfig(engineConfig);
    // the engine's cap is in UTF-8 bytes; a UTF-16 length never exceeds it, so a length check against it never refuses fitting text
    return { maxTextChars: maxSequenceTokens * MAX_BYTES_PER_TEXT_TOKEN, maxSsmlBytes: resolveSsmlOptions().maxBytes };
  } catch {
    return undefined;
  }
}

export function createStudioRuntime(options: StudioRuntimeOptions): StudioRuntime {
  const userDataDir = options.userDataDir ?? defaultUserDataDir();
  const startOptions = (model: string, modelId?: string): HostStartOptions => ({
    model,
    modelId,
    cacheDir: path.join(userDataDir, 'cache'),
    engineConfig: options.engineConfig ?? {},
    schedulerConfig: options.schedulerConfig ?? {},
    audioRoots: [...(typeof options.audioRoots === 'function' ? options.audioRoots() : (options.audioRoots ?? defaultAudioInsertRoots(userDataDir)))],
  });
  const argsFor = (model: string, modelId?: string) => [JSON.stringify(startOptions(model, modelId))];
  const spawn =
    options.spawnHost ??
    ((a: string[]) => {
      const entry = resolveHostEntry();
      return spawnNodeHost({ entry: entry.entry, execArgv: entry.execArgv, args: a });
    });
  const log = options.log ?? ((m: string) => console.warn(m));
  const host = new HostClient({ spawn: () => spawn(argsFor(options.model ?? EMBEDDED_TINY)), log: (m) => log(`[engine-host] ${m}`) });
  const modelManager = createModelManagerPort(userDataDir);
  /** Restarts the host on another model: the embedded one, an installed model id, or a folder. */
  const loadModel = async (modelId: string) => {
    const model = modelId === EMBEDDED_TINY ? EMBEDDED_TINY : await modelManager.resolve(modelId);
    await host.replace(() => spawn(argsFor(model, modelId)));
    return host.call('modelInfo', {});
  };
  const inputLimits = inputLimitsFor(options.engineConfig ?? {});
  const grants = new FileGrants([{ path: path.join(userDataDir, 'projects'), scope: 'folder', access: 'write' }]);
  const services = new StudioServices({
    host,
    grants,
    inputLimits,
    modelManager,
    loadModel,
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
    grants,
    services,
    dispatcher,
    userDataDir,
    dispose: () => host.dispose(),
  };
}
