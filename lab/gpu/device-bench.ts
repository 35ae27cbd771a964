/**
 * Lab: the GPU-machine measurement batch for issue 9 (not a test; records numbers, never fails on
 * them). Synthesises the full-size 0.6B checkpoint, builds it, then per section: stage batch scaling
 * (talker decode, code predictor loop/step, codec), ORT node profiles, engine single-stream RTF and
 * first audio, concurrent throughput with a batch-invariance check, and load-time costs.
 * Run (bundled): node device-bench.mjs --work /tmp/w --out $OUT --sections build16,webgpu,build32,cpu
 * A section may name an op set: build16:portable,webgpu:portable builds and measures a --ops portable build
 * (result keys get a _portable suffix). --engineConfig '{...}' is merged into every engine's config;
 * section 'engine' runs only the engine part of 'webgpu' (1 stream, then --concurrencies together) once per
 * object of --engineConfigs '[{...},{...}]' when given (A/B/B/A in one process), for quick A/Bs of settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { buildModel } from '../../src-main/model-builder/build';
import type { ModelManifest } from '../../src-main/model-format/manifest';
import type { GraphOps } from '../../src-main/model-format/onnx/graph-builder';
import { writeSyntheticCheckpoint } from '../../src-main/model-builder/synthetic-checkpoint';
import { createEngine } from '../../src-main/engine/create-engine';
import type { Engine } from '../../src-main/engine/engine';
import { OrtCodePredictor } from '../../src-main/engine/stages/code-predictor';
import { OrtCodePredictorLoop } from '../../src-main/engine/stages/code-predictor-loop';
import { OrtCodecDecoder } from '../../src-main/engine/stages/codec-decoder';
import { EmbeddingTables } from '../../src-main/engine/stages/embedding-tables';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import type { CodePredictorRow } from '../../src-main/engine/stages/stages';
import { OrtTalker } from '../../src-main/engine/stages/talker';
import { talkerOptionsFor } from '../../src-main/engine/kv/create-kv-store';
import { resolveEngineConfig } from '../../src-main/engine/engine-config';
import { planEngine } from '../../src-main/engine/engine-plan';
import { createSession, listAvailableProviders, type ProviderName, type SessionOptions } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({
  options: {
    work: { type: 'string', default: '/tmp/device-bench' },
    out: { type: 'string', default: '.cache/device-out' },
    sections: { type: 'string', default: 'build16,webgpu,build32,cpu' },
    frames: { type: 'string', default: '40' },
    cpuFrames: { type: 'string', default: '12' },
    budgetS: { type: 'string', default: '540' },
    size: { type: 'string', default: '0.6b' },
    engineConfig: { type: 'string', default: '{}' },
    engineConfigs: { type: 'string' },
    concurrencies: { type: 'string', default: '8' },
  },
});
const startedMs = performance.now();
const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, providers: listAvailableProviders() };
fs.mkdirSync(args.out!, { recursive: true });
const save = () => fs.writeFileSync(path.join(args.out!, 'results.json'), JSON.stringify(results, null, 1));
const log = (...xs: unknown[]) => console.log(`[${((performance.now() - startedMs) / 1000).toFixed(1)}s]`, ...xs);
const elapsedS = () => (performance.now() - startedMs) / 1000;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function timeMs(fn: () => Promise<unknown>, numRuns: number, numWarmup = 1): Promise<{ meanMs: number; minMs: number }> {
  for (let i = 0; i < numWarmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < numRuns; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return { meanMs: round(times.reduce((a, b) => a + b, 0) / times.length), minMs: round(Math.min(...times)) };
}

function sineEmbeds(numValues: number, phase: number): Float32Array {
  return Float32Array.from({ length: numValues }, (_, i) => 0.5 * Math.sin(i * 0.37 + phase));
}

/** Stage batch scaling with the engine's own stage classes (host-resident KV, host sampling where the path has it). */
async function stageScaling(builtDir: string, provider: ProviderName, batches: number[], profileDir: string | null): Promise<Record<string, unknown>> {
  const manifest = loadModelManifest(builtDir);
  const options = (stage: string): SessionOptions => ({ provider, ...(profileDir ? { enableProfiling: true, profileFilePrefix: path.join(profileDir, `${provider}-${stage}`) } : {}) });
  const embeddings = new EmbeddingTables(builtDir, manifest);
  const h = manifest.talker.hiddenSize;
  const out: Record<string, unknown> = {};
  const loadT = performance.now();
  const talker = new OrtTalker(await createSession(path.join(builtDir, manifest.graphs.talker.file), options('talker')), manifest, await talkerOptionsFor(manifest, planEngine(resolveEngineConfig({ kvCache: { mode: 'host' } }), provider, manifest).resolved, provider, null));
  const loop = new OrtCodePredictorLoop(await createSession(path.join(builtDir, manifest.graphs.codePredictorLoop.file), options('cp-loop')), manifest, embeddings);
  const step = new OrtCodePredictor(await createSession(path.join(builtDir, manifest.graphs.codePredictorStep.file), options('cp-step')), manifest, embeddings);
  const codec = new OrtCodecDecoder(await createSession(path.join(builtDir, manifest.graphs.codec.file), options('codec')), manifest);
  out.loadAllSessionsMs = round(performance.now() - loadT);
  const numPromptRows = 32;
  let nextId = 1;
  for (const batch of batches) {
    if (elapsedS() > Number(args.budgetS)) break;
    const ids = Array.from({ length: batch }, () => nextId++);
    const prefillT = performance.now();
    await talker.prefill(ids.map((id) => ({ sequenceId: id, embeds: sineEmbeds(numPromptRows * h, 0), numRows: numPromptRows })));
    const prefillMs = performance.now() - prefillT;
    const decode = await timeMs(() => talker.decode(ids.map((id) => ({ sequenceId: id, embeds: sineEmbeds(h, 1), numRows: 1 }))), 4);
    for (const id of ids) talker.release(id);
    const rows = (doSample: boolean): CodePredictorRow[] => ids.map((_, b) => ({
      hidden: sineEmbeds(h, b), c0: 100 + b, warpers: { doSample, temperature: 0.9, topK: 50, topP: 1 }, uniforms: Float64Array.from({ length: manifest.numCodeGroups - 1 }, (_, j) => ((b + 1) * 0.137 + j * 0.071) % 1),
    }));
    const cpLoop = await timeMs(() => loop.predict(rows(true)), 4);
    const cpStep = batch <= 8 || provider !== 'cpu' ? await timeMs(() => step.predict(rows(true)), 3) : null;
    const window = Array.from({ length: 33 }, (_, t) => Array.from({ length: manifest.codec.numQuantizers }, (_, q) => (t * 31 + q * 17) % 2048));
    const codecB = Math.min(batch, 8);
    const codecWindow = await timeMs(() => codec.decodeBatch(Array.from({ length: codecB }, () => window)), 3);
    out[`batch${batch}`] = {
      talkerPrefillMs32Rows: round(prefillMs),
      talkerDecodeMs: decode,
      codePredictorLoopMs: cpLoop,
      codePredictorStepMs15Calls: cpStep,
      codec33FramesMs: { batch: codecB, ...codecWindow },
    };
    log(provider, `batch ${batch}`, JSON.stringify(out[`batch${batch}`]));
    save();
  }
  // codec batch invariance on this provider: one window alone vs beside 3 others
  const w = (seed: number) => Array.from({ length: 12 }, (_, t) => Array.from({ length: manifest.codec.numQuantizers }, (_, q) => (seed * 131 + t * 17 + q * 7) % 2048));
  const alone = await codec.decode(w(1));
  const batched = (await codec.decodeBatch([w(1), w(2), w(3), w(4)]))[0];
  out.codecBatchInvariance = { identical: Buffer.from(alone.buffer).equals(Buffer.from(batched.buffer)), maxDiff: alone.reduce((m, v, i) => Math.max(m, Math.abs(v - batched[i])), 0) };
  for (const s of [talker, loop, step, codec]) await s.dispose();
  embeddings.dispose();
  return out;
}

