/**
 * The model manager's settings: defaults in one place and a resolver that rejects unknown keys
 * or wrong types, naming the key path. Pure apart from reading the environment for defaults.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { defaultUserDataDir } from '../platform/paths';

export interface ModelManagerConfig {
  /** Folder holding one sub-folder per model plus `.quarantine/`. */
  rootDir: string;
  /** Hub base URL, without a trailing slash. */
  endpoint: string;
  /** Bearer token for gated or private repos; null sends no Authorization header. */
  token: string | null;
  /** When true the manager never touches the network. */
  offline: boolean;
  /** Files downloaded at the same time. */
  numParallelFiles: number;
  /** Automatic resumes of one file after a dropped connection, within one pull. */
  numRetries: number;
  retryDelayMs: number;
  /** A request that sends no bytes for this long is treated as a dropped connection. */
  stallTimeoutMs: number;
  /** Build dtype handed to the model builder. */
  dtype: string;
  /** Free space kept after the download and build, on top of what they need. */
  reserveBytes: number;
  /** Build output size as a multiple of the checkpoint's *.safetensors bytes (bf16 → fp32 doubles). */
  buildSizeFactor: number;
}

export function defaultModelManagerConfig(env: NodeJS.ProcessEnv = process.env): ModelManagerConfig {
  return {
    rootDir: path.join(defaultUserDataDir(env), 'models'),
    endpoint: (env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, ''),
    token: env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN || null,
    offline: env.HF_HUB_OFFLINE === '1' || env.STUDIO_OFFLINE === '1',
    numParallelFiles: 4,
    numRetries: 3,
    retryDelayMs: 500,
    stallTimeoutMs: 60_000,
    dtype: 'fp32',
    reserveBytes: 256 * 1024 * 1024,
    buildSizeFactor: 2,
  };
}

const NUMBER_KEYS = ['numParallelFiles', 'numRetries', 'retryDelayMs', 'stallTimeoutMs', 'reserveBytes', 'buildSizeFactor'] as const;

export function resolveModelManagerConfig(
  overrides: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = process.env,
): Readonly<ModelManagerConfig> {
  const config = defaultModelManagerConfig(env);
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const where = `modelManager.${key}`;
    if (!(key in config)) {
      throw new StudioError('invalid-argument', `unknown setting ${where}; valid keys are ${Object.keys(config).join(', ')}`, { key: where });
    }
    const fail = (expected: string): never => {
      throw new StudioError('invalid-argument', `${where} must be ${expected}, got ${JSON.stringify(value)}`, { key: where });
    };
    if ((NUMBER_KEYS as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail('a finite number >= 0');
      if (key === 'numParallelFiles' && (value as number) < 1) fail('at least 1');
    } else if (key === 'offline') {
      if (typeof value !== 'boolean') fail('true or false');
    } else if (key === 'token') {
      if (value !== null && typeof value !== 'string') fail('a string or null');
    } else if (typeof value !== 'string' || value === '') {
      fail('a non-empty string');
    }
    (config as unknown as Record<string, unknown>)[key] = value;
  }
  config.rootDir = path.resolve(config.rootDir);
  config.endpoint = config.endpoint.replace(/\/+$/, '');
  return Object.freeze(config);
}
