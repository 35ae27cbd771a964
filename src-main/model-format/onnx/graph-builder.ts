/**
 * GraphBuilder: writes ONNX models (opset 17, IR 8) from TypeScript with protobufjs: the model's graphs
 * at build time (model-builder/) and the engine's small weightless graphs at run time (copy-graph.ts).
 * Owns value naming, graph inputs/outputs, initializers (inline or in an external data file) and
 * serialisation. Composite blocks (RMSNorm, RoPE, attention, SwiGLU) live in composite-ops.ts.
 *
 * API
 *   new GraphBuilder({ name, opsetVersion?, useMicrosoftDomain?, externalData?, ops? })
 *   input(name, elemType, dims)            graph input; dims are numbers or symbolic names ('batch')
 *   output(value, elemType, dims, name?)   marks a value as graph output (renamed through Identity if needed;
 *                                          through an exact Max(x, x) with outputsByKernels)
 *   initializer(name, Float32Array, dims, storage?)  fp32 or fp16 storage; big ones go to external data
 *   initializerInt64(name, values, dims)   int64 weights / tables
 *   constInt64 / constInt32(values, dims?) / constFloat(values, elemType?, dims?)  deduplicated small constants
 *   node(opType, inputs, numOutputs | names, attrs?, domain?) → output names
 *   op(opType, inputs, attrs?) → the single output name
 *   matmul/add/sub/mul/div/cast/reshape/transpose/concat/gather/unsqueeze/squeeze/sigmoid/softmax/shape
 *   (cast of a value to its own type is the value; a value cast twice to one type shares one Cast)
 *   attrs: plain integers → INT, other numbers → FLOAT, number[] → INTS (floats via attr.floats()),
 *          strings → STRING; attr.float(x), attr.floats(xs), attr.graph(proto) for the ambiguous cases
 *   toGraphObject() → subgraph for attr.graph(); toBytes() → Uint8Array of the .onnx file; save(path) writes it and closes the external data file
 * Loading a model with external data needs a file path (ORT resolves `location` next to the .onnx).
 */
import fs from 'node:fs';
import { StudioError } from '../../../src-shared/errors';
import { float32ToFloat16Bits } from '../float-bits';
import { ModelProtoType, ONNX_ATTRIBUTE_TYPE, ONNX_DATA_TYPE, ONNX_IR_VERSION } from './onnx-schema';

export type ElemType = 'float32' | 'float16' | 'int64' | 'int32' | 'bool';
export type Dim = number | string;

export interface ExternalDataOptions {
  /** Absolute path of the data file to write. */
  dataPath: string;
  /** The name stored in the model (relative to the .onnx file), usually the data file's base name. */
  location: string;
  /** Initializers smaller than this stay inline (default 1 KiB). */
  minBytes?: number;
}

export interface GraphBuilderOptions {
  name: string;
  opsetVersion?: number;
  useMicrosoftDomain?: boolean;
  externalData?: ExternalDataOptions;
  producerVersion?: string;
  /** Which op set composite blocks use (composite-ops.ts); default 'portable'. */
  ops?: GraphOps;
  /**
   * Every graph output is written by a compute kernel (capture-ready graphs): WebGPU graph capture records
   * compute dispatches only, so an output that an Identity or Reshape copies into its bound buffer is
   * written once at capture and never on replay. Such outputs get an exact Max(x, x) instead; an output
   * under a new name whose producer is a compute kernel (and reads no graph input) is that kernel's output, renamed.
   */
  outputsByKernels?: boolean;
}

/** Ops whose kernels may fill a graph output by a buffer copy rather than a compute dispatch. */
const COPYING_OPS: ReadonlySet<string> = new Set(['Identity', 'Reshape', 'Squeeze', 'Unsqueeze', 'Flatten']);

/** 'fused': ORT's fused kernels where it has them (RMSNorm); 'portable': plain ONNX ops only. */
export type GraphOps = 'fused' | 'portable';
export const GRAPH_OPS: readonly GraphOps[] = ['fused', 'portable'];

type AttrObject =
  | { kind: 'float'; value: number }
  | { kind: 'floats'; value: number[] }
  | { kind: 'graph'; value: object };
export type AttrValue = number | number[] | string | AttrObject;

/** Explicit attribute constructors for values a plain number cannot express. */
export const attr = {
  float: (value: number): AttrObject => ({ kind: 'float', value }),
  floats: (value: number[]): AttrObject => ({ kind: 'floats', value }),
  graph: (value: object): AttrObject => ({ kind: 'graph', value }),
};

const EXTERNAL_ALIGN_BYTES = 4096;

const ELEM_TYPE_OF: Record<number, ElemType> = { [ONNX_DATA_TYPE.float32]: 'float32', [ONNX_DATA_TYPE.float16]: 'float16', [ONNX_DATA_TYPE.int64]: 'int64', [ONNX_DATA_TYPE.int32]: 'int32', [ONNX_DATA_TYPE.bool]: 'bool' };