/** Sums an ORT profile (JSON trace) by op type: node count per run and total µs. */
function summarizeProfiles(profileDir: string): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const file of fs.readdirSync(profileDir).filter((f) => f.endsWith('.json'))) {
    const events = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as { cat: string; name: string; dur: number; args?: { op_name?: string; provider?: string } }[];
    const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run');
    const nodes = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
    const byOp = new Map<string, { numNodes: number; totalUs: number }>();
    const byProvider = new Map<string, { numNodes: number; totalUs: number }>();
    for (const n of nodes) {
      const op = n.args?.op_name ?? '?';
      const p = n.args?.provider ?? '?';
      byOp.set(op, { numNodes: (byOp.get(op)?.numNodes ?? 0) + 1, totalUs: (byOp.get(op)?.totalUs ?? 0) + n.dur });
      byProvider.set(p, { numNodes: (byProvider.get(p)?.numNodes ?? 0) + 1, totalUs: (byProvider.get(p)?.totalUs ?? 0) + n.dur });
    }
    const numRuns = Math.max(1, runs.length);
    const top = [...byOp.entries()].sort((a, b) => b[1].totalUs - a[1].totalUs).slice(0, 12);
    summary[file.replace(/_\d{4}.*$/, '')] = {
      numRuns: runs.length,
      runUsMean: round(runs.reduce((a, r) => a + r.dur, 0) / numRuns, 0),
      kernelUsPerRun: round(nodes.reduce((a, n) => a + n.dur, 0) / numRuns, 0),
      nodesPerRun: round(nodes.length / numRuns, 1),
      byProvider: Object.fromEntries([...byProvider.entries()].map(([k, v]) => [k, { nodesPerRun: round(v.numNodes / numRuns, 1), usPerRun: round(v.totalUs / numRuns, 0) }])),
      topOps: Object.fromEntries(top.map(([k, v]) => [k, { nodesPerRun: round(v.numNodes / numRuns, 1), usPerRun: round(v.totalUs / numRuns, 0) }])),
    };
  }
  return summary;
}

