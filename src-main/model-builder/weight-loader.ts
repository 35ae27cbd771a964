/**
 * Moves checkpoint tensors into a GraphBuilder as initializers: linear weights transposed to [in, out]
 * for MatMul, stored fp32 or fp16 per the build dtype; norm weights fp32 unless the fused RMSNorm takes them in fp16.
 * Reads one tensor at a time from the safetensors file, so peak memory is about one weight matrix.
 */
import type { GraphBuilder } from '../model-format/onnx/graph-builder';
import type { SafetensorsFile } from './safetensors';

export type WeightStorage = 'float32' | 'float16';

export function transpose2d(data: Float32Array, numRows: number, numCols: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let r = 0; r < numRows; r++) {
    const rowBase = r * numCols;
    for (let c = 0; c < numCols; c++) out[c * numRows + r] = data[rowBase + c];
  }
  return out;
}

export class WeightLoader {
  constructor(
    private readonly g: GraphBuilder,
    private readonly weights: SafetensorsFile,
    readonly storage: WeightStorage,
  ) {}

  /** [out, in] checkpoint weight → initializer [in, out]. */
  linearT(name: string): string {
    const [numOut, numIn] = this.weights.info(name).shape;
    return this.g.initializer(name, transpose2d(this.weights.readFloat32(name), numOut, numIn), [numIn, numOut], this.storage);
  }

  /**
   * Several [out_i, in] weights side by side as one [in, Σ out_i] initializer, so one MatMul computes
   * all of them (q/k/v, gate/up); a Split on the last axis gives each back in order.
   */
  concatLinearT(names: readonly string[], concatName: string): string {
    const parts = names.map((n) => ({ shape: this.weights.info(n).shape, data: this.weights.readFloat32(n) }));
    const numIn = parts[0].shape[1];
    const numOutTotal = parts.reduce((sum, p) => sum + p.shape[0], 0);
    const out = new Float32Array(numIn * numOutTotal);
    let column = 0;
    for (const { shape: [numOut], data } of parts) {
      for (let o = 0; o < numOut; o++) for (let i = 0; i < numIn; i++) out[i * numOutTotal + column + o] = data[o * numIn + i];
      column += numOut;
    }
    return this.g.initializer(concatName, out, [numIn, numOutTotal], this.storage);
  }

  /** Several [out, in] weights stacked as [count, in, out] (the code predictor's lm_heads). */
  stackedLinearT(names: readonly string[], stackName: string): string {
    const [numOut, numIn] = this.weights.info(names[0]).shape;
    const out = new Float32Array(names.length * numIn * numOut);
    names.forEach((n, i) => out.set(transpose2d(this.weights.readFloat32(n), numOut, numIn), i * numIn * numOut));
    return this.g.initializer(stackName, out, [names.length, numIn, numOut], this.storage);
  }

  /** A tensor as stored (embedding tables, biases) in the build storage. */
  plain(name: string): string {
    return this.g.initializer(name, this.weights.readFloat32(name), this.weights.info(name).shape, this.storage);
  }

  /**
   * RMSNorm weights: fp32 for the portable op set (it multiplies in fp32); in the build storage for the
   * fused kernel, whose scale has the activation type: converted here once (round to nearest even, as
   * ORT's Cast), not by a Cast node per use.
   */
  norm(name: string): string {
    const storage = this.g.ops === 'fused' ? this.storage : 'float32';
    return this.g.initializer(name, this.weights.readFloat32(name), this.weights.info(name).shape, storage);
  }
}