export class GraphBuilder {
  readonly name: string;
  private readonly opsetVersion: number;
  private readonly options: GraphBuilderOptions;
  private readonly nodes: (Record<string, unknown> & { domain?: string })[] = [];
  private readonly initializers: object[] = [];
  private readonly inputs: object[] = [];
  private readonly outputs: object[] = [];
  private readonly usedNames = new Set<string>();
  /** Names handed out by fresh() that have not been defined yet. */
  private readonly freshNames = new Set<string>();
  private readonly constCache = new Map<string, string>();
  /** Element types of the inputs, initializers and Cast outputs, so a Cast to a value's own type is no node. */
  private readonly valueTypes = new Map<string, ElemType>();
  /** `${value}->${type}` → the Cast output already made: a value is cast once per type and reused. */
  private readonly castCache = new Map<string, string>();
  /** Values renamed to the graph output a kernel writes directly (outputsByKernels): later uses read the new name. */
  private readonly renamed = new Map<string, string>();
  readonly ops: GraphOps;
  private nameCounter = 0;
  private externalFd: number | null = null;
  private externalBytes = 0;

  constructor(options: GraphBuilderOptions) {
    this.options = options;
    this.name = options.name;
    this.opsetVersion = options.opsetVersion ?? 17;
    this.ops = options.ops ?? 'portable';
  }

  /** A fresh value name with a readable prefix. */
  fresh(prefix: string): string {
    let candidate = `${prefix}_${this.nameCounter++}`;
    while (this.usedNames.has(candidate)) candidate = `${prefix}_${this.nameCounter++}`;
    this.usedNames.add(candidate);
    this.freshNames.add(candidate);
    return candidate;
  }