/** Garbage-collection pause ms since start (every GC of the process; read between runs). */
let gcMsTotal = 0;
new PerformanceObserver((list) => list.getEntries().forEach((e) => (gcMsTotal += e.duration))).observe({ entryTypes: ['gc'] });

/** Wraps the engine's stages with timers: ms per stage summed over the run, plus the sync KV and codec-state releases. */
function instrument(engine: Engine): Record<string, number> {
  const totals: Record<string, number> = { talkerPrefill: 0, talkerDecode: 0, codePredictor: 0, codec: 0, release: 0 };
  // a sync method is timed until it returns, an async one until its promise settles
  const wrap = <T extends object>(target: T, method: keyof T & string, key: string) => {
    const original = (target[method] as (...a: unknown[]) => unknown).bind(target);
    (target as Record<string, unknown>)[method] = (...a: unknown[]) => {
      const t = performance.now();
      const add = () => (totals[key] += performance.now() - t);
      const result = original(...a);
      if (result instanceof Promise) return result.finally(add);
      add();
      return result;
    };
  };
  const s = engine.parts.stages;
  wrap(s.talker, 'prefill', 'talkerPrefill');
  wrap(s.talker, 'decode', 'talkerDecode');
  wrap(s.codePredictor, 'predict', 'codePredictor');
  wrap(s.codec, 'decodeBatch', 'codec');
  if (s.codec.decodeStreamBatch) wrap(s.codec as Required<typeof s.codec>, 'decodeStreamBatch', 'codec');
  wrap(s.talker, 'release', 'release');
  if (s.codec.releaseStream) wrap(s.codec as Required<typeof s.codec>, 'releaseStream', 'release');
  return totals;
}

function request(i: number, numFrames: number, seed = i): SynthesisRequest {
  return { requestId: `r${i}-${Math.random().toString(36).slice(2)}`, input: 'The quick brown fox jumps over the lazy dog.', inputFormat: 'text', voice: 'ryan', language: 'english', seed, params: { maxNewTokens: numFrames } };
}

async function runAll(engine: Engine, requests: SynthesisRequest[]): Promise<{ results: SynthesisResult[]; codes: Map<string, number[][]>; wallMs: number; numSteps: number }> {
  const results: SynthesisResult[] = [];
  const codes = new Map<string, number[][]>();
  const offA = engine.onDidFinish((o) => (o.status === 'done' ? results.push(o.result) : log('failed', JSON.stringify(o).slice(0, 400))));
  const offB = engine.onDidFinishCodes((c) => codes.set(c.requestId, c.codes));
  for (const r of requests) engine.addRequest(r);
  const t = performance.now();
  let numSteps = 0;
  while (engine.hasWork()) {
    await engine.step();
    numSteps++;
  }
  offA();
  offB();
  return { results, codes, wallMs: performance.now() - t, numSteps };
}

