// The resolved engine plan, per provider: what every 'auto' becomes on CPU, WebGPU, CUDA and DirectML,
// what graph capture runs where (options, sessions per graph, buffer memory, the graph of each stage),
// explicit settings winning over 'auto', and a start-up description with nothing left unresolved.
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from './engine-config';
import { codecChunks } from './stages/bucketed-stages';
import { describeEnginePlan, planEngine, stageCaptureOptions, type PlanFacts } from './engine-plan';
import type { ProviderName } from './runtime/providers';

/** A tiny build (hidden 256: one intra-op thread) and a real-sized one (hidden 1024: ORT's default). */
const TINY: PlanFacts = { talker: { hiddenSize: 256, numLayers: 2, numKvHeads: 2, headDim: 32 }, dtype: 'fp32', defaultCodePredictor: 'loop' };
/** The 0.6B talker's shape (fp16: 114,688 KV bytes a position). */
const REAL: PlanFacts = { talker: { hiddenSize: 1024, numLayers: 28, numKvHeads: 8, headDim: 128 }, dtype: 'fp16', defaultCodePredictor: 'step' };
const NO_ENV = {};

describe('engine plan', () => {
  it("resolves every 'auto' of the defaults per provider", () => {
    const expected: Record<ProviderName, { kv: string; state: string; buckets: string; onDevice: boolean }> = {
      cpu: { kv: 'host', state: 'host', buckets: 'off', onDevice: false },
      webgpu: { kv: 'device', state: 'device', buckets: 'on', onDevice: true },
      cuda: { kv: 'host', state: 'host', buckets: 'on', onDevice: false },
      dml: { kv: 'host', state: 'host', buckets: 'on', onDevice: false },
    };
    for (const [provider, want] of Object.entries(expected) as [ProviderName, (typeof expected)[ProviderName]][]) {
      const plan = planEngine(resolveEngineConfig({}), provider, TINY, NO_ENV);
      expect(plan.resolved.provider).toBe(provider);
      expect(plan.resolved.codec.mode).toBe('stream');
      expect(plan.resolved.codec.stateStore).toBe(want.state);
      expect(plan.resolved.kvCache.mode).toBe(want.kv);
      expect(plan.resolved.shapeBuckets.mode).toBe(want.buckets);
      expect(plan.talkerOutputsOnDevice).toBe(want.onDevice);
      expect(plan.resolved.codePredictor).toBe('loop'); // the manifest's default
      expect(plan.resolved.codecBatching).toBe('on'); // one thread: batched rows equal solo ones on CPU too
      expect(plan.resolved.intraOpNumThreads).toBe(1);
      if (provider === 'cuda') continue; // captured by default: its own test below
      expect(plan.runtime).toBe('node');
      expect(plan.capture).toBeNull();
      expect(plan.sessionOptions).toEqual({ provider, intraOpNumThreads: 1 });
    }
  });

  it('runs every bucketed stage at exactly talkerRows rows where the kernels vary with any row count (CUDA), and only there', () => {
    const cuda = planEngine(resolveEngineConfig({ shapeBuckets: { talkerRows: 4 } }), 'cuda', TINY, NO_ENV).resolved.shapeBuckets;
    expect(cuda).toMatchObject({ mode: 'on', talkerRows: 4, talkerPrefillRows: 1, codePredictorRows: 8, codecMinRows: 4, codecMaxRowFrames: 4 });
    const webgpu = planEngine(resolveEngineConfig({ shapeBuckets: { talkerRows: 4 } }), 'webgpu', TINY, NO_ENV).resolved.shapeBuckets;
    expect(webgpu).toMatchObject({ mode: 'on', talkerRows: 4, talkerPrefillRows: 1, codecMinRows: 2, codecMaxRowFrames: 160 });
    // an explicit prefill row count holds on CUDA too: every prefill run then has that many rows (one arrival alone at 1)
    const prefill1 = planEngine(resolveEngineConfig({ shapeBuckets: { talkerRows: 4, talkerPrefillRows: 1 } }), 'cuda', TINY, NO_ENV).resolved.shapeBuckets;
    expect(prefill1).toMatchObject({ mode: 'on', talkerRows: 4, talkerPrefillRows: 1, codecMinRows: 4 });
    // buckets off: the row counts are not touched, CUDA or not
    expect(planEngine(resolveEngineConfig({ shapeBuckets: { mode: 'off' } }), 'cuda', TINY, NO_ENV).resolved.shapeBuckets).toMatchObject({ mode: 'off', talkerPrefillRows: 1, codecMinRows: 2 });
    // a codec call then never holds more or fewer than talkerRows rows, whatever its frame count
    for (const frames of [1, 8, 25]) for (const rows of [1, 3, 4, 7, 9]) {
      const sizes = codecChunks(rows, frames, cuda.codecMinRows, cuda.codecMaxRowFrames);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(rows);
      for (const n of sizes) expect(n).toBeLessThanOrEqual(4);
    }
  });

  it("keeps ORT's thread pool for real sizes and then batches the codec only where threaded rows do not differ", () => {
    const cpu = planEngine(resolveEngineConfig({}), 'cpu', REAL, NO_ENV);
    expect(cpu.resolved.intraOpNumThreads).toBe(0);
    expect(cpu.sessionOptions).toEqual({ provider: 'cpu' });
    expect(cpu.resolved.codecBatching).toBe('off');
    expect(cpu.resolved.codePredictor).toBe('step');
    expect(planEngine(resolveEngineConfig({}), 'webgpu', REAL, NO_ENV).resolved.codecBatching).toBe('on');
    expect(planEngine(resolveEngineConfig({ intraOpNumThreads: 1 }), 'cpu', REAL, NO_ENV).resolved.codecBatching).toBe('on');
  });

  it('lets explicit settings win over what the provider would pick', () => {
    const config = resolveEngineConfig({ kvCache: { mode: 'host' }, codec: { mode: 'window', stateStore: 'host' }, codecBatching: 'off', shapeBuckets: { mode: 'off' }, codePredictor: 'step' });
    const plan = planEngine(config, 'webgpu', TINY, NO_ENV);
    expect(plan.resolved.kvCache.mode).toBe('host');
    expect(plan.talkerOutputsOnDevice).toBe(false);
    expect(plan.resolved.codec).toMatchObject({ mode: 'window', stateStore: 'host' });
    expect(plan.resolved.codecBatching).toBe('off');
    expect(plan.resolved.shapeBuckets.mode).toBe('off');
    expect(plan.resolved.codePredictor).toBe('step');
    // device KV asked for on CUDA: a device store, but the binding cannot keep CUDA outputs on the device
    const cuda = planEngine(resolveEngineConfig({ kvCache: { mode: 'device' } }), 'cuda', TINY, NO_ENV);
    expect(cuda.resolved.kvCache.mode).toBe('device');
    expect(cuda.talkerOutputsOnDevice).toBe(false);
  });

  it('pins the device on providers that have devices only', () => {
    const config = resolveEngineConfig({ deviceIndex: 1 });
    expect(planEngine(config, 'dml', REAL, NO_ENV).sessionOptions).toEqual({ provider: 'dml', deviceIndex: 1 });
    expect(planEngine(config, 'cuda', REAL, NO_ENV).sessionOptions).toMatchObject({ provider: 'cuda', deviceIndex: 1 });
    expect(planEngine(config, 'webgpu', REAL, NO_ENV).sessionOptions).toEqual({ provider: 'webgpu', deviceIndex: 1 });
    expect(planEngine(config, 'cpu', REAL, NO_ENV).sessionOptions).toEqual({ provider: 'cpu' });
  });

  it('captures on CUDA with many graphs per session and the GQA loop, buffers on the device, KV and codec state staged from the host', () => {
    const plan = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' } }), 'cuda', TINY, NO_ENV);
    expect(plan.capture).toEqual({
      mode: 'on', options: { enable_cuda_graph: '1' }, perGraph: false, sessionPerBucket: { codec: true }, location: 'device', maxBuckets: 16,
      captured: { talker: true, codePredictor: true, codec: false },
      graphs: { talker: 'talkerDecode', codePredictor: 'codePredictorLoopStatic', codec: 'codecStreamStaticMatMul' },
    });
    expect(plan.sessionOptions.runtime).toBe('c-api');
    expect(plan.runtime).toBe('c-api');
    expect(plan.resolved.kvCache.mode).toBe('host');
    expect(plan.resolved.codec.stateStore).toBe('host');
  });

  it('captures on WebGPU with a session per graph and the plain-attention loop, its KV and codec state on the host pool', () => {
    const plan = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' } }), 'webgpu', TINY, NO_ENV);
    expect(plan.capture).toMatchObject({ options: { enableGraphCapture: '1' }, perGraph: true, location: 'device', graphs: { codePredictor: 'codePredictorLoopPlain' } });
    expect(plan.resolved.kvCache.mode).toBe('host');
    expect(plan.resolved.codec.stateStore).toBe('host');
    expect(plan.talkerOutputsOnDevice).toBe(false);
  });

  it("runs the bound forms uncaptured with 'bound' and where the provider captures nothing, in host memory on the CPU", () => {
    const bound = planEngine(resolveEngineConfig({ graphCapture: { mode: 'bound' } }), 'webgpu', TINY, NO_ENV);
    expect(bound.capture).toMatchObject({ mode: 'bound', options: {}, perGraph: false, location: 'device' });
    const cpu = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on', maxBuckets: 4 } }), 'cpu', TINY, NO_ENV);
    expect(cpu.capture).toMatchObject({ mode: 'on', options: {}, perGraph: false, location: 'cpu', maxBuckets: 4 });
    expect(cpu.runtime).toBe('c-api');
    const dml = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' } }), 'dml', TINY, NO_ENV);
    expect(dml.capture).toMatchObject({ options: {}, perGraph: false, location: 'device' });
  });

  it("gives CUDA's uncaptured streaming codec a session per shape bucket (cuDNN rebuilds a Conv's plan on each new shape), and no captured codec or other provider", () => {
    const cuda = planEngine(resolveEngineConfig({}), 'cuda', TINY, NO_ENV);
    expect(cuda.capture?.sessionPerBucket).toEqual({ codec: true });
    expect(describeEnginePlan(cuda)).toContain('(a session per shape bucket)');
    const bound = planEngine(resolveEngineConfig({ graphCapture: { mode: 'bound' } }), 'cuda', TINY, NO_ENV);
    expect(bound.capture?.sessionPerBucket).toEqual({ codec: true });
    const captured = planEngine(resolveEngineConfig({ graphCapture: { codec: 'on' } }), 'cuda', TINY, NO_ENV);
    expect(captured.capture?.sessionPerBucket).toEqual({ codec: false });
    const window = planEngine(resolveEngineConfig({ codec: { mode: 'window' } }), 'cuda', TINY, NO_ENV);
    expect(window.capture?.sessionPerBucket).toEqual({ codec: false });
    const webgpu = planEngine(resolveEngineConfig({ graphCapture: { mode: 'bound' } }), 'webgpu', TINY, NO_ENV);
    expect(webgpu.capture?.sessionPerBucket).toEqual({ codec: false });
    const shared = planEngine(resolveEngineConfig({ graphCapture: { codecSessions: 'shared' } }), 'cuda', TINY, NO_ENV);
    expect(shared.capture?.sessionPerBucket).toEqual({ codec: false });
    const forced = planEngine(resolveEngineConfig({ graphCapture: { mode: 'bound', codecSessions: 'per-bucket' } }), 'webgpu', TINY, NO_ENV);
    expect(forced.capture?.sessionPerBucket).toEqual({ codec: true });
    expect(() => resolveEngineConfig({ graphCapture: { codecSessions: 'each' } })).toThrow(/codecSessions/);
  });

  it('leaves the step code predictor and the window codec on their plain graphs when capture is on', () => {
    const plan = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, codePredictor: 'step', codec: { mode: 'window' } }), 'cuda', TINY, NO_ENV);
    expect(plan.capture?.graphs).toEqual({ talker: 'talkerDecode', codePredictor: null, codec: null });
  });

  it("opens the codec graph of the config's upsample form: the provider's by default, the MatMul forms plain and bound", () => {
    expect(planEngine(resolveEngineConfig({}), 'cpu', TINY, NO_ENV).codecGraph).toBe('codecStream');
    expect(planEngine(resolveEngineConfig({}), 'webgpu', TINY, NO_ENV).codecGraph).toBe('codecStream');
    expect(planEngine(resolveEngineConfig({}), 'cuda', TINY, NO_ENV).codecGraph).toBe('codecStreamMatMul');
    expect(planEngine(resolveEngineConfig({ codec: { mode: 'window' } }), 'cuda', TINY, NO_ENV).codecGraph).toBe('codec');
    expect(planEngine(resolveEngineConfig({ codec: { mode: 'window' } }), 'cuda', TINY, NO_ENV).resolved.codec.upsample).toBe('conv-transpose');
    const matmul = planEngine(resolveEngineConfig({ codec: { upsample: 'matmul' }, graphCapture: { mode: 'off' } }), 'cuda', TINY, NO_ENV);
    expect(matmul.codecGraph).toBe('codecStreamMatMul');
    expect(matmul.capture).toBeNull();
    expect(describeEnginePlan(matmul)).toMatch(/upsample=matmul [\s\S]*capture none \(plain graphs, codec=codecStreamMatMul\)/);
    const bound = planEngine(resolveEngineConfig({ codec: { upsample: 'matmul' }, graphCapture: { mode: 'on' } }), 'cuda', TINY, NO_ENV);
    expect(bound.capture?.graphs.codec).toBe('codecStreamStaticMatMul');
    expect(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, codec: { upsample: 'conv-transpose' } }), 'cuda', TINY, NO_ENV).capture?.graphs.codec).toBe('codecStreamStatic');
  });

  it("on CUDA 'auto' is the measured combination: talker and code predictor captured, the MatMul codec bound, cuDNN's heuristic plans; elsewhere plain graphs", () => {
    const cuda = planEngine(resolveEngineConfig({}), 'cuda', TINY, NO_ENV);
    expect(cuda.resolved.graphCapture).toMatchObject({ mode: 'on', codec: 'off' });
    expect(cuda.capture).toMatchObject({ mode: 'on', captured: { talker: true, codePredictor: true, codec: false }, graphs: { codec: 'codecStreamStaticMatMul' } });
    expect(cuda.sessionOptions.providerOptions).toEqual({ cudnn_conv_algo_search: 'HEURISTIC', cudnn_conv_use_max_workspace: '1', prefer_nhwc: '1' });
    expect(cuda.runtime).toBe('c-api');
    // the config's own options win key by key
    const own = planEngine(resolveEngineConfig({ providerOptions: { cudnn_conv_algo_search: 'EXHAUSTIVE' } }), 'cuda', TINY, NO_ENV);
    expect(own.sessionOptions.providerOptions).toMatchObject({ cudnn_conv_algo_search: 'EXHAUSTIVE', prefer_nhwc: '1' });
    for (const provider of ['cpu', 'webgpu', 'dml'] as const) {
      const plan = planEngine(resolveEngineConfig({}), provider, TINY, NO_ENV);
      expect(plan.capture, provider).toBeNull();
      expect(plan.sessionOptions.providerOptions, provider).toBeUndefined();
      expect(plan.resolved.codec.upsample, provider).toBe('conv-transpose');
    }
    // asking for device-resident KV keeps 'auto' off capture (the bound forms stage it from the host)
    expect(planEngine(resolveEngineConfig({ kvCache: { mode: 'device' } }), 'cuda', TINY, NO_ENV).capture).toBeNull();
    expect(describeEnginePlan(cuda)).not.toMatch(/=auto\b/);
  });

  it('names the adapter the stage options open on: STUDIO_ORT_RUNTIME, or the C API for options the binding drops', () => {
    expect(planEngine(resolveEngineConfig({}), 'cpu', TINY, { STUDIO_ORT_RUNTIME: 'c-api' }).runtime).toBe('c-api');
    expect(planEngine(resolveEngineConfig({ providerOptions: { enable_cuda_graph: '1' } }), 'cuda', TINY, NO_ENV).runtime).toBe('c-api');
    expect(planEngine(resolveEngineConfig({ providerOptions: { validationMode: 'disabled' } }), 'webgpu', TINY, NO_ENV).runtime).toBe('node');
  });

  it('describes the plan for the start-up log with nothing left at auto', () => {
    const text = describeEnginePlan(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' } }), 'cuda', TINY, NO_ENV));
    expect(text).not.toMatch(/=auto\b|=manifest\b/);
    expect(text).toMatch(/^provider=cuda intraOpNumThreads=1/);
    expect(text).toMatch(/codec mode=stream stateStore=host/);
    expect(text).toMatch(/runtime=c-api .*capture options=\{"enable_cuda_graph":"1"\} perGraph=false buffers=device talker=talkerDecode codePredictor=codePredictorLoopStatic codec=codecStreamStatic/);
    expect(describeEnginePlan(planEngine(resolveEngineConfig({}), 'cpu', TINY, NO_ENV))).toMatch(/runtime=node talkerOutputsOnDevice=false capture none/);
  });

  it("captures every capture-ready stage on WebGPU; on CUDA the codec only when asked (its captured replays were not byte-exact on the H100)", () => {
    const on = resolveEngineConfig({ graphCapture: { mode: 'on' } });
    const webgpu = planEngine(on, 'webgpu', TINY, NO_ENV).capture!;
    for (const stage of ['talker', 'codePredictor', 'codec'] as const) expect(stageCaptureOptions(webgpu, stage)).toEqual({ enableGraphCapture: '1' });
    const cuda = planEngine(on, 'cuda', TINY, NO_ENV);
    expect(stageCaptureOptions(cuda.capture!, 'talker')).toEqual({ enable_cuda_graph: '1' });
    expect(stageCaptureOptions(cuda.capture!, 'codePredictor')).toEqual({ enable_cuda_graph: '1' });
    expect(stageCaptureOptions(cuda.capture!, 'codec')).toEqual({});
    expect(describeEnginePlan(planEngine(resolveEngineConfig({ graphCapture: { mode: 'on' }, codec: { upsample: 'conv-transpose' } }), 'cuda', TINY, NO_ENV))).toContain('codec=codecStreamStatic (bound, uncaptured)');
    const forced = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on', codec: 'on' } }), 'cuda', TINY, NO_ENV);
    expect(stageCaptureOptions(forced.capture!, 'codec')).toEqual({ enable_cuda_graph: '1' });
    const webgpuOff = planEngine(resolveEngineConfig({ graphCapture: { mode: 'on', codec: 'off' } }), 'webgpu', TINY, NO_ENV);
    expect(stageCaptureOptions(webgpuOff.capture!, 'codec')).toEqual({});
    const bound = planEngine(resolveEngineConfig({ graphCapture: { mode: 'bound' } }), 'cuda', TINY, NO_ENV).capture!;
    for (const stage of ['talker', 'codePredictor', 'codec'] as const) expect(stageCaptureOptions(bound, stage)).toEqual({});
  });

  it("goes wide for a server where the provider table has wide limits and half the device's memory holds their KV, else stays at 8 running", () => {
    const GIB = 1024 ** 3;
    const server = resolveEngineConfig({ workload: 'server' });
    const limits = (p: ReturnType<typeof planEngine>) => [p.resolved.maxRunningSequences, p.resolved.maxPrefillSequences, p.resolved.shapeBuckets.talkerRows, p.resolved.shapeBuckets.codePredictorRows];
    // 64 sequences × 4096 tokens × 114,688 bytes (28 layers × 8 KV heads × 128 × 2 × fp16) = 28.0 GiB ≤ 80 / 2
    const webgpu = planEngine(server, 'webgpu', REAL, NO_ENV, { deviceMemoryBytes: 80 * GIB });
    expect(webgpu.concurrency.kind).toBe('wide');
    expect(limits(webgpu)).toEqual([64, 16, 64, 64]);
    // interactive use (the studio's default) stays narrow on the same device, and says why
    const studio = planEngine(resolveEngineConfig({}), 'webgpu', REAL, NO_ENV, { deviceMemoryBytes: 80 * GIB });
    expect(studio.concurrency).toMatchObject({ kind: 'narrow', reason: expect.stringMatching(/interactive use/) });
    expect(limits(studio)).toEqual([8, 4, 8, 8]);
    // a provider that never runs wide says that, not the interactive reason
    expect(planEngine(resolveEngineConfig({}), 'cpu', REAL, NO_ENV).concurrency.reason).toMatch(/^CPU has no wide limits/);
    // CUDA has no wide limits until its buckets share one KV (the H200's out-of-memory run): narrow for a server too
    const cuda = planEngine(server, 'cuda', REAL, NO_ENV, { deviceMemoryBytes: 80 * GIB });
    expect(cuda.concurrency).toMatchObject({ kind: 'narrow', reason: expect.stringMatching(/CUDA has no wide limits/) });
    // too small (28.0 GiB > 48 / 2): the narrow defaults, and the reason names both sizes
    const small = planEngine(server, 'webgpu', REAL, NO_ENV, { deviceMemoryBytes: 48 * GIB });
    expect(small.concurrency).toMatchObject({ kind: 'narrow', reason: expect.stringMatching(/need 28\.0 GiB of KV, more than half the device's 48\.0 GiB/) });
    expect(limits(small)).toEqual([8, 4, 8, 8]);
    // unknown memory, or a provider without wide limits (the CPU: every golden's shapes), stay narrow too
    expect(limits(planEngine(server, 'webgpu', REAL, NO_ENV))).toEqual([8, 4, 8, 8]);
    const cpu = planEngine(server, 'cpu', REAL, NO_ENV, { deviceMemoryBytes: 1024 * GIB });
    expect([cpu.concurrency.kind, ...limits(cpu)]).toEqual(['narrow', 8, 4, 8, 8]);
    expect(limits(planEngine(server, 'dml', REAL, NO_ENV, { deviceMemoryBytes: 1024 * GIB }))).toEqual([8, 4, 8, 8]);
    expect(describeEnginePlan(webgpu)).toMatch(/maxRunningSequences=64 maxPrefillSequences=16[\s\S]*concurrency wide \(WebGPU with 80\.0 GiB/);
    // CUDA's full-row rule runs codec calls at the talker's rows when 64 are set by hand; prefill stays one row a run
    const cudaSet = planEngine(resolveEngineConfig({ maxRunningSequences: 64, shapeBuckets: { talkerRows: 64 } }), 'cuda', REAL, NO_ENV, { deviceMemoryBytes: 80 * GIB });
    expect(cudaSet.resolved.shapeBuckets).toMatchObject({ talkerPrefillRows: 1, codecMinRows: 64, codecMaxRowFrames: 64 });
  });

  it('lets an explicit batch limit or bucket row count win over the wide pick, each on its own', () => {
    const big = { deviceMemoryBytes: 80 * 1024 ** 3 };
    const server = { workload: 'server' } as const;
    const counts = (p: ReturnType<typeof planEngine>) => [p.resolved.maxRunningSequences, p.resolved.maxPrefillSequences, p.resolved.shapeBuckets.talkerRows, p.resolved.shapeBuckets.codePredictorRows];
    // running 'auto' goes wide; talker rows 16 as set, the rest wide's
    const rows = planEngine(resolveEngineConfig({ ...server, shapeBuckets: { talkerRows: 16 } }), 'webgpu', REAL, NO_ENV, big);
    expect([rows.concurrency.kind, ...counts(rows)]).toEqual(['wide', 64, 16, 16, 64]);
    // running set: the other 'auto' counts are the narrow defaults (prefill 4, code-predictor rows 8), talker rows 16 as set
    const some = planEngine(resolveEngineConfig({ maxRunningSequences: 12, shapeBuckets: { talkerRows: 16 } }), 'cuda', REAL, NO_ENV, big);
    expect([some.concurrency.kind, ...counts(some)]).toEqual(['set', 12, 4, 16, 8]);
    // and prefill 'auto' never exceeds a running limit below it
    expect(counts(planEngine(resolveEngineConfig({ maxRunningSequences: 2 }), 'cuda', REAL, NO_ENV, big))).toEqual([2, 2, 8, 8]);
    const all = planEngine(resolveEngineConfig({ maxRunningSequences: 8, maxPrefillSequences: 4, shapeBuckets: { talkerRows: 8, codePredictorRows: 8 } }), 'cuda', REAL, NO_ENV, big);
    expect(all.concurrency).toMatchObject({ kind: 'set', maxRunningSequences: 8, maxPrefillSequences: 4, talkerRows: 8, codePredictorRows: 8 });
  });
});
