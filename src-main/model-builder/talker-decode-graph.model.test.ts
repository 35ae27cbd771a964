// The capture-ready talker decode graph of the tiny build: the graph-capture rules that a graph can
// break by itself hold (no control flow, no shape or range computation, no int64 math: the only int64
// tensor is position_ids, read by RotaryEmbedding), its I/O is the manifest's, and it shares the
// talker's weights file instead of writing a second copy.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelManifest } from './manifest';
import { ModelProtoType } from './onnx/onnx-schema';
import { ensureTinyModel } from './tiny-model';

interface NodeProto { opType: string; input: string[]; output: string[] }
interface ValueInfo { name: string; type: { tensorType: { elemType: number } } }
interface ModelProto { graph: { node: NodeProto[]; input: ValueInfo[]; output: ValueInfo[] } }

let manifest: ModelManifest;
let model: ModelProto;

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
  model = ModelProtoType.decode(fs.readFileSync(path.join(builtDir, manifest.graphs.talkerDecode!.file))) as unknown as ModelProto;
}, 120_000);

describe('talker-decode.onnx (tiny build)', () => {
  it('has no control flow and computes no shapes, ranges or int64 values', () => {
    const ops = new Set(model.graph.node.map((n) => n.opType));
    for (const banned of ['Loop', 'If', 'Scan', 'Shape', 'Size', 'Range', 'NonZero', 'Cast', 'Expand', 'ConstantOfShape']) expect(ops, banned).not.toContain(banned);
    const readers = model.graph.node.filter((n) => n.input.includes('position_ids')).map((n) => n.opType);
    expect(new Set(readers)).toEqual(new Set(['RotaryEmbedding']));
  });

  it('takes and gives what the manifest says, and shares talker.onnx.data', () => {
    const spec = manifest.graphs.talkerDecode!;
    expect(model.graph.input.map((i) => i.name)).toEqual(spec.inputs.map((i) => i.name));
    expect(new Set(model.graph.output.map((o) => o.name))).toEqual(new Set(spec.outputs.map((o) => o.name)));
    expect(spec.externalDataFile).toBe(manifest.graphs.talker.externalDataFile);
  });
});