/** gcMs: GC pauses during the run (they may fall inside a stage's time too). */
function summarize(run: Awaited<ReturnType<typeof runAll>>, stageMs: Record<string, number>, gcMs: number): Record<string, unknown> {
  const audioMs = run.results.reduce((a, r) => a + r.timings.audioDurationMs, 0);
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  const stageSum = Object.values(stageMs).reduce((a, b) => a + b, 0);
  return {
    numRequests: run.results.length,
    numFrames: run.results.map((r) => r.timings.numFrames),
    numSteps: run.numSteps,
    wallMs: round(run.wallMs),
    rtfMean: mean(run.results.map((r) => r.timings.rtf)),
    latencyFirstAudioMsMean: mean(run.results.map((r) => r.timings.latencyFirstAudioMs)),
    audioSecondsPerSecond: round(audioMs / run.wallMs, 3),
    msPerStep: round(run.wallMs / run.numSteps),
    stageMs: Object.fromEntries(Object.entries(stageMs).map(([k, v]) => [k, round(v)])),
    hostAndOtherMs: round(run.wallMs - stageSum),
    gcMs: round(gcMs),
  };
}

async function engineSection(builtDir: string, provider: ProviderName, numFrames: number, concurrencies: number[], engineConfig = args.engineConfig!): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { engineConfig: JSON.parse(engineConfig) };
  const t = performance.now();
  const engine = await createEngine({ modelDir: builtDir, config: { provider, maxRunningSequences: 64, maxPrefillSequences: 64, ...JSON.parse(engineConfig) }, log: (l) => log(l) });
  out.createEngineMs = round(performance.now() - t);
  out.providerReason = engine.status().providerReason;
  out.codePredictorClass = engine.parts.stages.codePredictor.constructor.name;
  await runAll(engine, [request(999, 6)]); // warm-up: shapes, pipelines
  const stageMs = instrument(engine);
  const reset = () => Object.keys(stageMs).forEach((k) => (stageMs[k] = 0));
  let gcAtStart = gcMsTotal;
  const single = await runAll(engine, [request(0, numFrames, 42)]);
  out.single = summarize(single, stageMs, gcMsTotal - gcAtStart);
  log(provider, 'single', JSON.stringify(out.single));
  save();
  const singleCodes = [...single.codes.values()][0];
  const singlePcm = single.results[0].pcm;
  for (const n of concurrencies) {
    if (elapsedS() > Number(args.budgetS)) break;
    reset();
    gcAtStart = gcMsTotal;
    const reqs = Array.from({ length: n }, (_, i) => request(i, numFrames, i === 0 ? 42 : 1000 + i));
    const run = await runAll(engine, reqs);
    const first = run.results.find((r) => r.requestId === reqs[0].requestId);
    const invariant = first ? JSON.stringify(run.codes.get(first.requestId)) === JSON.stringify(singleCodes) : false;
    const pcmIdentical = first ? Buffer.from(first.pcm.buffer).equals(Buffer.from(singlePcm.buffer)) : false;
    out[`concurrency${n}`] = { ...summarize(run, stageMs, gcMsTotal - gcAtStart), batchInvariantCodes: invariant, batchInvariantPcm: pcmIdentical };
    log(provider, `concurrency ${n}`, JSON.stringify(out[`concurrency${n}`]));
    save();
  }
  out.codecState = codecStateStats(engine);
  await engine.dispose();
  return out;
}

/** The streaming codec's state-store counters (under a BucketedCodec), or null with the window codec. */
function codecStateStats(engine: Engine): unknown {
  let codec = engine.parts.stages.codec as { inner?: unknown; stateStats?: () => unknown };
  while (!codec.stateStats && codec.inner) codec = codec.inner as typeof codec;
  return codec.stateStats?.() ?? null;
}

