// Model manager settings: the defaults, environment overrides and rejection of bad keys.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelManagerConfig, resolveModelManagerConfig } from './model-manager-config';

describe('model manager config', () => {
  it('defaults to <user data>/models, the public hub, no token, online, 4 parallel files', () => {
    const config = defaultModelManagerConfig({ XDG_DATA_HOME: '/data', STUDIO_DATA_DIR: undefined });
    if (process.platform === 'linux') expect(config.rootDir).toBe(path.join('/data', 'qwen3-tts-studio', 'models'));
    expect(config).toMatchObject({
      endpoint: 'https://huggingface.co',
      token: null,
      offline: false,
      numParallelFiles: 4,
      numRetries: 3,
      dtype: 'fp32',
      buildSizeFactor: 2,
    });
  });

  it('takes the token, endpoint and offline switch from HF_TOKEN, HF_ENDPOINT and HF_HUB_OFFLINE', () => {
    const config = resolveModelManagerConfig({}, { HF_TOKEN: 'hf_x', HF_ENDPOINT: 'https://mirror.example/', HF_HUB_OFFLINE: '1', STUDIO_DATA_DIR: '/d' });
    expect(config.token).toBe('hf_x');
    expect(config.endpoint).toBe('https://mirror.example');
    expect(config.offline).toBe(true);
    expect(config.rootDir).toBe(path.resolve('/d/models'));
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('rejects unknown keys and wrong types, naming the key path', () => {
    expect(() => resolveModelManagerConfig({ parallel: 2 }, {})).toThrow(/unknown setting modelManager\.parallel/);
    expect(() => resolveModelManagerConfig({ numParallelFiles: 0 }, {})).toThrow(/modelManager\.numParallelFiles must be at least 1/);
    expect(() => resolveModelManagerConfig({ offline: 'yes' }, {})).toThrow(/modelManager\.offline must be true or false/);
    expect(() => resolveModelManagerConfig({ token: 5 }, {})).toThrow(/modelManager\.token must be a string or null/);
  });
});
