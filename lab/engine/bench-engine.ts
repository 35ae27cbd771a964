/**
 * Engine micro-benchmark on the tiny model (CPU by default): RTF and first-audio latency for one
 * request alone and for N concurrent requests, through the public createEngine/addRequest/run API.
 * Run: npx tsx lab/engine/bench-engine.ts [--frames 60] [--concurrency 4] [--provider cpu]
 * Prints a JSON line per scenario; records numbers, never fails on them.
 */
import { parseArgs } from 'node:util';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';
import { createEngine } from '../../src-main/engine/create-engine';
import type { Engine } from '../../src-main/engine/engine';

async function runScenario(engine: Engine, requests: SynthesisRequest[]): Promise<SynthesisResult[]> {
  const results: SynthesisResult[] = [];
  const off = engine.onDidFinish((o) => o.status === 'done' && results.push(o.result));
  for (const r of requests) engine.addRequest(r);
  await engine.run();
  off();
  return results;
}

function summarize(name: string, results: SynthesisResult[], wallMs: number) {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const audioMs = results.reduce((a, r) => a + r.timings.audioDurationMs, 0);
  return {
    scenario: name,
    numRequests: results.length,
    numFramesPerRequest: results[0]?.timings.numFrames ?? 0,
    rtfMean: Number(mean(results.map((r) => r.timings.rtf)).toFixed(4)),
    latencyFirstAudioMsMean: Number(mean(results.map((r) => r.timings.latencyFirstAudioMs)).toFixed(1)),
    latencyTotalMsMean: Number(mean(results.map((r) => r.timings.latencyTotalMs)).toFixed(1)),
    aggregateRtf: Number((wallMs / audioMs).toFixed(4)),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { frames: { type: 'string', default: '60' }, concurrency: { type: 'string', default: '4' }, provider: { type: 'string', default: 'cpu' } } });
  const numFrames = Number(values.frames);
  const { builtDir } = await ensureTinyModel();
  const engine = await createEngine({ modelDir: builtDir, config: { provider: values.provider }, log: () => {} });
  const request = (i: number): SynthesisRequest => ({
    requestId: `bench-${i}-${Math.random()}`,
    input: 'The quick brown fox jumps over the lazy dog.',
    inputFormat: 'text',
    voice: 'ryan',
    language: 'english',
    seed: i,
    params: { maxNewTokens: numFrames },
  });
  await runScenario(engine, [request(999)]); // warm-up
  for (const concurrency of [1, Number(values.concurrency)]) {
    const started = performance.now();
    const results = await runScenario(engine, Array.from({ length: concurrency }, (_, i) => request(i)));
    console.log(JSON.stringify(summarize(`concurrency-${concurrency}`, results, performance.now() - started)));
  }
  console.log(JSON.stringify({ provider: engine.status().provider, providerReason: engine.status().providerReason }));
  await engine.dispose();
}

await main();
