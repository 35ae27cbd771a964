/**
 * Lab: the nodes of a built model's capture-ready graphs, by op type (what frame-node-budget.model.test.ts
 * keeps as a budget). Reads the .onnx files a manifest names; no ORT, no build. Defaults to the tiny
 * model's build at this builder version (built if missing). Prints one table per graph and a JSON line.
 * Run: npx tsx lab/model-builder/frame-node-count.ts [--dir <built model dir>] [--dtype fp32|fp16]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ModelManifest } from '../../src-main/model-format/manifest';
import { ModelProtoType } from '../../src-main/model-format/onnx/onnx-schema';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';

const GRAPHS = ['talkerDecode', 'codePredictorLoopStatic', 'codecStreamStatic', 'codecStreamStaticMatMul'] as const;

const { values: args } = parseArgs({ options: { dir: { type: 'string' }, dtype: { type: 'string', default: 'fp32' } } });
const builtDir = args.dir ?? (await ensureTinyModel(args.dtype === 'fp16' ? 'fp16' : 'fp32')).builtDir;
const manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
const counts: Record<string, { total: number; byOp: Record<string, number> }> = {};
for (const key of GRAPHS) {
  const spec = manifest.graphs[key];
  if (!spec) continue;
  const model = ModelProtoType.decode(fs.readFileSync(path.join(builtDir, spec.file))) as unknown as { graph: { node: { opType: string }[] } };
  const byOp: Record<string, number> = {};
  for (const n of model.graph.node) byOp[n.opType] = (byOp[n.opType] ?? 0) + 1;
  counts[key] = { total: model.graph.node.length, byOp: Object.fromEntries(Object.entries(byOp).sort((a, b) => b[1] - a[1])) };
  console.log(`${key} (${spec.file}): ${model.graph.node.length} nodes`);
  for (const [op, n] of Object.entries(counts[key].byOp)) console.log(`  ${op.padEnd(32)} ${n}`);
}
console.log(JSON.stringify({ builtDir, builderVersion: manifest.builderVersion, dtype: manifest.dtype, counts }));
