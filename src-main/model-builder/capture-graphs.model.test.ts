// The capture-ready graphs of the tiny build: the graph-capture rules a graph can break by itself hold
// (talker decode: no control flow, no shape or range computation, no int64 math, the only int64 tensor
// is position_ids, read by RotaryEmbedding; code-predictor loop: no control flow or int64 math, K from
// the host; streaming codec: no control flow, no shape or range computation or int64 at all, int32
// codes picked per quantizer group by Gather (WebGPU ran int64 Slice/Add on the CPU) plus the
// codebook offsets, mask from the host), their I/O is the manifest's, and they
// share their dynamic form's weights file.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelManifest } from '../model-format/manifest';
import { ModelProtoType } from '../model-format/onnx/onnx-schema';
import { ensureTinyModel } from './tiny-model';

interface NodeProto { opType: string; input: string[]; output: string[] }
interface ValueInfo { name: string; type: { tensorType: { elemType: number } } }
interface ModelProto { graph: { node: NodeProto[]; input: ValueInfo[]; output: ValueInfo[] } }

let manifest: ModelManifest;
let model: ModelProto;
let loop: ModelProto;
let codec: ModelProto;
let builtDir: string;

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
  const read = (file: string) => ModelProtoType.decode(fs.readFileSync(path.join(builtDir, file))) as unknown as ModelProto;
  model = read(manifest.graphs.talkerDecode!.file);
  loop = read(manifest.graphs.codePredictorLoopStatic!.file);
  codec = read(manifest.graphs.codecStreamStatic!.file);
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

  it('code_predictor_loop_static.onnx: no control flow, no int64 math, K read only by TopK, weights shared', () => {
    const ops = new Set(loop.graph.node.map((n) => n.opType));
    for (const banned of ['Loop', 'If', 'Scan', 'Range', 'ReduceMax', 'NonZero']) expect(ops, banned).not.toContain(banned);
    expect(new Set(loop.graph.node.filter((n) => n.input.includes('top_k_max')).map((n) => n.opType))).toEqual(new Set(['TopK']));
    expect(loop.graph.input.map((i) => i.name)).toEqual(manifest.graphs.codePredictorLoopStatic!.inputs.map((i) => i.name));
    expect(manifest.graphs.codePredictorLoopStatic!.externalDataFile).toBe(manifest.graphs.codePredictorLoop.externalDataFile);
  });

  it('code_predictor_loop_plain.onnx: the static loop with plain-op attention (no GroupQueryAttention), weights shared', () => {
    const plain = ModelProtoType.decode(fs.readFileSync(path.join(builtDir, manifest.graphs.codePredictorLoopPlain!.file))) as unknown as ModelProto;
    const ops = new Set(plain.graph.node.map((n) => n.opType));
    for (const banned of ['Loop', 'If', 'Scan', 'Range', 'ReduceMax', 'NonZero', 'GroupQueryAttention']) expect(ops, banned).not.toContain(banned);
    expect(new Set(loop.graph.node.map((n) => n.opType))).toContain('GroupQueryAttention');
    expect(ops).toContain('Softmax');
    expect(plain.graph.input.map((i) => i.name)).toEqual(manifest.graphs.codePredictorLoopStatic!.inputs.map((i) => i.name));
    expect(manifest.graphs.codePredictorLoopPlain!.externalDataFile).toBe(manifest.graphs.codePredictorLoop.externalDataFile);
  });

  it('codec_decoder_stream_static.onnx: no control flow, no shape, range or int64 math, int32 codes, mask from the host, weights shared', () => {
    const ops = new Set(codec.graph.node.map((n) => n.opType));
    for (const banned of ['Loop', 'If', 'Scan', 'Shape', 'Size', 'Range', 'NonZero', 'Expand', 'ConstantOfShape', 'Where', 'Less', 'GreaterOrEqual', 'LessOrEqual', 'And']) expect(ops, banned).not.toContain(banned);
    // no int64 anywhere (WebGPU places int64 arithmetic on the CPU, which capture refuses); the int32 codes
    // flow Gather of the group's quantizers → Add of the group's constant offsets → Gather's indices
    const inputsOfType = (elemType: number) => codec.graph.input.filter((i) => i.type.tensorType.elemType === elemType).map((i) => i.name);
    expect(inputsOfType(7)).toEqual([]);
    const joinIndexes = inputsOfType(6).filter((name) => name.startsWith('join_index_'));
    expect(inputsOfType(6)).toEqual(['codes', ...joinIndexes]);
    const readers = (name: string) => codec.graph.node.filter((n) => n.input.includes(name));
    // the carry joins (CUDA graphs replay no uneven Concat): each index feeds Gathers only; the one Concat
    // left repeats the attention mask per query group (the tiny codec has 2 query heads a kv head; the
    // official one none), copies of one value, so equal parts
    expect(joinIndexes.length).toBeGreaterThan(0);
    for (const index of joinIndexes) expect(new Set(readers(index).map((n) => n.opType))).toEqual(new Set(['Gather']));
    for (const concat of codec.graph.node.filter((n) => n.opType === 'Concat')) expect(new Set(concat.input).size).toBe(1);
    const sliced = readers('codes');
    expect(sliced.map((n) => n.opType)).toEqual(['Gather', 'Gather']);
    for (const slice of sliced) {
      const added = readers(slice.output[0]);
      expect(added.map((n) => n.opType)).toEqual(['Add']);
      expect(readers(added[0].output[0]).map((n) => n.opType)).toEqual(['Gather']);
    }
    const spec = manifest.graphs.codecStreamStatic!;
    expect(codec.graph.input.map((i) => i.name)).toEqual(spec.inputs.map((i) => i.name));
    expect(new Set(codec.graph.output.map((o) => o.name))).toEqual(new Set(spec.outputs.map((o) => o.name)));
    expect(spec.inputs.slice(0, 2).map((i) => i.name)).toEqual(['codes', 'attention_bias']);
    expect(spec.externalDataFile).toBe(manifest.graphs.codecStream.externalDataFile);
  });

  it('the *_matmul forms: no ConvTranspose, the static one as capture-safe as its twin, I/O as the manifest, weights shared', () => {
    const plainStatic = new Set(codec.graph.node.map((n) => n.opType));
    expect(plainStatic).toContain('ConvTranspose');
    for (const [key, twin] of [['codecStreamMatMul', 'codecStream'], ['codecStreamStaticMatMul', 'codecStreamStatic']] as const) {
      const spec = manifest.graphs[key]!;
      const graph = (ModelProtoType.decode(fs.readFileSync(path.join(builtDir, spec.file))) as unknown as ModelProto).graph;
      const ops = new Set(graph.node.map((n) => n.opType));
      expect(ops, key).not.toContain('ConvTranspose');
      expect(ops, key).toContain('MatMul');
      if (key === 'codecStreamStaticMatMul') for (const op of ops) expect(plainStatic, `${op} is new in ${key}`).toContain(op);
      expect(graph.input.map((i) => i.name)).toEqual(manifest.graphs[twin]!.inputs.map((i) => i.name));
      expect(graph.input.map((i) => i.name)).toEqual(spec.inputs.map((i) => i.name));
      expect(new Set(graph.output.map((o) => o.name))).toEqual(new Set(spec.outputs.map((o) => o.name)));
      expect(spec.externalDataFile).toBe(manifest.graphs.codecStream.externalDataFile);
    }
  });
});
