// Every inproc benchmark variant's engine settings are valid engine config (resolveEngineConfig
// accepts them, deep-merged over the defaults), and an unknown variant name gets the valid list.
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

  it('the throughput variant keeps the default talker bucket and first chunk, changing only what it names', () => {
    const config = resolveEngineConfig(INPROC_VARIANT_CONFIGS.throughput.engineConfig);
    expect(config.shapeBuckets).toEqual({ mode: 'auto', talkerRows: 8, talkerPrefillRows: 8, codePredictorRows: 64, codecMinRows: 2, codecMaxRowFrames: 160 });
    expect(config.codec).toEqual({ mode: 'window', stateStore: 'auto', chunkFrames: 24, firstChunkFrames: 4, leftContextFrames: 25 });
    expect(config.maxRunningSequences).toBe(64);
  });

  it('rejects an unknown variant, naming the valid ones', () => {
    expect(() => createInprocVariant('turbo')).toThrow(/valid: serial, batched/);
  });
});
