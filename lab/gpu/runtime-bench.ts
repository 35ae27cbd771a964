/**
 * Lab: the stages of a built model under each ONNX Runtime variant (not a test; records numbers and
 * errors, never fails on them). Variants: cpu / cpu-capi, webgpu / webgpu-capi / webgpu-capture
 * (enableGraphCapture), cuda / cuda-graph (enable_cuda_graph). Each stage (talker decode, code-predictor
 * loop, codec) runs through the engine's own stage classes; its last feeds are then replayed through
 * an IoBinding whose buffers persist across runs (gpu_graph_id 1), the form graph capture needs.
 * Run: npx tsx lab/gpu/runtime-bench.ts --model <built dir> --variants cpu,cpu-capi --out <dir>
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { talkerOptionsFor } from '../../src-main/engine/kv/create-kv-store';
import { resolveEngineConfig } from '../../src-main/engine/engine-config';
import { planEngine } from '../../src-main/engine/engine-plan';
import { OrtCodePredictorLoop } from '../../src-main/engine/stages/code-predictor-loop';
import { OrtCodecDecoder } from '../../src-main/engine/stages/codec-decoder';
import { EmbeddingTables } from '../../src-main/engine/stages/embedding-tables';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import { OrtTalker } from '../../src-main/engine/stages/talker';
import { capturesGraphs, type CapiStageSession } from '../../src-main/engine/runtime/capi/capi-runtime';
import { createSession, type OrtSession, type OrtTensor, type ProviderName, type SessionOptions, type TensorDtype } from '../../src-main/engine/runtime/ort';

/** Provider, adapter and provider options of each variant; `bound` replays through IoBinding. */
export const RUNTIME_VARIANTS: Record<string, Pick<SessionOptions, 'provider' | 'runtime' | 'providerOptions'>> = {
  cpu: { provider: 'cpu', runtime: 'node' },
  'cpu-capi': { provider: 'cpu', runtime: 'c-api' },
  webgpu: { provider: 'webgpu', runtime: 'node' },
  'webgpu-capi': { provider: 'webgpu', runtime: 'c-api' },
  'webgpu-capture': { provider: 'webgpu', runtime: 'c-api', providerOptions: { enableGraphCapture: '1' } },
  cuda: { provider: 'cuda', runtime: 'c-api' },
  'cuda-graph': { provider: 'cuda', runtime: 'c-api', providerOptions: { enable_cuda_graph: '1' } },
};

const round = (x: number) => Number(x.toFixed(3));
const message = (err: unknown) => (err as Error).message.slice(0, 600);

async function timeMs(fn: () => Promise<unknown>, runs: number): Promise<{ meanMs: number; minMs: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return { meanMs: round(times.reduce((a, b) => a + b, 0) / runs), minMs: round(Math.min(...times)) };
}

/** A session that remembers the feeds of its last run (host tensors), for the bound replay. */
function recording(session: OrtSession): { session: OrtSession; inner: OrtSession; lastFeeds: () => Record<string, OrtTensor> | null; lastResults: () => Record<string, OrtTensor> | null } {
  let last: Record<string, OrtTensor> | null = null;
  let results: Record<string, OrtTensor> | null = null;
  const proxy: OrtSession = {
    runtime: session.runtime,
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    run: async (feeds, fetches) => ((last = feeds), (results = await session.run(feeds, fetches))),
    endProfiling: () => session.endProfiling(),
    release: () => session.release(),
  };
  return { session: proxy, inner: session, lastFeeds: () => last, lastResults: () => results };
}

const hex = (d: ArrayBufferView) => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');

/**
 * The last feeds replayed through one IoBinding whose buffers persist across runs: inputs and outputs
 * in device memory (host memory on CPU), inputs written once before the runs; the outputs are read
 * back and compared with the plain run's bytes (`sameBytes`).
 */
async function boundReplay(session: OrtSession, feeds: Record<string, OrtTensor>, results: Record<string, OrtTensor>, runs: number, location: 'cpu' | 'device'): Promise<unknown> {
  if (session.runtime !== 'c-api') return null;
  const binding = (session as CapiStageSession).bind();
  try {
    for (const [name, t] of Object.entries(feeds)) {
      if (t.location !== 'cpu') return { error: `input ${name} is @${t.location}` };
      await binding.write(binding.input(name, t.type as TensorDtype, t.dims, location), t.data as ArrayBufferView);
    }
    const outputs = Object.entries(results).map(([name, t]) => [binding.output(name, t.type as TensorDtype, t.dims, location), t] as const);
    const timing = await timeMs(() => binding.run({ gpuGraphId: 1 }), runs);
    let sameBytes = true;
    for (const [buffer, t] of outputs) sameBytes &&= hex((await binding.read(buffer)) as ArrayBufferView) === hex(t.data as ArrayBufferView);
    return { ...timing, location, sameBytes };
  } catch (err) {
    return { error: message(err) };
  } finally {
    binding.release();
  }
}