  input(name: string, elemType: ElemType, dims: readonly Dim[]): string {
    this.claim(name);
    this.valueTypes.set(name, elemType);
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Marks `value` as a graph output called `name` (defaults to the value's own name). */
  output(given: string, elemType: ElemType, dims: readonly Dim[], name = given): string {
    const value = this.renamed.get(given) ?? given;
    if (this.options.outputsByKernels) {
      const producer = this.nodes.find((n) => (n.output as string[]).includes(value));
      const opType = producer?.opType as string | undefined;
      if (producer && opType && !COPYING_OPS.has(opType) && name !== value && this.canRenameOutput(producer, value)) {
        // the kernel writes the output itself: its value takes the output's name (no Max copy)
        this.claim(name);
        this.renamed.set(value, name);
        for (const n of this.nodes) n.input = (n.input as string[]).map((v) => (v === value ? name : v));
        producer.output = (producer.output as string[]).map((v) => (v === value ? name : v));
        this.outputs.push(valueInfo(name, elemType, dims));
        return name;
      }
      if (!opType || COPYING_OPS.has(opType) || name !== value) {
        if (name === value) throw new StudioError('internal', `output '${name}' is copied by ${opType ?? 'no node'}; give it a new name so a kernel can write it`);
        this.claim(name);
        this.nodes.push({ opType: 'Max', input: [value, value], output: [name], name: `${name}_written` });
        this.outputs.push(valueInfo(name, elemType, dims));
        return name;
      }
    }
    if (name !== value) {
      this.claim(name);
      this.nodes.push({ opType: 'Identity', input: [value], output: [name], name: `${name}_identity` });
    }
    this.outputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /**
   * Whether `value` may simply be renamed to an output name: it is no output yet, its producer reads no
   * graph input (an output bound to an input's buffer, as past/present KV, must not be written by a kernel
   * that reads that input), and no node carries a subgraph (which could name the value from inside).
   */
  private canRenameOutput(producer: Record<string, unknown>, value: string): boolean {
    const inputNames = new Set(this.inputs.map((i) => (i as { name: string }).name));
    if ((producer.input as string[]).some((v) => inputNames.has(v))) return false;
    if (this.outputs.some((o) => (o as { name: string }).name === value)) return false;
    return !this.nodes.some((n) => ((n.attribute ?? []) as { type: number }[]).some((a) => a.type === ONNX_ATTRIBUTE_TYPE.graph));
  }

  /** A float initializer from fp32 data, stored as fp32 or fp16. */
  initializer(name: string, data: Float32Array, dims: readonly number[], storage: 'float32' | 'float16' = 'float32'): string {
    const numElements = dims.reduce((a, b) => a * b, 1);
    if (numElements !== data.length) {
      throw new StudioError('internal', `initializer '${name}' has ${data.length} values but dims [${dims.join(', ')}] need ${numElements}; pass matching data`, {
        name,
        numValues: data.length,
        numExpected: numElements,
      });
    }
    const bytes = storage === 'float16' ? toBytes(float32ToFloat16Bits(data)) : toBytes(data);
    return this.rawInitializer(name, ONNX_DATA_TYPE[storage], dims, bytes);
  }

  initializerInt64(name: string, values: readonly number[] | BigInt64Array, dims: readonly number[]): string {
    const big = values instanceof BigInt64Array ? values : BigInt64Array.from(values, (v) => BigInt(v));
    return this.rawInitializer(name, ONNX_DATA_TYPE.int64, dims, toBytes(big));
  }

  /** A small int64 constant, shared between uses with the same values. */
  constInt64(values: readonly number[], dims: readonly number[] = [values.length]): string {
    const key = `i64:${dims.join('x')}:${values.join(',')}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.initializerInt64(this.fresh('const_i64'), values, dims);
    this.constCache.set(key, name);
    return name;
  }

  /** A small int32 constant, shared between uses with the same values (int32 arithmetic stays on GPU providers that place int64 on the CPU). */
  constInt32(values: readonly number[], dims: readonly number[] = [values.length]): string {
    const key = `i32:${dims.join('x')}:${values.join(',')}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.rawInitializer(this.fresh('const_i32'), ONNX_DATA_TYPE.int32, dims, toBytes(Int32Array.from(values)));
    this.constCache.set(key, name);
    return name;
  }

  /** A small float constant (scalar by default), shared between uses with the same values. */
  constFloat(values: number | readonly number[], elemType: 'float32' | 'float16' = 'float32', dims?: readonly number[]): string {
    const list = typeof values === 'number' ? [values] : [...values];
    const shape = dims ?? (typeof values === 'number' ? [] : [list.length]);
    const key = `${elemType}:${shape.join('x')}:${list.join(',')}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.initializer(this.fresh(`const_${elemType}`), Float32Array.from(list), shape, elemType);
    this.constCache.set(key, name);
    return name;
  }

  /** Adds a node; returns its output names (generated unless given). */
  node(opType: string, inputs: readonly string[], outputs: number | readonly string[] = 1, attrs: Record<string, AttrValue> = {}, domain = ''): string[] {
    const outputNames = typeof outputs === 'number' ? Array.from({ length: outputs }, () => this.fresh(opType.toLowerCase())) : [...outputs];
    for (const n of outputNames) this.claim(n);
    this.nodes.push({
      opType,
      domain,
      input: inputs.map((v) => this.renamed.get(v) ?? v),
      output: outputNames,
      name: this.fresh(`n_${opType}`),
      attribute: Object.entries(attrs).map(([key, value]) => encodeAttribute(key, value)),
    });
    return outputNames;
  }

  /** A single-output node. */
  op(opType: string, inputs: readonly string[], attrs: Record<string, AttrValue> = {}, domain = ''): string {
    return this.node(opType, inputs, 1, attrs, domain)[0];
  }

  matmul(a: string, b: string): string { return this.op('MatMul', [a, b]); }
  add(a: string, b: string): string { return this.op('Add', [a, b]); }
  sub(a: string, b: string): string { return this.op('Sub', [a, b]); }
  mul(a: string, b: string): string { return this.op('Mul', [a, b]); }
  div(a: string, b: string): string { return this.op('Div', [a, b]); }
  sigmoid(x: string): string { return this.op('Sigmoid', [x]); }
  shape(x: string): string { return this.op('Shape', [x]); }
  softmax(x: string, axis = -1): string { return this.op('Softmax', [x], { axis }); }
  /** x as `to`: x itself when it already has that type, else one Cast per (x, to), reused (exact either way). */
  cast(x: string, to: ElemType): string {
    if (this.valueTypes.get(x) === to) return x;
    const key = `${x}->${to}`;
    const cached = this.castCache.get(key);
    if (cached) return cached;
    const y = this.op('Cast', [x], { to: ONNX_DATA_TYPE[to] });
    this.valueTypes.set(y, to);
    this.castCache.set(key, y);
    return y;
  }
  reshape(x: string, dims: readonly number[]): string { return this.op('Reshape', [x, this.constInt64(dims)]); }
  reshapeTo(x: string, shape: string): string { return this.op('Reshape', [x, shape]); }
  transpose(x: string, perm: readonly number[]): string { return this.op('Transpose', [x], { perm: [...perm] }); }
  concat(values: readonly string[], axis: number): string { return this.op('Concat', values, { axis }); }
  gather(data: string, indices: string, axis = 0): string { return this.op('Gather', [data, indices], { axis }); }
  unsqueeze(x: string, axes: readonly number[]): string { return this.op('Unsqueeze', [x, this.constInt64(axes)]); }
  squeeze(x: string, axes: readonly number[]): string { return this.op('Squeeze', [x, this.constInt64(axes)]); }
  /** Slice along one axis, [start, end). */
  slice(x: string, axis: number, start: number | string, end: number | string): string {
    const s = typeof start === 'number' ? this.constInt64([start]) : start;
    const e = typeof end === 'number' ? this.constInt64([end]) : end;
    return this.op('Slice', [x, s, e, this.constInt64([axis])]);
  }
  /** One dimension of a value's shape as an int64 [1] tensor. */
  dim(x: string, axis: number): string {
    return this.op('Shape', [x], { start: axis, end: axis + 1 });
  }

  /** The GraphProto as a plain object: the model's graph, or a subgraph for attr.graph(). */
  toGraphObject(): object {
    return { name: this.name, node: this.nodes, initializer: this.initializers, input: this.inputs, output: this.outputs };
  }

  /** The ModelProto as a plain object (for inspection and tests). */
  toModelObject(): object {
    const opsetImport = [{ domain: '', version: this.opsetVersion }];
    if (this.options.useMicrosoftDomain || this.nodes.some((n) => n.domain === 'com.microsoft')) opsetImport.push({ domain: 'com.microsoft', version: 1 });
    return {
      irVersion: ONNX_IR_VERSION,
      producerName: 'qwen3-tts-studio model-builder',
      producerVersion: this.options.producerVersion ?? '1',
      opsetImport,
      graph: this.toGraphObject(),
    };
  }

  toBytes(): Uint8Array {
    const message = ModelProtoType.fromObject(this.toModelObject());
    return ModelProtoType.encode(message).finish();
  }

  /** Writes the .onnx file and finishes the external data file, if any. */
  save(onnxPath: string): { numModelBytes: number; numExternalBytes: number } {
    const bytes = this.toBytes();
    fs.writeFileSync(onnxPath, bytes);
    this.closeExternalData();
    return { numModelBytes: bytes.byteLength, numExternalBytes: this.externalBytes };
  }

  closeExternalData(): void {
    if (this.externalFd !== null) {
      fs.fsyncSync(this.externalFd);
      fs.closeSync(this.externalFd);
      this.externalFd = null;
    }
  }

  private claim(name: string): void {
    if (this.freshNames.delete(name)) return;
    if (this.usedNames.has(name)) {
      throw new StudioError('internal', `graph '${this.name}' already has a value named '${name}'; pick a unique name`, { name });
    }
    this.usedNames.add(name);
  }

  private rawInitializer(name: string, dataType: number, dims: readonly number[], bytes: Uint8Array): string {
    this.claim(name);
    const elemType = ELEM_TYPE_OF[dataType];
    if (elemType) this.valueTypes.set(name, elemType);
    const external = this.options.externalData;
    if (external && bytes.byteLength >= (external.minBytes ?? 1024)) {
      const offset = this.appendExternal(external, bytes);
      this.initializers.push({
        name,
        dataType,
        dims: [...dims],
        dataLocation: 1,
        externalData: [
          { key: 'location', value: external.location },
          { key: 'offset', value: String(offset) },
          { key: 'length', value: String(bytes.byteLength) },
        ],
      });
    } else {
      this.initializers.push({ name, dataType, dims: [...dims], rawData: bytes });
    }
    return name;
  }

  private appendExternal(external: ExternalDataOptions, bytes: Uint8Array): number {
    if (this.externalFd === null) {
      this.externalFd = fs.openSync(external.dataPath, 'w');
      this.externalBytes = 0;
    }
    const offset = Math.ceil(this.externalBytes / EXTERNAL_ALIGN_BYTES) * EXTERNAL_ALIGN_BYTES;
    let written = 0;
    while (written < bytes.byteLength) {
      written += fs.writeSync(this.externalFd, bytes, written, bytes.byteLength - written, offset + written);
    }
    this.externalBytes = offset + bytes.byteLength;
    return offset;
  }
}

function toBytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function valueInfo(name: string, elemType: ElemType, dims: readonly Dim[]): object {
  return {
    name,
    type: {
      tensorType: {
        elemType: ONNX_DATA_TYPE[elemType],
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function encodeAttribute(name: string, value: AttrValue): object {
  if (typeof value === 'string') return { name, type: ONNX_ATTRIBUTE_TYPE.string, s: new TextEncoder().encode(value) };
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { name, type: ONNX_ATTRIBUTE_TYPE.int, i: value } : { name, type: ONNX_ATTRIBUTE_TYPE.float, f: value };
  }
  if (Array.isArray(value)) return { name, type: ONNX_ATTRIBUTE_TYPE.ints, ints: value };
  switch (value.kind) {
    case 'float':
      return { name, type: ONNX_ATTRIBUTE_TYPE.float, f: value.value };
    case 'floats':
      return { name, type: ONNX_ATTRIBUTE_TYPE.floats, floats: value.value };
    case 'graph':
      return { name, type: ONNX_ATTRIBUTE_TYPE.graph, g: value.value };
  }
}
