/**
 * The app service of the studio contract: what host this is (Electron or headless), versions,
 * and a diagnostic ping. Types and channel names only.
 */

export const APP_CHANNELS = Object.freeze({
  info: 'studio:app.info',
  ping: 'studio:app.ping',
} as const);

export interface AppInfo {
  version: string;
  hostKind: 'electron' | 'headless';
  platform: string;
  userDataDir: string;
  /** True when the loaded model is a synthetic checkpoint with random weights (it produces noise). */
  syntheticModel: boolean;
}

export interface AppApi {
  [APP_CHANNELS.info]: { request: Record<string, never>; response: AppInfo };
  [APP_CHANNELS.ping]: { request: { message: string }; response: { message: string; receivedAtMs: number } };
}

export interface AppEvents {}