async function stageRuns(builtDir: string, variant: string, runs: number): Promise<Record<string, unknown>> {
  const spec = RUNTIME_VARIANTS[variant];
  if (!spec) throw new Error(`unknown variant ${variant}; known: ${Object.keys(RUNTIME_VARIANTS).join(', ')}`);
  const manifest = loadModelManifest(builtDir);
  const h = manifest.talker.hiddenSize;
  const embeddings = new EmbeddingTables(builtDir, manifest);
  const out: Record<string, unknown> = { spec };
  // capture sessions run only over fixed buffers: the stage's own (plain) runs use the same provider without capture
  const capture = capturesGraphs(spec);
  const plainSpec = capture ? { ...spec, providerOptions: {} } : spec;
  const open = async (file: string) => recording(await createSession(path.join(builtDir, file), { ...plainSpec }));
  const sine = (n: number, phase: number) => Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin(i * 0.37 + phase));
  const stage = async (name: string, file: string, run: (s: OrtSession) => Promise<{ call: () => Promise<unknown>; dispose: () => Promise<void> }>) => {
    try {
      const rec = await open(file);
      const { call, dispose } = await run(rec.session);
      const plain = await timeMs(call, runs).catch((err: unknown) => ({ error: message(err) }));
      const feeds = rec.lastFeeds();
      const results = rec.lastResults();
      const location = spec.provider === 'cpu' ? 'cpu' : 'device';
      let bound: unknown = null;
      if (feeds && results && capture) {
        const captured = await createSession(path.join(builtDir, file), { ...spec });
        bound = await boundReplay(captured, feeds, results, runs, location).finally(() => captured.release());
      } else if (feeds && results) bound = await boundReplay(rec.inner, feeds, results, runs, location);
      out[name] = { plain, bound };
      await dispose();
    } catch (err) {
      out[name] = { error: message(err) };
    }
    console.log(variant, name, JSON.stringify(out[name]));
  };
  const provider = spec.provider as ProviderName;
  await stage('talkerDecode', manifest.graphs.talker.file, async (s) => {
    const talker = new OrtTalker(s, manifest, await talkerOptionsFor(manifest, planEngine(resolveEngineConfig({ kvCache: { mode: 'host' } }), provider, manifest).resolved, provider, null));
    await talker.prefill([{ sequenceId: 1, embeds: sine(8 * h, 0), numRows: 8 }]);
    // one decode position per call at the same past length: release and prefill again would cost more than the call
    return { call: () => talker.decode([{ sequenceId: 1, embeds: sine(h, 1), numRows: 1 }]), dispose: () => talker.dispose() };
  });
  await stage('codePredictorLoop', manifest.graphs.codePredictorLoop.file, async (s) => {
    const loop = new OrtCodePredictorLoop(s, manifest, embeddings);
    const rows = [{ hidden: sine(h, 2), c0: 100, warpers: { doSample: true, temperature: 0.9, topK: 50, topP: 1 }, uniforms: Float64Array.from({ length: manifest.numCodeGroups - 1 }, (_, j) => (0.137 + j * 0.071) % 1) }];
    return { call: () => loop.predict(rows), dispose: () => loop.dispose() };
  });
  await stage('codec', manifest.graphs.codec.file, async (s) => {
    const codec = new OrtCodecDecoder(s, manifest);
    const window = Array.from({ length: 16 }, (_, t) => Array.from({ length: manifest.codec.numQuantizers }, (_, q) => (t * 31 + q * 17) % 2048));
    return { call: () => codec.decodeBatch([window]), dispose: () => codec.dispose() };
  });
  embeddings.dispose();
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, variants: { type: 'string', default: 'cpu,cpu-capi' }, runs: { type: 'string', default: '20' }, out: { type: 'string', default: '.cache/runtime-bench' } } });
  if (!values.model) throw new Error('--model <built model folder> is required');
  const results: Record<string, unknown> = { date: new Date().toISOString(), model: values.model };
  fs.mkdirSync(values.out!, { recursive: true });
  for (const v of values.variants!.split(',')) {
    results[v] = await stageRuns(values.model, v, Number(values.runs));
    fs.writeFileSync(path.join(values.out!, 'runtime-bench.json'), JSON.stringify(results, null, 1));
  }
}

if (/runtime-bench\.(ts|m?js)$/.test(process.argv[1] ?? '')) await main();
