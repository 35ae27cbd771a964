/**
 * Lab: where WebGPU breaks batch invariance. Runs the talker (one decode row after a 32-row prompt)
 * and the code-predictor loop on row 0 alone, beside other rows, and padded to a fixed bucket with
 * different mates, and prints whether row 0's outputs are bit-identical in each case.
 * Run (bundled, on the GPU machine): node webgpu-invariance.mjs --work /tmp/w --out $OUT
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildModel } from '../../src-main/model-builder/build';
import { writeSyntheticCheckpoint } from '../../src-main/model-builder/synthetic-checkpoint';
import { OrtCodePredictorLoop } from '../../src-main/engine/stages/code-predictor-loop';
import { EmbeddingTables } from '../../src-main/engine/stages/embedding-tables';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import type { CodePredictorRow } from '../../src-main/engine/stages/stages';
import { OrtTalker } from '../../src-main/engine/stages/talker';
import { talkerOptionsFor } from '../../src-main/engine/kv/create-kv-store';
import { resolveEngineConfig } from '../../src-main/engine/engine-config';
import { planEngine } from '../../src-main/engine/engine-plan';
import { createSession, type ProviderName } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { work: { type: 'string', default: '/tmp/w' }, out: { type: 'string', default: '.cache/inv-out' }, size: { type: 'string', default: '0.6b' }, provider: { type: 'string', default: 'webgpu' } } });
const checkpointDir = path.join(args.work!, `ckpt-${args.size}`);
if (!fs.existsSync(path.join(checkpointDir, 'speech_tokenizer', 'model.safetensors'))) await writeSyntheticCheckpoint({ size: args.size as '0.6b', seed: 1, outDir: checkpointDir });
const { builtDir } = await buildModel({ checkpointDir, outDir: path.join(args.work!, 'built'), dtype: 'fp16' });
const manifest = loadModelManifest(builtDir);
const provider = args.provider as ProviderName;
const h = manifest.talker.hiddenSize;
const wave = (n: number, phase: number) => Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin(i * 0.37 + phase));
const same = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let maxDiff = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
  return { identical: maxDiff === 0, maxDiff };
};
const report: Record<string, unknown> = {};

const talker = new OrtTalker(await createSession(path.join(builtDir, manifest.graphs.talker.file), { provider }), manifest, await talkerOptionsFor(manifest, planEngine(resolveEngineConfig({ kvCache: { mode: 'host' } }), provider, manifest).resolved, provider, null));
let nextId = 1;
/** Row 0 (phase 0) decoded after a 32-row prompt, beside mates with phases `mates`. */
async function talkerRow0(mates: number[]): Promise<{ prefill: Float32Array; decode: Float32Array }> {
  const phases = [0, ...mates];
  const ids = phases.map(() => nextId++);
  const pre = await talker.prefill(ids.map((id, b) => ({ sequenceId: id, embeds: wave(32 * h, phases[b]), numRows: 32 })));
  const dec = await talker.decode(ids.map((id, b) => ({ sequenceId: id, embeds: wave(h, 10 + phases[b]), numRows: 1 })));
  ids.forEach((id) => talker.release(id));
  return { prefill: pre[0].logits, decode: dec[0].logits };
}
const alone = await talkerRow0([]);
for (const [name, mates] of Object.entries({ batch2: [1], batch8: [1, 2, 3, 4, 5, 6, 7], batch8other: [9, 8, 7, 6, 5, 4, 3], batch16: Array.from({ length: 15 }, (_, i) => i + 1) })) {
  const got = await talkerRow0(mates);
  report[`talker_${name}_vsAlone`] = { prefill: same(got.prefill, alone.prefill), decode: same(got.decode, alone.decode) };
  if (name === 'batch8other') {
    const ref = await talkerRow0([1, 2, 3, 4, 5, 6, 7]);
    report.talker_batch8_vsBatch8OtherMates = { prefill: same(got.prefill, ref.prefill), decode: same(got.decode, ref.decode) };
  }
}
await talker.dispose();

const embeddings = new EmbeddingTables(builtDir, manifest);
const loop = new OrtCodePredictorLoop(await createSession(path.join(builtDir, manifest.graphs.codePredictorLoop.file), { provider }), manifest, embeddings);
const row = (phase: number, doSample: boolean): CodePredictorRow => ({ hidden: wave(h, phase), c0: 100 + phase, warpers: { doSample, temperature: 0.9, topK: 50, topP: 1 }, uniforms: Float64Array.from({ length: manifest.numCodeGroups - 1 }, (_, j) => (0.31 + j * 0.071 + phase * 0.13) % 1) });
for (const doSample of [false, true]) {
  const a = (await loop.predict([row(0, doSample)]))[0];
  for (const n of [2, 8, 16]) {
    const mates = Array.from({ length: n - 1 }, (_, i) => row(i + 1, doSample));
    const b = (await loop.predict([row(0, doSample), ...mates]))[0];
    const c = (await loop.predict([row(0, doSample), ...mates.map((m, i) => row(40 + i, doSample))]))[0];
    report[`cpLoop_${doSample ? 'sampled' : 'greedy'}_batch${n}`] = { vsAlone: JSON.stringify(a) === JSON.stringify(b), vsOtherMatesSameBatch: JSON.stringify(b) === JSON.stringify(c) };
  }
}
await loop.dispose();
embeddings.dispose();
fs.mkdirSync(args.out!, { recursive: true });
fs.writeFileSync(path.join(args.out!, 'invariance.json'), JSON.stringify(report, null, 1));
console.log(JSON.stringify(report, null, 1));
