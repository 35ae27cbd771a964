/**
 * Composition of the main-side services shared by the Electron app and the headless host:
 * the engine host client, the contract services and the dispatcher. No Electron imports here;
 * main.ts passes a utilityProcess spawner, headless mode uses a Node child process.
 */
import path from 'node:path';
import type { AppInfo } from '../../src-shared/contract/app';
import { Dispatcher } from '../api/dispatcher';
import { EnginePool } from '../engine-client/engine-pool';
import type { EngineDevice } from '../engine-client/engine-devices';
import { spawnNodeHost, type HostProcess } from '../engine-client/host-process';
import { EMBEDDED_TINY, type HostStartOptions } from '../engine-protocol/protocol';
import { StudioServices, type DesktopPort, type InputLimits } from '../services/studio-services';
import { resolveEngineConfig } from '../engine/engine-config';
import { MAX_BYTES_PER_TEXT_TOKEN } from '../engine/create-sequence';
import { resolveSsmlOptions } from '../ssml/ssml-options';
import { FileGrants } from '../access/file-grants';
import { defaultAudioInsertRoots, defaultUserDataDir, resolveHostEntry } from '../platform/paths';
import { createModelManagerPort } from './model-manager-port';

export interface StudioStackOptions {
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
  /** How to start the engine host (env: the device's variables); defaults to a Node child process. */
  spawnHost?: (args: string[], env?: Record<string, string>) => HostProcess;
  /** One engine host per entry (engine-devices.ts, `--devices`); default: one engine as configured. */
  devices?: readonly EngineDevice[];
  log?: (m: string) => void;
  /** The desktop app's dialogs and imports (Electron only). */
  desktop?: DesktopPort;
  /** The grants to use (the desktop app shares one with its dialogs); default a new set. The projects folder is added either way. */
  grants?: FileGrants;
}

export interface StudioStack {
  /** The engine hosts (one unless `devices` names several), behind one HostClient-like surface. */
  host: EnginePool;
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

export function createStudioStack(options: StudioStackOptions): StudioStack {
  const userDataDir = options.userDataDir ?? defaultUserDataDir();
  const devices = options.devices && options.devices.length > 0 ? options.devices : [{ label: 'default', env: {}, engineConfig: {} }];
  const startOptions = (model: string, device: EngineDevice, modelId?: string): HostStartOptions => ({
    model,
    modelId,
    cacheDir: path.join(userDataDir, 'cache'),
    engineConfig: { ...options.engineConfig, ...device.engineConfig },
    schedulerConfig: options.schedulerConfig ?? {},
    audioRoots: [...(typeof options.audioRoots === 'function' ? options.audioRoots() : (options.audioRoots ?? defaultAudioInsertRoots(userDataDir)))],
  });
  const argsFor = (model: string, device: EngineDevice, modelId?: string) => [JSON.stringify(startOptions(model, device, modelId))];
  const spawn =
    options.spawnHost ??
    ((a: string[], env?: Record<string, string>) => {
      const entry = resolveHostEntry();
      return spawnNodeHost({ entry: entry.entry, execArgv: entry.execArgv, args: a, env: env && Object.keys(env).length > 0 ? { ...process.env, ...env } : undefined });
    });
  const spawnOn = (device: EngineDevice, model: string, modelId?: string) => (Object.keys(device.env).length > 0 ? spawn(argsFor(model, device, modelId), device.env) : spawn(argsFor(model, device, modelId)));
  const log = options.log ?? ((m: string) => console.warn(m));
  const host = new EnginePool({
    spawns: devices.map((device) => () => spawnOn(device, options.model ?? EMBEDDED_TINY)),
    labels: devices.map((d) => d.label),
    log: (m) => log(`[engine-host] ${m}`),
  });
  const modelManager = createModelManagerPort(userDataDir);
  /** Restarts the host on another model: the embedded one, an installed model id, or a folder. */
  const loadModel = async (modelId: string) => {
    const model = modelId === EMBEDDED_TINY ? EMBEDDED_TINY : await modelManager.resolve(modelId);
    await host.replace((i) => spawnOn(devices[i], model, modelId));
    return host.call('modelInfo', {});
  };
  const inputLimits = inputLimitsFor(options.engineConfig ?? {});
  const grants = options.grants ?? new FileGrants();
  grants.grant(path.join(userDataDir, 'projects'), 'write', 'folder');
  // where a checkpoint folder is placed to import it from the Models page (models-service.ts)
  grants.grant(path.join(userDataDir, 'imports'), 'read', 'folder');
  const services = new StudioServices({
    host,
    grants,
    inputLimits,
    modelManager,
    loadModel,
    desktop: options.desktop,
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
    dispose: async () => {
      // the engine host goes even when the services fail to close: it holds the GPU's memory until it exits
      try {
        await services.dispose();
      } finally {
        await host.dispose();
      }
    },
  };
}
