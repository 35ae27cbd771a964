/**
 * ONNX building blocks of the codec decoder graph, on top of GraphBuilder (opset 17, plain ops so
 * the graph runs on CPU and GPU providers): weight import (fp32, or fp16 storage cast to fp32),
 * causal Conv / ConvTranspose, SnakeBeta, ConvNeXt, the causal sliding-window mask, and the stream
 * carry (each causal layer's look-back as a state input and output). Signals are channel-first
 * [B, C, N]; token rows are [B, T, C]. Mirrors reference-codec-ops.ts.
 */
import { StudioError } from '../../../src-shared/errors';
import type { GraphBuilder } from '../../model-format/onnx/graph-builder';
import { MASK_NEGATIVE } from '../../model-format/onnx/composite-ops';
import { joinLengthDim } from '../../model-format/codec/codec-stream-io';
import type { CodecTensors } from './codec-tensor-shapes';
import type { CodecUpsampleForm } from '../../model-format/manifest';

export type CodecGraphDtype = 'fp32' | 'fp16';

/** Turns checkpoint tensors into initializers; large weights follow the dtype, vectors stay fp32. */
export class CodecGraphWeights {
  constructor(
    private readonly g: GraphBuilder,
    private readonly tensors: CodecTensors,
    private readonly dtype: CodecGraphDtype,
  ) {}

  /** The raw checkpoint tensor `decoder.<name>`. */
  get(name: string): { shape: readonly number[]; data: Float32Array } {
    const t = this.tensors.get(`decoder.${name}`);
    if (!t) throw new StudioError('model-invalid', `speech tokenizer tensor 'decoder.${name}' is missing; use the checkpoint that matches speech_tokenizer/config.json`, { tensor: `decoder.${name}` });
    return t;
  }

  /** A weight matrix / kernel as an fp32 value (fp16 storage is cast back to fp32 in the graph). */
  matrix(name: string, data: Float32Array, dims: readonly number[]): string {
    if (this.dtype === 'fp32') return this.g.initializer(name, data, dims, 'float32');
    return this.g.cast(this.g.initializer(name, data, dims, 'float16'), 'float32');
  }

  /** A checkpoint weight under its own name (torch layout), see matrix(). */
  kernel(name: string): string {
    const t = this.get(name);
    return this.matrix(name, t.data, t.shape);
  }

  /** A torch Linear weight [out, in] stored transposed as [in, out] for MatMul. */
  linearT(name: string): string {
    const t = this.get(name);
    const [numOut, numIn] = t.shape;
    const transposed = new Float32Array(t.data.length);
    for (let o = 0; o < numOut; o++) for (let i = 0; i < numIn; i++) transposed[i * numOut + o] = t.data[o * numIn + i];
    return this.matrix(`${name}.T`, transposed, [numIn, numOut]);
  }

  /** A small fp32 vector, optionally reshaped (e.g. [1, C, 1] to broadcast over [B, C, N]). */
  vector(name: string, dims?: readonly number[]): string {
    const t = this.get(name);
    return this.g.initializer(name, t.data, dims ?? t.shape, 'float32');
  }

  /** A derived fp32 constant that is not a checkpoint tensor. */
  derived(name: string, data: Float32Array, dims: readonly number[]): string {
    return this.g.initializer(name, data, dims, 'float32');
  }
}

/** One carried state: graph input and output names and its dims after the batch axis. */
export interface CodecStreamStateSpec {
  input: string;
  output: string;
  dims: [number, number];
}

/**
 * One group of host inputs of the gather join (static form): for every carry that joins `numState` state
 * entries to a signal of num_frames · framesScale entries along `axis`, `index` (int32 [L], L = their
 * sum) holds min(j, numState − 1) and `keep` (fp32, L along the axis, 1 elsewhere) 1 for j < numState, else
 * 0 (model-format/codec/codec-stream-io.ts writes both).
 */
export interface CodecStreamJoinSpec {
  index: string;
  keep: string;
  axis: 1 | 2;
  numState: number;
  framesScale: number;
}

