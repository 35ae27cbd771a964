/**
 * The input shapes every node of an ONNX graph meets in one run: the graph runs once on ORT's CPU
 * provider, unoptimised (so its nodes are the built ones) and profiled, and the profile names each
 * node's input shapes. Test helper: the CUDA replay audit reads it, where a shape-inference engine
 * would otherwise be needed. Node names are replaced by their index in a copy beside the original (ORT
 * reads external weights only from the model's own folder), removed after the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ModelProtoType } from '../../model-format/onnx/onnx-schema';
import { createSession, tensor, type OrtTensor } from '../../engine/runtime/ort';
import type { TensorDtype } from '../../engine/runtime/runtime';

export interface CensusAttribute { name: string; i?: number | { toNumber(): number }; ints?: (number | { toNumber(): number })[] }
export interface CensusNode {
  index: number;
  opType: string;
  domain: string;
  input: string[];
  output: string[];
  attribute: CensusAttribute[];
  /** One entry per input; null where the input is absent ('') or the profile gave none. */
  inputShapes: (number[] | null)[];
}
export interface CensusInitializer { name: string; dims: number[]; int64s: bigint[] | null }

interface NodeProto { name?: string; opType: string; domain?: string; input: string[]; output: string[]; attribute?: CensusAttribute[] }
interface TensorProto { name: string; dims: (number | { toNumber(): number })[]; dataType: number; rawData?: Uint8Array; int64Data?: (number | { toNumber(): number })[]; externalData?: { key: string; value: string }[] }
interface ModelProto { graph: { node: NodeProto[]; initializer: TensorProto[] } }
interface ProfileEvent { cat?: string; name?: string; args?: { op_name?: string; input_type_shape?: Record<string, number[]>[] } }

const num = (v: number | { toNumber(): number }): number => (typeof v === 'number' ? v : v.toNumber());
const INT64 = 7;

function int64sOf(t: TensorProto): bigint[] | null {
  if (t.dataType !== INT64) return null;
  if (t.rawData && t.rawData.byteLength > 0) {
    const raw = t.rawData;
    return [...new BigInt64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))];
  }
  return (t.int64Data ?? []).map((v) => BigInt(num(v)));
}

/** Runs `modelFile` once on the CPU with `feeds`; every node with the shapes of its inputs, and the graph's initializers. */
export async function shapeCensus(modelFile: string, feeds: Record<string, OrtTensor>): Promise<{ nodes: CensusNode[]; initializers: CensusInitializer[] }> {
  const model = ModelProtoType.decode(fs.readFileSync(modelFile)) as unknown as ModelProto;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shape-census-'));
  const copy = path.join(path.dirname(modelFile), `.census-${process.pid}-${Date.now()}-${path.basename(modelFile)}`);
  try {
    model.graph.node.forEach((n, i) => (n.name = `n${i}`));
    fs.writeFileSync(copy, ModelProtoType.encode(model as never).finish());
    const session = await createSession(copy, { provider: 'cpu', runtime: 'node', graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, enableProfiling: true, profileFilePrefix: path.join(dir, 'profile') });
    try {
      await session.run(feeds);
      await session.endProfiling();
    } finally {
      await session.release();
    }
    // the binding may not say where it wrote the profile: it is the one file under the prefix
    const written = fs.readdirSync(dir).filter((f) => f.startsWith('profile') && f.endsWith('.json'));
    if (written.length !== 1) throw new Error(`expected one ORT profile in ${dir}, found ${written.length}`);
    const events = JSON.parse(fs.readFileSync(path.join(dir, written[0]), 'utf8')) as ProfileEvent[];
    const shapes = new Map<string, number[][]>();
    for (const e of events) {
      const m = e.cat === 'Node' && e.name ? /^n(\d+)_kernel_time$/.exec(e.name) : null;
      if (m && e.args?.input_type_shape) shapes.set(m[1], e.args.input_type_shape.map((s) => Object.values(s)[0] ?? []));
    }
    const initializers = model.graph.initializer.map((t) => ({ name: t.name, dims: t.dims.map(num), int64s: int64sOf(t) }));
    const initializerDims = new Map(initializers.map((t) => [t.name, t.dims]));
    const nodes = model.graph.node.map((n, index): CensusNode => {
      const seen = shapes.get(String(index)) ?? [];
      // the profile lists present inputs in order, and leaves off the trailing weights a kernel packed at load
      let k = 0;
      const inputShapes = n.input.map((name) => (name === '' ? null : (seen[k++] ?? initializerDims.get(name) ?? null)));
      return { index, opType: n.opType, domain: n.domain ?? '', input: n.input, output: n.output, attribute: n.attribute ?? [], inputShapes };
    });
    return { nodes, initializers };
  } finally {
    fs.rmSync(copy, { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A feed of `dims` filled with `value` (the census needs shapes, not meaningful values). */
export function filledFeed(dtype: TensorDtype, dims: readonly number[], value: number): OrtTensor {
  const size = dims.reduce((a, b) => a * b, 1);
  switch (dtype) {
    case 'int64':
      return tensor(dtype, new BigInt64Array(size).fill(BigInt(value)), dims);
    case 'int32':
      return tensor(dtype, new Int32Array(size).fill(value), dims);
    case 'bool':
      return tensor(dtype, new Uint8Array(size).fill(value ? 1 : 0), dims);
    case 'float16':
      return tensor(dtype, new Uint16Array(size).fill(value === 0 ? 0 : value === 1 ? 0x3c00 : 0x3800), dims);
    default:
      return tensor(dtype, new Float32Array(size).fill(value), dims);
  }
}

/** A manifest dim: a number, a name, or a sum of products such as 'num_frames*4+6'. */
export function evalDim(dim: number | string, vars: Record<string, number>): number {
  if (typeof dim === 'number') return dim;
  return dim.split('+').reduce((sum, term) => sum + term.split('*').reduce((p, f) => {
    const factor = /^\d+$/.test(f.trim()) ? Number(f) : vars[f.trim()];
    if (factor === undefined) throw new Error(`no value for dim '${f}' in '${dim}'`);
    return p * factor;
  }, 1), 0);
}
