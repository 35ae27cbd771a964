/**
 * Benchmark script (not a test): full-size synthetic 0.6B and 1.7B CustomVoice checkpoints side by side
 * on the CPU provider: synthesis and fp32 build time, then the engine's RTF for one request alone
 * (default code predictor, streaming codec). Run: npx tsx lab/model-builder/bench-sizes.ts [--frames 12]
 * [--keep]. Work dir .cache/bench-sizes/ (about 17 GB at peak), deleted unless --keep. One JSON line per size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createEngine } from '../../src-main/engine/create-engine';
import { buildModel } from '../../src-main/model-builder/build';
import { writeSyntheticCheckpoint } from '../../src-main/model-builder/synthetic-checkpoint';

async function runOne(modelDir: string, numFrames: number): Promise<{ result: SynthesisResult; loadMs: number }> {
  const loadStarted = performance.now();
  const engine = await createEngine({ modelDir, config: { provider: 'cpu' }, log: () => {} });
  const loadMs = performance.now() - loadStarted;
  const request = (requestId: string, maxNewTokens: number): SynthesisRequest => ({
    requestId,
    input: 'The quick brown fox jumps over the lazy dog.',
    inputFormat: 'text',
    voice: 'ryan',
    language: 'english',
    seed: 1,
    params: { maxNewTokens },
  });
  const results: SynthesisResult[] = [];
  const off = engine.onDidFinish((o) => o.status === 'done' && results.push(o.result));
  try {
    engine.addRequest(request('warm-up', 2));
    await engine.run();
    engine.addRequest(request('timed', numFrames));
    await engine.run();
  } finally {
    off();
    await engine.dispose();
  }
  return { result: results[results.length - 1], loadMs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { frames: { type: 'string', default: '12' }, keep: { type: 'boolean', default: false } } });
  const numFrames = Number(values.frames);
  const root = path.resolve('.cache', 'bench-sizes');
  for (const size of ['0.6b', '1.7b'] as const) {
    const dir = path.join(root, size);
    const checkpointDir = path.join(dir, 'checkpoint');
    let started = performance.now();
    if (!fs.existsSync(path.join(checkpointDir, 'speech_tokenizer', 'model.safetensors'))) await writeSyntheticCheckpoint({ size, seed: 7, outDir: checkpointDir });
    const synthMs = performance.now() - started;
    started = performance.now();
    const { builtDir } = await buildModel({ checkpointDir, outDir: path.join(dir, 'built'), dtype: 'fp32' });
    const buildMs = performance.now() - started;
    const { result, loadMs } = await runOne(builtDir, numFrames);
    const t = result.timings;
    console.log(
      JSON.stringify({
        size,
        synthMs: Math.round(synthMs),
        buildMs: Math.round(buildMs),
        loadMs: Math.round(loadMs),
        numFrames: t.numFrames,
        rtf: Number(t.rtf.toFixed(3)),
        latencyFirstAudioMs: Math.round(t.latencyFirstAudioMs),
        latencyTotalMs: Math.round(t.latencyTotalMs),
        msPerFrame: Math.round(t.latencyTotalMs / t.numFrames),
      }),
    );
    if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