/**
 * The streaming graph's carried state: a layer that looks back `length` entries along an axis
 * gets [state, x] instead of zero padding, and the last `length` entries of that become the next
 * call's state. A zero state is exactly the zero padding of the first call.
 *
 * Join forms: 'concat' (one Concat), or 'gather' for graphs that are captured (the static form). ORT
 * 1.29's CUDA Concat of inputs of uneven length passes their pointers and lengths to its kernel through
 * pinned host memory that it frees after the run, so a CUDA-graph replay reads whatever that memory
 * holds by then (compute-sanitizer, H100: invalid reads in _ConcatKernel, then CUDA error 700). The
 * gather join is Gather(state, index) · keep + Pad(x, numState before): kernels whose parameters
 * travel by value, and the same bytes (a state entry times 1 plus 0, or 0 plus x).
 */
export class CodecStreamCarry {
  readonly states: CodecStreamStateSpec[] = [];
  readonly joins: CodecStreamJoinSpec[] = [];
  /** Entries per frame of the signal the next prepend joins (the builder multiplies it at each upsampling). */
  framesScale = 1;
  constructor(
    private readonly g: GraphBuilder,
    private readonly joinForm: 'concat' | 'gather' = 'concat',
  ) {}

  /** [state, x] along axis 1 or 2 of a [B, a, b] value; `dims` are the state's [a, b]. */
  prepend(x: string, axis: 1 | 2, dims: [number, number]): string {
    const i = this.states.length;
    const spec = { input: `state_in_${i}`, output: `state_out_${i}`, dims };
    this.states.push(spec);
    this.g.input(spec.input, 'float32', ['batch', ...dims]);
    const numState = dims[axis - 1];
    const joined = this.joinForm === 'concat' ? this.g.concat([spec.input, x], axis) : this.gatherJoin(spec.input, x, axis, numState);
    this.g.output(this.g.slice(joined, axis, -numState, 1 << 30), 'float32', ['batch', ...dims], spec.output);
    return joined;
  }

  /** Declares the gather join's host inputs, after the states (call once, when the graph is complete). */
  declareJoinInputs(): void {
    for (const j of this.joins) {
      const length = joinLengthDim(j.numState, j.framesScale);
      this.g.input(j.index, 'int32', [length]);
      this.g.input(j.keep, 'float32', j.axis === 2 ? [1, 1, length] : [1, length, 1]);
    }
  }

  private gatherJoin(state: string, x: string, axis: 1 | 2, numState: number): string {
    let join = this.joins.find((j) => j.axis === axis && j.numState === numState && j.framesScale === this.framesScale);
    if (!join) {
      const k = this.joins.length;
      join = { index: `join_index_${k}`, keep: `join_keep_${k}`, axis, numState, framesScale: this.framesScale };
      this.joins.push(join);
    }
    const before = axis === 2 ? [0, 0, numState, 0, 0, 0] : [0, numState, 0, 0, 0, 0];
    const shifted = this.g.op('Pad', [x, this.g.constInt64(before)]);
    return this.g.add(this.g.mul(this.g.gather(state, join.index, axis), join.keep), shifted);
  }
}

/**
 * Conv1d over [B, Cin, N] with left padding (K−1)·dilation: output length N, output t sees inputs ≤ t.
 * With a carry the padding is the previous call's last (K−1)·dilation inputs.
 */
export function causalConv(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, dilation = 1, groups = 1, carry?: CodecStreamCarry): string {
  const [, numInPerGroup, kernelSize] = w.get(`${prefix}.weight`).shape;
  const lookBack = (kernelSize - 1) * dilation;
  const input = carry && lookBack > 0 ? carry.prepend(x, 2, [numInPerGroup * groups, lookBack]) : x;
  return g.op('Conv', [input, w.kernel(`${prefix}.weight`), w.vector(`${prefix}.bias`)], {
    kernel_shape: [kernelSize],
    dilations: [dilation],
    group: groups,
    pads: [carry ? 0 : lookBack, 0],
    strides: [1],
  });
}

/**
 * ConvTranspose1d [B, Cin, L] → [B, Cout, L·s]: of the full (L − 1)·s + K samples the K − s trailing
 * ones are dropped (causal), by the node's end padding rather than a Slice copy after it. Output slot
 * t reads inputs t − ⌈K/s⌉ + 1 … t; with a carry those earlier inputs come from the previous call and
 * their own slots are cut by the begin padding.
 */
