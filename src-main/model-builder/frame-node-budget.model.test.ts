// The nodes one frame launches, kept as a budget: the capture-ready graphs of the tiny build (talker decode,
// the static code-predictor loop with its 15 sub-steps, the static streaming codec in both upsample forms)
// may not grow. On a GPU each node is at least one kernel launch, and launches, not FLOPs, set a frame's
// time at one stream (issue 47); a change that adds nodes fails here, without a GPU, until the budget is
// raised on purpose. The tiny build has 2 talker layers; the full 0.6B has 28 (docs/benchmarks.md). That no node
// there stages its parameters in pinned memory a CUDA graph's replay reads freed is cuda-replay-audit.model.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelManifest } from '../model-format/manifest';
import { ModelProtoType } from '../model-format/onnx/onnx-schema';
import { ensureTinyModel } from './tiny-model';

/**
 * Nodes per graph of the tiny build (builder v18), as built; ORT may fuse some further at load. v15 had
 * 97, 1117, 421 and 477: v16's exact rewrites (docs/benchmarks.md "Fewer nodes a frame") removed the rest;
 * v17 splits q | k | v in two equal-width Splits (one more node a layer) so CUDA graphs replay them safely;
 * v18 writes the talker's new KV row by broadcast (no MatMul) and groups query heads as GEMM rows (no
 * Unsqueeze), 4 fewer nodes a layer, and repeats the codec's mask per query group once (tiny codec: +1).
 */
const BUDGET = {
  talkerDecode: 80,
  codePredictorLoopStatic: 1072,
  codecStreamStatic: 399,
  codecStreamStaticMatMul: 455,
} as const;

interface GraphNode { opType: string }
let counts: Record<keyof typeof BUDGET, { total: number; byOp: Record<string, number> }>;
let manifest: ModelManifest;
let graphs: Record<keyof typeof BUDGET, { node: GraphNode[] }>;

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
  graphs = Object.fromEntries(
    (Object.keys(BUDGET) as (keyof typeof BUDGET)[]).map((key) => [key, (ModelProtoType.decode(fs.readFileSync(path.join(builtDir, manifest.graphs[key]!.file))) as unknown as { graph: (typeof graphs)[typeof key] }).graph]),
  ) as typeof graphs;
  counts = Object.fromEntries(
    (Object.keys(BUDGET) as (keyof typeof BUDGET)[]).map((key) => {
      const graph = graphs[key];
      const byOp: Record<string, number> = {};
      for (const n of graph.node) byOp[n.opType] = (byOp[n.opType] ?? 0) + 1;
      return [key, { total: graph.node.length, byOp }];
    }),
  ) as typeof counts;
}, 120_000);

describe('nodes a frame launches (tiny build)', () => {
  it.each(Object.keys(BUDGET) as (keyof typeof BUDGET)[])('%s stays within its node budget', (key) => {
    expect(counts[key].total, JSON.stringify(counts[key].byOp)).toBeLessThanOrEqual(BUDGET[key]);
    // a budget far above the count hides growth: tighten it when a change removes nodes
    expect(counts[key].total).toBeGreaterThan(BUDGET[key] * 0.9);
  });

  it('a frame on the captured CUDA plan (MatMul codec) launches at most the sum, with no Loop and at most the mask\'s Concat among them', () => {
    const frame = counts.talkerDecode.total + counts.codePredictorLoopStatic.total + counts.codecStreamStaticMatMul.total;
    expect(frame).toBeLessThanOrEqual(BUDGET.talkerDecode + BUDGET.codePredictorLoopStatic + BUDGET.codecStreamStaticMatMul);
    // the codecs' one Concat repeats the attention mask per query group (tiny codec only: the official one has none)
    for (const key of ['codecStreamStatic', 'codecStreamStaticMatMul'] as const) expect(counts[key].byOp.Concat ?? 0, key).toBeLessThanOrEqual(1);
    for (const c of Object.values(counts)) expect(c.byOp.Loop ?? 0).toBe(0);
    expect(manifest.talker.numLayers).toBe(2);
  });
});
