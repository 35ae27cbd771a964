/**
 * ONNX building blocks of the codec decoder graph, on top of GraphBuilder (opset 17, plain ops so
 * the graph runs on CPU and GPU providers): weight import (fp32, or fp16 storage cast to fp32),
 * causal Conv / ConvTranspose, SnakeBeta, ConvNeXt and the causal sliding-window mask.
 * Signals are channel-first [B, C, N]; token rows are [B, T, C]. Mirrors reference-codec-ops.ts.
 */
import { StudioError } from '../../../src-shared/errors';
import type { GraphBuilder } from '../onnx/graph-builder';
import { MASK_NEGATIVE } from '../onnx/composite-ops';
import type { CodecTensors } from './codec-tensor-shapes';

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

/** Conv1d over [B, Cin, N] with left padding (K−1)·dilation: output length N, output t sees inputs ≤ t. */
export function causalConv(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, dilation = 1, groups = 1): string {
  const kernelSize = w.get(`${prefix}.weight`).shape[2];
  return g.op('Conv', [x, w.kernel(`${prefix}.weight`), w.vector(`${prefix}.bias`)], {
    kernel_shape: [kernelSize],
    dilations: [dilation],
    group: groups,
    pads: [(kernelSize - 1) * dilation, 0],
    strides: [1],
  });
}

/**
 * ConvTranspose1d [B, Cin, L] → [B, Cout, L·s]: of the full (L − 1)·s + K samples the K − s trailing
 * ones are dropped (causal), by the node's end padding rather than a Slice copy after it.
 */
export function causalConvTranspose(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, stride: number): string {
  const kernelSize = w.get(`${prefix}.weight`).shape[2];
  if (kernelSize < stride) {
    throw new StudioError('model-invalid', `speech tokenizer tensor 'decoder.${prefix}.weight' has kernel ${kernelSize}, shorter than its stride ${stride}; use the checkpoint that matches speech_tokenizer/config.json`, { tensor: `decoder.${prefix}.weight`, kernelSize, stride });
  }
  return g.op('ConvTranspose', [x, w.kernel(`${prefix}.weight`), w.vector(`${prefix}.bias`)], {
    kernel_shape: [kernelSize],
    strides: [stride],
    pads: [0, kernelSize - stride],
  });
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
export function convNeXt(g: GraphBuilder, w: CodecGraphWeights, x: string, prefix: string, layerNormEps: number): string {
  const C = w.get(`${prefix}.gamma`).shape[0];
  const dw = causalConv(g, w, x, `${prefix}.dwconv.conv`, 1, C);
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