export function causalConvTranspose(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, stride: number, carry?: CodecStreamCarry, form: CodecUpsampleForm = 'conv-transpose'): string {
  const [numIn, numOut, kernelSize] = w.get(`${prefix}.weight`).shape;
  if (kernelSize < stride) {
    throw new StudioError('model-invalid', `speech tokenizer tensor 'decoder.${prefix}.weight' has kernel ${kernelSize}, shorter than its stride ${stride}; use the checkpoint that matches speech_tokenizer/config.json`, { tensor: `decoder.${prefix}.weight`, kernelSize, stride });
  }
  const lookBack = carry ? Math.ceil(kernelSize / stride) - 1 : 0;
  const input = lookBack > 0 ? carry!.prepend(x, 2, [numIn, lookBack]) : x;
  if (form === 'matmul' && kernelSize % stride === 0) return convTransposeAsMatMul(g, w, input, prefix, { numIn, numOut, kernelSize, stride, lookBack });
  return g.op('ConvTranspose', [input, w.kernel(`${prefix}.weight`), w.vector(`${prefix}.bias`)], {
    kernel_shape: [kernelSize],
    strides: [stride],
    pads: [lookBack * stride, kernelSize - stride],
  });
}

/**
 * The causal ConvTranspose as a MatMul and an overlap-add, for kernel = m · stride: the form for
 * providers whose ConvTranspose kernels are slow (cuDNN: 390 of the codec's 455 ms, docs/benchmarks.md). With the weight
 * W [Cin, Cout·m·s], Y = Xᵀ · W [B, L, Cout, m, s] (L inputs, the carried look-back first), and output slot
 * t (its s samples) is Σ_j Y[:, t − j, :, j, :]: tap block j of the input j slots back. The first
 * L − lookBack slots are kept (causal), as the node's pads do. Xᵀ [B, L, Cin] times a matrix is one GEMM
 * over B·L rows (W · X, a matrix times a batch, would be a batched GEMM that ORT's CUDA kernel feeds
 * through pinned pointer arrays, unsafe in a captured graph). The same products and sums as a
 * ConvTranspose, but not always the same bytes (another GEMM path; within 1.1e-6 on ORT's CPU), so a
 * provider runs one form or the other. A kernel that is no multiple of its stride keeps the ConvTranspose node.
 */
function convTransposeAsMatMul(g: GraphBuilder, w: CodecGraphWeights, input: string, prefix: string, d: { numIn: number; numOut: number; kernelSize: number; stride: number; lookBack: number }): string {
  const numTaps = d.kernelSize / d.stride; // m
  const weight = g.reshape(w.kernel(`${prefix}.weight`), [d.numIn, d.numOut * d.kernelSize]); // folded by ORT at load
  const bias = w.vector(`${prefix}.bias`, [1, 1, d.numOut, 1, 1]);
  const rows = g.transpose(input, [0, 2, 1]); // [B, L, Cin]
  const taps = g.op('Reshape', [g.matmul(rows, weight), g.constInt64([0, 0, d.numOut, numTaps, d.stride])]); // [B, L, Cout, m, s]
  let sum = '';
  for (let j = 0; j < numTaps; j++) {
    let tap = numTaps === 1 ? taps : g.slice(taps, 3, j, j + 1); // [B, L, Cout, 1, s]
    // slot t reads input t − j: with a carry input (lookBack − j) + t; without one, j zero slots first
    if (d.lookBack > 0) tap = g.slice(tap, 1, d.lookBack - j, j === 0 ? 1 << 30 : -j);
    else if (j > 0) tap = g.slice(g.op('Pad', [tap, g.constInt64([0, j, 0, 0, 0, 0, 0, 0, 0, 0])]), 1, 0, -j);
    sum = sum ? g.add(sum, tap) : tap;
  }
  const withBias = g.add(sum, bias); // [B, L − lookBack, Cout, 1, s]
  return g.op('Reshape', [g.transpose(withBias, [0, 2, 3, 1, 4]), g.constInt64([0, d.numOut, -1])]); // [B, Cout, (L − lookBack) · s]
}

/** SnakeBeta x + sin²(x·e^α) / (e^β + 1e-9); e^α and the reciprocal are folded into constants. */
export function snakeBeta(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string): string {
  const alpha = w.get(`${prefix}.alpha`).data;
  const beta = w.get(`${prefix}.beta`).data;
  const C = alpha.length;
  const freq = w.derived(`${prefix}.exp_alpha`, alpha.map((a) => Math.exp(a)), [1, C, 1]);
  const magnitude = w.derived(`${prefix}.inv_exp_beta`, beta.map((b) => 1 / (Math.exp(b) + 1e-9)), [1, C, 1]);
  const s = g.op('Sin', [g.mul(x, freq)]);
  return g.add(x, g.mul(g.mul(s, s), magnitude));
}

