/**
 * Lab: audits a built model's capture-ready graphs for nodes whose ORT 1.29 CUDA kernels stage parameters
 * in pinned memory released after the run (what cuda-replay-audit.model.test.ts checks on the tiny builds),
 * at any build's real sizes, e.g. the synthetic 0.6B. Each graph runs once on the CPU per shape set.
 * Run: npx tsx lab/model-builder/cuda-replay-audit.ts --dir <built model dir> [--rows 8] [--capacity 256] [--frames 4]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ModelManifest } from '../../src-main/model-format/manifest';
import { auditBuiltGraph, CAPTURE_GRAPH_KEYS } from '../../src-main/model-builder/testing/audit-built-graph';

const { values: args } = parseArgs({ options: { dir: { type: 'string' }, rows: { type: 'string', default: '8' }, capacity: { type: 'string', default: '256' }, frames: { type: 'string', default: '4' } } });
if (!args.dir) throw new Error('give --dir <built model dir>');
const manifest = JSON.parse(fs.readFileSync(path.join(args.dir, 'manifest.json'), 'utf8')) as ModelManifest;
const vars = { batch: Number(args.rows), capacity: Number(args.capacity), k: 4, num_frames: Number(args.frames) };
const report: Record<string, unknown> = {};
for (const key of CAPTURE_GRAPH_KEYS) {
  if (!manifest.graphs[key]) continue;
  const t0 = performance.now();
  const { nodes, findings } = await auditBuiltGraph(args.dir, manifest, key, vars);
  console.log(`${key}: ${nodes.length} nodes, ${findings.length} unsafe (${Math.round(performance.now() - t0)} ms)`);
  for (const f of findings.slice(0, 12)) console.log(`  #${f.index} ${f.opType}: ${f.reason}`);
  report[key] = { numNodes: nodes.length, findings };
}
console.log(JSON.stringify({ builtDir: args.dir, builderVersion: manifest.builderVersion, dtype: manifest.dtype, vars, report }));