async function buildSection(dtype: 'fp16' | 'fp32', ops: GraphOps, key: string): Promise<string> {
  const checkpointDir = path.join(args.work!, `ckpt-${args.size}`);
  if (!fs.existsSync(path.join(checkpointDir, 'speech_tokenizer', 'model.safetensors'))) {
    const t = performance.now();
    await writeSyntheticCheckpoint({ size: args.size as '0.6b' | 'tiny', seed: 1, outDir: checkpointDir });
    results.synthesizeCheckpointMs = round(performance.now() - t);
  }
  const t = performance.now();
  const { builtDir, manifest } = await buildModel({ checkpointDir, outDir: path.join(args.work!, 'built'), dtype, ops });
  results[key] = { buildMs: round(performance.now() - t), builtDir, bytes: fileBytes(builtDir, manifest) };
  log('built', dtype, ops, JSON.stringify(results[key]));
  save();
  return builtDir;
}

function fileBytes(dir: string, manifest: ModelManifest): Record<string, number> {
  return Object.fromEntries(Object.entries(manifest.graphs).map(([k, g]) => [k, fs.statSync(path.join(dir, g.file)).size + (g.externalDataFile ? fs.statSync(path.join(dir, g.externalDataFile)).size : 0)]));
}

const sections = args.sections!.split(',');
const profileRoot = path.join(args.work!, 'profiles');
for (const sectionSpec of sections) {
  const [section, opsName = 'fused'] = sectionSpec.split(':');
  const ops = opsName as GraphOps;
  const suffix = ops === 'fused' ? '' : `_${ops}`;
  if (elapsedS() > Number(args.budgetS)) {
    log('budget spent; skipping', section);
    continue;
  }
  try {
    log('section', section);
    switch (section) {
      case 'build16':
        await buildSection('fp16', ops, `build_fp16${suffix}`);
        break;
      case 'build32':
        await buildSection('fp32', ops, `build_fp32${suffix}`);
        break;
      case 'webgpu':
      case 'cpu': {
        const provider = section as ProviderName;
        const dtype = provider === 'cpu' ? 'fp32' : 'fp16';
        const builtDir = (results[`build_${dtype}${suffix}`] as { builtDir: string } | undefined)?.builtDir;
        if (!builtDir) throw new Error(`no ${dtype} ${ops} build`);
        const profileDir = path.join(profileRoot, `${provider}${suffix}`);
        fs.mkdirSync(profileDir, { recursive: true });
        const numFrames = Number(provider === 'cpu' ? args.cpuFrames : args.frames);
        results[`engine_${provider}${suffix}`] = await engineSection(builtDir, provider, numFrames, provider === 'cpu' ? [8] : [8, 64]);
        results[`stages_${provider}${suffix}`] = await stageScaling(builtDir, provider, provider === 'cpu' ? [1, 8] : [1, 8, 64], null);
        save();
        await stageScaling(builtDir, provider, [1], profileDir); // profiled pass at batch 1 only
        results[`profile_${provider}${suffix}`] = summarizeProfiles(profileDir);
        break;
      }
      case 'engine': {
        // the in-process engine alone (1 stream, then --concurrencies together) on WebGPU, once per config: quick A/Bs of settings
        const builtDir = (results[`build_fp16${suffix}`] as { builtDir: string } | undefined)?.builtDir;
        if (!builtDir) throw new Error(`no fp16 ${ops} build`);
        const configs: unknown[] = args.engineConfigs ? JSON.parse(args.engineConfigs) : [JSON.parse(args.engineConfig!)];
        const concurrencies = args.concurrencies!.split(',').map(Number);
        for (const [i, config] of configs.entries()) {
          const key = configs.length > 1 ? `engine_webgpu${suffix}_${i}` : `engine_webgpu${suffix}`;
          results[key] = await engineSection(builtDir, 'webgpu', Number(args.frames), concurrencies, JSON.stringify(config));
          save();
        }
        break;
      }
      default:
        throw new Error(`unknown section ${section}`);
    }
  } catch (err) {
    results[`error_${section}${suffix}`] = String((err as Error).stack ?? err).slice(0, 2000);
    log('section failed', sectionSpec, results[`error_${section}${suffix}`]);
  }
  save();
}
results.totalS = round(elapsedS(), 1);
save();
log('done');