/** Exact GELU: 0.5·x·(1 + erf(x/√2)). */
export function gelu(g: GraphBuilder, x: string): string {
  const erf = g.op('Erf', [g.mul(x, g.constFloat(Math.SQRT1_2))]);
  return g.mul(g.mul(x, g.constFloat(0.5)), g.add(erf, g.constFloat(1)));
}

/** ConvNeXt block on [B, C, N]: causal depthwise k7 → LayerNorm → C→4C → GELU → 4C→C → ·gamma, plus the input. */
export function convNeXt(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, layerNormEps: number, carry?: CodecStreamCarry): string {
  const C = w.get(`${prefix}.gamma`).shape[0];
  const dw = causalConv(g, w, x, `${prefix}.dwconv.conv`, 1, C, carry);
  const rows = g.transpose(dw, [0, 2, 1]); // [B, N, C]
  const normed = g.op('LayerNormalization', [rows, w.vector(`${prefix}.norm.weight`), w.vector(`${prefix}.norm.bias`)], {
    axis: -1,
    epsilon: layerNormEps,
  });
  const hidden = gelu(g, g.add(g.matmul(normed, w.linearT(`${prefix}.pwconv1.weight`)), w.vector(`${prefix}.pwconv1.bias`)));
  const out = g.add(g.matmul(hidden, w.linearT(`${prefix}.pwconv2.weight`)), w.vector(`${prefix}.pwconv2.bias`));
  const scaled = g.mul(out, w.vector(`${prefix}.gamma`));
  return g.add(x, g.transpose(scaled, [0, 2, 1]));
}

/**
 * Additive fp32 mask [1, 1, 1, T, T] for groupedQueryAttention: query i sees key j when
 * 0 ≤ i − j < slidingWindow (causal sliding window, the query itself included).
 */
export function slidingWindowMask(g: GraphBuilder, numFrames: string, slidingWindow: number): string {
  const positions = g.op('Range', [g.constInt64([0], []), g.squeeze(numFrames, [0]), g.constInt64([1], [])]); // [T]
  const distance = g.sub(g.unsqueeze(positions, [1]), g.unsqueeze(positions, [0])); // [T, T]: i − j
  const notFuture = g.op('GreaterOrEqual', [distance, g.constInt64([0], [])]);
  const inWindow = g.op('Less', [distance, g.constInt64([slidingWindow], [])]);
  const allowed = g.op('And', [notFuture, inWindow]);
  const additive = g.op('Where', [allowed, g.constFloat(0), g.constFloat(MASK_NEGATIVE)]);
  return g.unsqueeze(additive, [0, 1, 2]);
}

/**
 * Additive fp32 mask [B, 1, 1, N, W − 1 + N] of the streaming graph: new frame i (key index W − 1 + i)
 * sees key j when 0 ≤ (W − 1 + i) − j < W and j is a real frame of its row, i.e. one of the row's
 * `numCached` [B] carried frames (the newest are last) or a new one.
 */
export function streamWindowMask(g: GraphBuilder, numNew: string, numCached: string, slidingWindow: number): string {
  const numCarried = slidingWindow - 1;
  const range = (end: string) => g.op('Range', [g.constInt64([0], []), g.squeeze(end, [0]), g.constInt64([1], [])]);
  const queries = g.unsqueeze(range(numNew), [1]); // [N, 1]
  const keys = g.unsqueeze(range(g.add(numNew, g.constInt64([numCarried]))), [0]); // [1, T]
  const inWindow = g.op('And', [g.op('GreaterOrEqual', [keys, queries]), g.op('LessOrEqual', [keys, g.add(queries, g.constInt64([numCarried], []))])]); // [N, T]
  const firstReal = g.unsqueeze(g.sub(g.constInt64([numCarried], []), numCached), [1, 2]); // [B, 1, 1]
  const real = g.op('GreaterOrEqual', [g.unsqueeze(keys, [0]), firstReal]); // [B, 1, T]
  const allowed = g.op('And', [g.unsqueeze(inWindow, [0]), real]); // [B, N, T]
  const additive = g.op('Where', [allowed, g.constFloat(0), g.constFloat(MASK_NEGATIVE)]);
  return g.unsqueeze(additive, [1, 2]);
}
