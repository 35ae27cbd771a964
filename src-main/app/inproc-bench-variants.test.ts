// Every inproc benchmark variant's engine settings are valid engine config (resolveEngineConfig
// accepts them, deep-merged over the defaults), the README's server setting is the 'server' variant,
// and an unknown variant name gets the valid list.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from '../engine/engine-config';
import { INPROC_VARIANT_CONFIGS, createInprocVariant } from './inproc-bench-variants';

describe('inproc benchmark variants', () => {
  it.each(Object.entries(INPROC_VARIANT_CONFIGS))('%s resolves to a valid engine config', (_name, variant) => {
    expect(variant.description.length).toBeGreaterThan(10);
    const config = resolveEngineConfig(variant.engineConfig);
    for (const [key, value] of Object.entries(variant.engineConfig)) {
      if (typeof value !== 'object') expect(config[key as keyof typeof config]).toBe(value);
    }
  });

  it('the throughput variant keeps the talker bucket of 8 it was measured with and the first chunk, changing only what it names', () => {
    const config = resolveEngineConfig(INPROC_VARIANT_CONFIGS.throughput.engineConfig);
    expect(config.shapeBuckets).toEqual({ mode: 'auto', talkerRows: 8, talkerPrefillRows: 8, codePredictorRows: 64, codecMinRows: 2, codecMaxRowFrames: 160 });
    expect(config.codec).toEqual({ mode: 'window', stateStore: 'auto', upsample: 'auto', chunkFrames: 24, firstChunkFrames: 4, leftContextFrames: 25 });
    expect(config.maxRunningSequences).toBe(64);
  });

  it("the README's setting for a server with many clients is the measured 'server' variant", () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const setting = /For a server with many clients[\s\S]*?--engine-config '([^']+)'/.exec(readme);
    expect(setting).not.toBeNull();
    expect(JSON.parse(setting![1])).toEqual(INPROC_VARIANT_CONFIGS.server.engineConfig);
  });

  it('rejects an unknown variant, naming the valid ones', () => {
    expect(() => createInprocVariant('turbo')).toThrow(/valid: serial, batched/);
  });
});
