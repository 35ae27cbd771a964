/**
 * Benchmark script (not a test): synthesises a full-size checkpoint into a temp dir, times the fp32
 * build and records peak RSS, then times both code-predictor variants (15 step calls vs one loop call
 * per frame) on that build and on the tiny model. Run: npx tsx lab/model-builder/bench-build.ts [0.6b|1.7b]
 * Prints one JSON object; deletes the temp dir afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSession, disposeSession, runSession, tensor, type OrtTensor } from '../../src-main/engine/runtime/ort';
import { buildModel } from '../../src-main/model-builder/build';
import type { ModelManifest } from '../../src-main/model-format/manifest';
import { emptyPast, presentsAsPast } from '../../src-main/model-builder/reference/compare';
import type { SyntheticSize } from '../../src-main/model-builder/synthetic-config';
import { writeSyntheticCheckpoint } from '../../src-main/model-builder/synthetic-checkpoint';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';

const NUM_TIMED_FRAMES = 5;

async function timeCodePredictor(builtDir: string, batch: number): Promise<{ stepMsPerFrame: number; loopMsPerFrame: number }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
  const h = manifest.talker.hiddenSize;
  const cp = manifest.codePredictor;
  const numSteps = manifest.numCodeGroups - 1;
  const rows = Float32Array.from({ length: batch * 2 * h }, (_, i) => Math.sin(i));
  const step = await createSession(path.join(builtDir, manifest.graphs.codePredictorStep.file), { provider: 'cpu' });
  const runStepFrame = async () => {
    let past: Record<string, OrtTensor> = emptyPast(cp.numLayers, batch, cp.numKvHeads, cp.headDim);
    let embeds = tensor('float32', rows, [batch, 2, h]);
    for (let j = 0; j < numSteps; j++) {
      const out = await runSession(step, { inputs_embeds: embeds, generation_step: tensor('int64', BigInt64Array.of(BigInt(j)), []), ...past });
      past = presentsAsPast(out, cp.numLayers);
      embeds = tensor('float32', rows.subarray(0, batch * h), [batch, 1, h]); // the host gather, not timed apart
    }
  };
  const loop = await createSession(path.join(builtDir, manifest.graphs.codePredictorLoop.file), { provider: 'cpu' });
  const runLoopFrame = async () => {
    await runSession(loop, {
      last_hidden: tensor('float32', rows.subarray(0, batch * h), [batch, 1, h]),
      first_code_embed: tensor('float32', rows.subarray(batch * h), [batch, 1, h]),
      uniforms: tensor('float32', new Float32Array(batch * numSteps).fill(0.5), [batch, numSteps]),
      temperature: tensor('float32', new Float32Array(batch).fill(0.9), [batch]),
      top_k: tensor('int64', new BigInt64Array(batch).fill(50n), [batch]),
      top_p: tensor('float32', new Float32Array(batch).fill(1), [batch]),
    });
  };
  const time = async (fn: () => Promise<void>) => {
    await fn(); // warm-up
    const start = performance.now();
    for (let i = 0; i < NUM_TIMED_FRAMES; i++) await fn();
    return (performance.now() - start) / NUM_TIMED_FRAMES;
  };
  const result = { stepMsPerFrame: await time(runStepFrame), loopMsPerFrame: await time(runLoopFrame) };
  await disposeSession(step);
  await disposeSession(loop);
  return result;
}

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '0.6b') as SyntheticSize;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-build-${size}-`));
  try {
    const t0 = performance.now();
    await writeSyntheticCheckpoint({ size, seed: 7, outDir: path.join(dir, 'checkpoint') });
    const synthMs = performance.now() - t0;
    const t1 = performance.now();
    const built = await buildModel({ checkpointDir: path.join(dir, 'checkpoint'), outDir: path.join(dir, 'built'), dtype: 'fp32' });
    const buildMs = performance.now() - t1;
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    const t2 = performance.now();
    const hit = await buildModel({ checkpointDir: path.join(dir, 'checkpoint'), outDir: path.join(dir, 'built'), dtype: 'fp32' });
    const cacheHitMs = performance.now() - t2;
    const tiny = await ensureTinyModel();
    const report = {
      size,
      synthMs: Math.round(synthMs),
      buildMs: Math.round(buildMs),
      cacheHit: hit.cacheHit,
      cacheHitMs: Math.round(cacheHitMs),
      peakRssMbThroughBuild: Math.round(peakRssMb),
      codePredictor: {
        [`${size}_batch1`]: await timeCodePredictor(built.builtDir, 1),
        [`${size}_batch4`]: await timeCodePredictor(built.builtDir, 4),
        tiny_batch1: await timeCodePredictor(tiny.builtDir, 1),
        tiny_batch8: await timeCodePredictor(tiny.builtDir, 8),
      },
      cpus: os.cpus().length,
      date: new Date().toISOString(),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
