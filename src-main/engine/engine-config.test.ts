// Engine config: the defaults are asserted (whisper.cpp assert_default_params), overrides merge,
// and bad keys/values are rejected naming the key path.
import { describe, expect, it } from 'vitest';
import { batchLimitsOf, defaultConcurrency, defaultEngineConfig, describeEngineConfig, resolveEngineConfig } from './engine-config';
import { resolveCodecStateStore } from './engine-plan';

describe('engine config', () => {
  it('has the documented defaults', () => {
    const d = defaultEngineConfig();
    // every setting a provider decides is 'auto' (engine-plan.ts resolves it: capture and the MatMul codec on CUDA); no device pinned
    expect([d.provider, d.codec.mode, d.codec.stateStore, d.codec.upsample, d.codecBatching, d.shapeBuckets.mode, d.kvCache.mode, d.graphCapture.mode]).toEqual(['auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto']);
    expect([d.graphCapture.codec, d.graphCapture.maxBuckets, d.deviceIndex, d.intraOpNumThreads, d.providerOptions]).toEqual(['auto', 16, -1, 0, {}]);
    // warm up before ready where the plan captures graphs (engine-plan.ts resolveWarmUp)
    expect(d.warmUp).toBe('auto');
    // chunks of 1, 2, 4, 8, 8, … frames, each with 25 frames of context (spec §4.4)
    expect([d.codec.firstChunkFrames, d.codec.chunkFrames, d.codec.leftContextFrames]).toEqual([1, 8, 25]);
    // the batch limits are the plan's (the provider table's wide limits where the device's memory holds them, engine-plan.ts)
    expect([d.maxSequenceTokens, d.maxRunningSequences, d.maxPrefillSequences, d.framesPerTextToken, d.minFramesCap]).toEqual([4096, 'auto', 'auto', 12, 75]);
    // ... and 'auto' is 8 running, 4 prefilled a step, rows in 8s wherever the plan does not go wide
    expect(defaultConcurrency()).toEqual({ maxRunningSequences: 8, maxPrefillSequences: 4, talkerRows: 8, codePredictorRows: 8 });
    expect([d.promptLayout, d.codePredictor]).toEqual(['non-streaming', 'manifest']);
    // decode and code-predictor rows as the plan picks, prefill one arrival at a time, codec calls of at least 2 rows and at most 160 row-frames
    const b = d.shapeBuckets;
    expect([b.talkerRows, b.talkerPrefillRows, b.codePredictorRows, b.codecMinRows, b.codecMaxRowFrames]).toEqual(['auto', 'auto', 'auto', 2, 160]);
    const k = d.kvCache;
    expect([k.blockPositions, k.initialBlocks, k.maxBlocks, k.regroupOnDevice]).toEqual([64, 0, 0, true]);
    // the prompt-prefix KV cache: 128 MiB = 134,217,728 bytes
    expect(d.prefixCache).toEqual({ maxBytes: 134_217_728 });
    // and resolving no overrides gives exactly these, as a fresh object each time
    expect(resolveEngineConfig({})).toEqual(d);
    expect(defaultEngineConfig()).not.toBe(d);
  });

  it('takes warmUp auto, on or off and refuses anything else, naming the key', () => {
    expect(resolveEngineConfig({ warmUp: 'off' }).warmUp).toBe('off');
    expect(() => resolveEngineConfig({ warmUp: 'always' })).toThrow(/warmUp.*auto, on, off/);
    expect(() => resolveEngineConfig({ warmUp: true })).toThrow(/warmUp.*must be a string/);
    expect(resolveEngineConfig({}).workload).toBe('interactive');
    expect(resolveEngineConfig({ workload: 'server' }).workload).toBe('server');
    expect(() => resolveEngineConfig({ workload: 'batch' })).toThrow(/workload.*interactive, server/);
  });

  it('takes provider options as a free string map and refuses other values, naming the key', () => {
    expect(resolveEngineConfig({ providerOptions: { enable_cuda_graph: '1', device_id: '1' } }).providerOptions).toEqual({ enable_cuda_graph: '1', device_id: '1' });
    expect(() => resolveEngineConfig({ providerOptions: { enable_cuda_graph: 1 } })).toThrow(/providerOptions.*object of strings/);
    expect(() => resolveEngineConfig({ providerOptions: ['x'] })).toThrow(/providerOptions.*object of strings/);
  });

  it('checks graphCapture: its modes, a bucket count ≥ 1, and no device-resident KV beside it', () => {
    expect(resolveEngineConfig({ graphCapture: { mode: 'bound' } }).graphCapture).toEqual({ ...defaultEngineConfig().graphCapture, mode: 'bound' });
    expect(() => resolveEngineConfig({ graphCapture: { mode: 'always' } })).toThrow(/graphCapture\.mode.*off, bound, on/);
    expect(() => resolveEngineConfig({ graphCapture: { maxBuckets: 0 } })).toThrow(/graphCapture\.maxBuckets.*≥ 1/);
    expect(() => resolveEngineConfig({ graphCapture: { mode: 'on' }, kvCache: { mode: 'device' } })).toThrow(/kvCache\.mode.*graphCapture\.mode 'on'/);
    expect(resolveEngineConfig({ graphCapture: { mode: 'on' }, kvCache: { mode: 'host' } }).kvCache.mode).toBe('host');
  });

  it('rejects a shape-bucket mode or row count out of range naming its path', () => {
    expect(() => resolveEngineConfig({ shapeBuckets: { mode: 'always' } })).toThrow(/shapeBuckets\.mode.*auto, on, off/);
    expect(() => resolveEngineConfig({ shapeBuckets: { codePredictorRows: 0 } })).toThrow(/shapeBuckets\.codePredictorRows.*≥ 1/);
    expect(() => resolveEngineConfig({ shapeBuckets: { codecMinRows: 0 } })).toThrow(/shapeBuckets\.codecMinRows.*≥ 1/);
    expect(() => resolveEngineConfig({ shapeBuckets: { codecMaxRowFrames: -1 } })).toThrow(/shapeBuckets\.codecMaxRowFrames.*≥ 0/);
    expect(resolveEngineConfig({ shapeBuckets: { codecMaxRowFrames: 0 } }).shapeBuckets.codecMaxRowFrames).toBe(0);
    expect(() => resolveEngineConfig({ kvCache: { mode: 'gpu' } })).toThrow(/kvCache\.mode.*auto, host, device/);
    expect(() => resolveEngineConfig({ kvCache: { blockPositions: 0 } })).toThrow(/kvCache\.blockPositions.*≥ 1/);
    expect(resolveEngineConfig({ prefixCache: { maxBytes: 0 } }).prefixCache.maxBytes).toBe(0);
    expect(() => resolveEngineConfig({ prefixCache: { maxBytes: -1 } })).toThrow(/prefixCache\.maxBytes.*≥ 0/);
    expect(() => resolveEngineConfig({ prefixCache: { maxBytes: '1GB' } })).toThrow(/prefixCache\.maxBytes.*must be a number/);
    expect(resolveEngineConfig({ shapeBuckets: { talkerRows: 4 } }).shapeBuckets).toEqual({ ...defaultEngineConfig().shapeBuckets, talkerRows: 4 });
  });

  it('merges nested overrides and freezes the result', () => {
    const config = resolveEngineConfig({ provider: 'cpu', codec: { chunkFrames: 12 } });
    expect(config.provider).toBe('cpu');
    expect(config.codec).toEqual({ ...defaultEngineConfig().codec, chunkFrames: 12 });
    expect(Object.isFrozen(config.codec)).toBe(true);
  });

  it("rejects a codec mode other than 'window' or 'stream', naming the valid ones", () => {
    expect(resolveEngineConfig({ codec: { mode: 'stream' } }).codec.mode).toBe('stream');
    expect(() => resolveEngineConfig({ codec: { mode: 'full' } })).toThrow(/codec\.mode.*auto.*window.*stream/);
  });

  it("resolves codec.stateStore 'auto' to the device on WebGPU only, and rejects other values naming the valid ones", () => {
    const auto = resolveEngineConfig({});
    expect(resolveCodecStateStore(auto, 'webgpu', 'off')).toBe('device');
    expect(resolveCodecStateStore(auto, 'webgpu', 'on')).toBe('host');
    expect(resolveCodecStateStore(auto, 'cpu', 'off')).toBe('host');
    expect(resolveCodecStateStore(auto, 'cuda', 'off')).toBe('host');
    expect(resolveCodecStateStore(resolveEngineConfig({ codec: { stateStore: 'device' } }), 'cpu', 'off')).toBe('device');
    expect(() => resolveEngineConfig({ codec: { stateStore: 'gpu' } })).toThrow(/codec\.stateStore.*auto.*host.*device/);
  });

  it("takes codec.upsample 'auto' (the default), 'conv-transpose' or 'matmul', the latter only with a streaming codec", () => {
    expect(resolveEngineConfig({}).codec.upsample).toBe('auto');
    expect(resolveEngineConfig({ codec: { upsample: 'auto', mode: 'window' } }).codec.upsample).toBe('auto');
    expect(resolveEngineConfig({ codec: { upsample: 'matmul' } }).codec.upsample).toBe('matmul');
    expect(resolveEngineConfig({ codec: { upsample: 'matmul', mode: 'stream' } }).codec.mode).toBe('stream');
    expect(() => resolveEngineConfig({ codec: { upsample: 'gemm' } })).toThrow(/codec\.upsample.*auto.*conv-transpose.*matmul/);
    expect(() => resolveEngineConfig({ codec: { upsample: 'matmul', mode: 'window' } })).toThrow(/'codec\.upsample' 'matmul' has only streaming codec graphs; use codec\.mode 'stream'/);
  });

  it('rejects an unknown key naming its path', () => {
    expect(() => resolveEngineConfig({ codec: { chunkSize: 3 } })).toThrow(/'codec\.chunkSize' is not a setting/);
  });

  it('rejects a wrong type naming its path', () => {
    expect(() => resolveEngineConfig({ maxRunningSequences: '4' })).toThrow(/'maxRunningSequences' must be 'auto' or an integer ≥ 1, got "4"/);
    expect(() => resolveEngineConfig({ shapeBuckets: { talkerRows: 'wide' } })).toThrow(/'shapeBuckets.talkerRows' must be 'auto' or an integer/);
    expect(() => resolveEngineConfig({ kvCache: { regroupOnDevice: 'yes' } })).toThrow(/'kvCache.regroupOnDevice' must be a boolean/);
    expect(resolveEngineConfig({ kvCache: { regroupOnDevice: false } }).kvCache.regroupOnDevice).toBe(false);
  });

  it('rejects an unknown provider listing the valid ones', () => {
    expect(() => resolveEngineConfig({ provider: 'tpu' })).toThrow(/valid values: auto, cpu, webgpu, cuda, dml/);
  });

  it('rejects a first chunk longer than the chunk', () => {
    expect(() => resolveEngineConfig({ codec: { firstChunkFrames: 9 } })).toThrow(/firstChunkFrames/);
  });

  it("takes 'auto' or a number for the batch limits and bucket rows, and reads 'auto' as the narrow defaults without a plan", () => {
    const set = resolveEngineConfig({ maxRunningSequences: 32, maxPrefillSequences: 'auto', shapeBuckets: { talkerRows: 16, codePredictorRows: 'auto' } });
    expect([set.maxRunningSequences, set.maxPrefillSequences, set.shapeBuckets.talkerRows, set.shapeBuckets.codePredictorRows]).toEqual([32, 'auto', 16, 'auto']);
    expect(batchLimitsOf(set)).toEqual({ maxRunningSequences: 32, maxPrefillSequences: 4 });
    expect(batchLimitsOf(resolveEngineConfig({}))).toEqual({ maxRunningSequences: 8, maxPrefillSequences: 4 });
    // an 'auto' prefill never exceeds an explicit running limit below it
    expect(batchLimitsOf(resolveEngineConfig({ maxRunningSequences: 2 }))).toEqual({ maxRunningSequences: 2, maxPrefillSequences: 2 });
    // two numbers are still checked against each other
    expect(() => resolveEngineConfig({ maxRunningSequences: 2, maxPrefillSequences: 3 })).toThrow(/maxPrefillSequences.*must not exceed/);
  });

  it('rejects non-integer or too small counts', () => {
    expect(() => resolveEngineConfig({ maxRunningSequences: 0 })).toThrow(/integer ≥ 1/);
    expect(() => resolveEngineConfig({ codec: { chunkFrames: 2.5 } })).toThrow(/codec\.chunkFrames/);
  });

  it('describes every setting for the start-up log', () => {
    expect(describeEngineConfig(defaultEngineConfig())).toMatch(/leftContextFrames=25/);
  });
});
