/**
 * A slow, obviously correct Qwen3 decoder stack in plain loops over Float32Array (llm.c style), for
 * checking the compiled graphs. One sequence at a time, no padding, no batching, no ORT: RMSNorm,
 * q/k norm, rotate-half RoPE, GQA attention over a growing KV cache, SwiGLU. Math in float64.
 */
import type { TransformerDims } from '../../model-format/manifest';
import type { SafetensorsFile } from '../safetensors';
import { rotateHalfPair } from '../codec/reference-codec-ops';

export interface ReferenceKvCache {
  /** keys[layer][position] = numKvHeads * headDim values (after RoPE). */
  keys: Float32Array[][];
  values: Float32Array[][];
}

interface LayerWeights {
  inputNorm: Float32Array;
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  o: Float32Array;
  qNorm: Float32Array;
  kNorm: Float32Array;
  postNorm: Float32Array;
  gate: Float32Array;
  up: Float32Array;
  down: Float32Array;
}

/** y = W x for W stored [out, in] (the checkpoint layout). */
export function matVec(w: Float32Array, x: Float32Array, numOut: number, bias?: Float32Array): Float32Array {
  const numIn = x.length;
  const y = new Float32Array(numOut);
  for (let o = 0; o < numOut; o++) {
    let acc = bias ? bias[o] : 0;
    const base = o * numIn;
    for (let i = 0; i < numIn; i++) acc += w[base + i] * x[i];
    y[o] = acc;
  }
  return y;
}

export function rmsNormVec(x: Float32Array, weight: Float32Array, eps: number): Float32Array {
  let ss = 0;
  for (let i = 0; i < x.length; i++) ss += x[i] * x[i];
  const inv = 1 / Math.sqrt(ss / x.length + eps);
  return x.map((v, i) => v * inv * weight[i]);
}

const silu = (v: number): number => v / (1 + Math.exp(-v));

export class ReferenceDecoder {
  private readonly layers: LayerWeights[] = [];
  readonly finalNorm: Float32Array;

  constructor(weights: SafetensorsFile, prefix: string, readonly dims: TransformerDims) {
    for (let i = 0; i < dims.numLayers; i++) {
      const p = `${prefix}.layers.${i}`;
      const r = (n: string) => weights.readFloat32(`${p}.${n}.weight`);
      this.layers.push({
        inputNorm: r('input_layernorm'), q: r('self_attn.q_proj'), k: r('self_attn.k_proj'), v: r('self_attn.v_proj'), o: r('self_attn.o_proj'),
        qNorm: r('self_attn.q_norm'), kNorm: r('self_attn.k_norm'), postNorm: r('post_attention_layernorm'),
        gate: r('mlp.gate_proj'), up: r('mlp.up_proj'), down: r('mlp.down_proj'),
      });
    }
    this.finalNorm = weights.readFloat32(`${prefix}.norm.weight`);
  }

  newCache(): ReferenceKvCache {
    return { keys: this.layers.map(() => []), values: this.layers.map(() => []) };
  }

  /** Rotate-half RoPE on one head vector in place. */
  private rope(x: Float32Array, offset: number, position: number): void {
    const d = this.dims.headDim;
    const half = d / 2;
    for (let i = 0; i < half; i++) {
      const invFreq = Math.fround(1 / this.dims.ropeTheta ** ((2 * i) / d));
      rotateHalfPair(x, offset + i, half, Math.fround(position * invFreq));
    }
  }

  private normHeads(x: Float32Array, numHeads: number, weight: Float32Array): Float32Array {
    const d = this.dims.headDim;
    const out = new Float32Array(x.length);
    for (let h = 0; h < numHeads; h++) out.set(rmsNormVec(x.subarray(h * d, (h + 1) * d), weight, this.dims.rmsNormEps), h * d);
    return out;
  }

  /** Runs new rows (positions given) through every layer, appending to the cache; returns pre-final-norm rows. */
  forward(rows: Float32Array[], positions: number[], cache: ReferenceKvCache): Float32Array[] {
    const d = this.dims;
    let xs: Float32Array[] = rows.map((r) => Float32Array.from(r));
    this.layers.forEach((w, layer) => {
      const outRows: Float32Array[] = [];
      for (let s = 0; s < xs.length; s++) {
        const n = rmsNormVec(xs[s], w.inputNorm, d.rmsNormEps);
        const q = this.normHeads(matVec(w.q, n, d.numHeads * d.headDim), d.numHeads, w.qNorm);
        const k = this.normHeads(matVec(w.k, n, d.numKvHeads * d.headDim), d.numKvHeads, w.kNorm);
        const v = matVec(w.v, n, d.numKvHeads * d.headDim);
        for (let h = 0; h < d.numHeads; h++) this.rope(q, h * d.headDim, positions[s]);
        for (let h = 0; h < d.numKvHeads; h++) this.rope(k, h * d.headDim, positions[s]);
        cache.keys[layer].push(k);
        cache.values[layer].push(v);
        outRows.push(this.attendAndMlp(w, xs[s], q, cache, layer));
      }
      xs = outRows;
    });
    return xs;
  }

  private attendAndMlp(w: LayerWeights, x: Float32Array, q: Float32Array, cache: ReferenceKvCache, layer: number): Float32Array {
    const d = this.dims;
    const keys = cache.keys[layer];
    const values = cache.values[layer];
    const group = d.numHeads / d.numKvHeads;
    const context = new Float32Array(d.numHeads * d.headDim);
    for (let h = 0; h < d.numHeads; h++) {
      const kvBase = Math.floor(h / group) * d.headDim;
      const scores = keys.map((k) => {
        let dot = 0;
        for (let i = 0; i < d.headDim; i++) dot += q[h * d.headDim + i] * k[kvBase + i];
        return dot / Math.sqrt(d.headDim);
      });
      const max = Math.max(...scores);
      const exps = scores.map((s) => Math.exp(s - max));
      const sum = exps.reduce((a, b) => a + b, 0);
      for (let t = 0; t < keys.length; t++) {
        const p = exps[t] / sum;
        for (let i = 0; i < d.headDim; i++) context[h * d.headDim + i] += p * values[t][kvBase + i];
      }
    }
    const attnOut = matVec(w.o, context, d.hiddenSize);
    const h1 = x.map((v, i) => v + attnOut[i]);
    const n2 = rmsNormVec(h1, w.postNorm, d.rmsNormEps);
    const gate = matVec(w.gate, n2, d.intermediateSize);
    const up = matVec(w.up, n2, d.intermediateSize);
    const act = gate.map((g, i) => silu(g) * up[i]);
    const mlp = matVec(w.down, act, d.hiddenSize);
    return h1.map((v, i) => v + mlp[i]);
  }
}
