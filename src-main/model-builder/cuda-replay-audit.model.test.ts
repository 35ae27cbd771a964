// The capture-ready graphs of the tiny build, run once each on the CPU at the shapes CUDA's plan uses, and
// audited node by node against ONNX Runtime 1.29's CUDA kernels: no node may stage its parameters through
// pinned host memory that is released after the run (a captured graph replays that copy from freed
// memory). The audit itself is checked first on graphs that break each rule.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildDtype, ModelManifest } from '../model-format/manifest';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import { ensureTinyModel } from './tiny-model';
import { filledFeed, shapeCensus } from './testing/shape-census';
import { auditBuiltGraph } from './testing/audit-built-graph';
import { auditCudaReplay, matMulStagesPointers } from './testing/cuda-replay-audit';

const builds: Partial<Record<BuildDtype, { builtDir: string; manifest: ModelManifest }>> = {};

beforeAll(async () => {
  // fp16 is what GPU providers run; fp32 as well, since a build of either may be captured
  for (const dtype of ['fp32', 'fp16'] as const) {
    const { builtDir } = await ensureTinyModel(dtype);
    builds[dtype] = { builtDir, manifest: JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest };
  }
}, 240_000);

describe('the audit', () => {
  it('flags broadcast batched MatMuls and passes the single and strided-batched GEMM forms', () => {
    expect(matMulStagesPointers([8, 1, 64, 1], [8, 2, 1, 16])).toBe(true); // the one-hot KV write
    expect(matMulStagesPointers([8, 2, 2, 1, 16], [8, 2, 1, 16, 64])).toBe(true); // grouped scores
    expect(matMulStagesPointers([16, 64], [8, 64, 32])).toBe(true); // a matrix against a batch
    expect(matMulStagesPointers([8, 2, 2, 16], [8, 2, 16, 64])).toBe(false); // same batch: strided
    expect(matMulStagesPointers([8, 1, 64], [64, 128])).toBe(false); // folded into one GEMM
    expect(matMulStagesPointers([1, 1, 4, 16], [1, 1, 16, 8])).toBe(false); // one batch
  });

  it('flags an uneven Split, a Split of more than 32 parts, a Concat of more than 32 inputs and one of uneven lengths in a run graph, not an even one', async () => {
    const g = new GraphBuilder({ name: 'audit_probe' });
    g.input('x', 'float32', [2, 68]);
    const uneven = g.node('Split', ['x', g.constInt64([2, 66])], 2, { axis: 1 });
    const many = g.node('Split', [uneven[1], g.constInt64(Array<number>(33).fill(2))], 33, { axis: 1 });
    const joined = g.op('Concat', [...many, uneven[0]], { axis: 1 });
    const unevenJoin = g.op('Concat', [uneven[0], many[0], uneven[1]], { axis: 1 });
    const evenJoin = g.op('Concat', [many[0], many[1]], { axis: 0 });
    g.output(joined, 'float32', [2, 68]);
    g.output(unevenJoin, 'float32', [2, 70]);
    g.output(evenJoin, 'float32', [4, 2]);
    const file = path.join(fs.mkdtempSync(path.join(builds.fp32!.builtDir, '..', 'audit-probe-')), 'probe.onnx');
    g.save(file);
    try {
      const census = await shapeCensus(file, { x: filledFeed('float32', [2, 68], 0) });
      const findings = auditCudaReplay(census.nodes, census.initializers);
      expect(findings.map((f) => `${f.opType}: ${f.reason}`)).toEqual(['Split: uneven widths 2,66', 'Split: 33 outputs', 'Concat: 34 inputs', 'Concat: uneven lengths 2,2,66 on the axis']);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

/** The default buckets (8 rows, 2-row codec calls), one row, and the wide server ones (64 rows, 160 row-frames). */
const CASES = [
  ['talkerDecode', { batch: 8, capacity: 64 }],
  ['talkerDecode', { batch: 1, capacity: 64 }],
  ['talkerDecode', { batch: 64, capacity: 128 }],
  ['codePredictorLoopStatic', { batch: 8, k: 4 }],
  ['codePredictorLoopStatic', { batch: 64, k: 50 }],
  ['codecStreamStatic', { batch: 2, num_frames: 1 }],
  ['codecStreamStatic', { batch: 8, num_frames: 4 }],
  ['codecStreamStaticMatMul', { batch: 2, num_frames: 1 }],
  ['codecStreamStaticMatMul', { batch: 8, num_frames: 4 }],
  ['codecStreamStaticMatMul', { batch: 20, num_frames: 8 }],
] as const;

describe.each(['fp16', 'fp32'] as const)('capture-ready graphs of the tiny %s build at the CUDA plan shapes', (dtype) => {
  it.each(CASES)('%s at %j: no node stages its parameters in released pinned memory', { timeout: 120_000 }, async (key, vars) => {
    const { builtDir, manifest } = builds[dtype]!;
    const { nodes, findings } = await auditBuiltGraph(builtDir, manifest, key, vars);
    // the census saw the graph run: every MatMul has both shapes
    const matmuls = nodes.filter((n) => n.opType === 'MatMul');
    expect(matmuls.length).toBeGreaterThan(0);
    for (const n of matmuls) expect(n.inputShapes.every((s) => s !== null)).toBe(true);
    // the decoder graphs do split (q | k | v and gate | up in every layer): the Split rule saw them
    if (key === 'talkerDecode' || key === 'codePredictorLoopStatic') expect(nodes.filter((n) => n.opType === 'Split').length).toBeGreaterThanOrEqual(3 * manifest.talker.numLayers);
    expect(findings.map((f) => `#${f.index} ${f.opType}: ${f.reason}`)).toEqual([]);
  });
});
