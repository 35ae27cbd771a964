/**
 * Slow, obviously correct building blocks for the reference codec (and the LayerNorm and RoPE the
 * reference speech encoder and decoder share): plain loops, one batch row at a time, accumulating in
 * float64. Channel-first signals are [C, T]; token rows are [T, C]. Causal everywhere: convs pad on
 * the left only, transposed convs drop the right tail.
 */

/** A channel-first signal [numChannels, numSteps]. */
export interface Signal {
  data: Float32Array;
  numChannels: number;
  numSteps: number;
}

/** y[o,t] = b[o] + Σ_{i,k} w[o,i,k] · x[g·Cin/G + i, t − (K−1−k)·dilation], zero before t = 0; w is [Cout, Cin/G, K]. */
export function causalConv1d(x: Signal, weight: Float32Array, bias: Float32Array, numOut: number, kernelSize: number, dilation = 1, groups = 1): Signal {
  const inPerGroup = x.numChannels / groups;
  const outPerGroup = numOut / groups;
  const T = x.numSteps;
  const y = new Float32Array(numOut * T);
  for (let o = 0; o < numOut; o++) {
    const g = Math.floor(o / outPerGroup);
    for (let t = 0; t < T; t++) {
      let acc = bias[o];
      for (let i = 0; i < inPerGroup; i++) {
        const xRow = (g * inPerGroup + i) * T;
        const wRow = (o * inPerGroup + i) * kernelSize;
        for (let k = 0; k < kernelSize; k++) {
          const src = t - (kernelSize - 1 - k) * dilation;
          if (src >= 0) acc += weight[wRow + k] * x.data[xRow + src];
        }
      }
      y[o * T + t] = acc;
    }
  }
  return { data: y, numChannels: numOut, numSteps: T };
}

/**
 * ConvTranspose1d with w [Cin, Cout, K]: full[o, l·s + k] += w[i,o,k] · x[i,l]; keeps the first L·s
 * outputs (the right tail of K − s samples is dropped), so output m depends on inputs ≤ m / s.
 */
export function causalConvTranspose1d(x: Signal, weight: Float32Array, bias: Float32Array, numOut: number, kernelSize: number, stride: number): Signal {
  const L = x.numSteps;
  const M = L * stride;
  const acc = new Float64Array(numOut * M);
  for (let o = 0; o < numOut; o++) acc.fill(bias[o], o * M, (o + 1) * M);
  for (let i = 0; i < x.numChannels; i++) {
    for (let o = 0; o < numOut; o++) {
      const wRow = (i * numOut + o) * kernelSize;
      for (let l = 0; l < L; l++) {
        const v = x.data[i * L + l];
        for (let k = 0; k < kernelSize; k++) {
          const m = l * stride + k;
          if (m < M) acc[o * M + m] += weight[wRow + k] * v;
        }
      }
    }
  }
  return { data: Float32Array.from(acc), numChannels: numOut, numSteps: M };
}

/** SnakeBeta with log-scale parameters: x + sin²(x·e^α) / (e^β + 1e-9), per channel. */
export function snakeBeta(x: Signal, alpha: Float32Array, beta: Float32Array): Signal {
  const y = new Float32Array(x.data.length);
  for (let c = 0; c < x.numChannels; c++) {
    const a = Math.exp(alpha[c]);
    const invB = 1 / (Math.exp(beta[c]) + 1e-9);
    for (let t = 0; t < x.numSteps; t++) {
      const v = x.data[c * x.numSteps + t];
      const s = Math.sin(v * a);
      y[c * x.numSteps + t] = v + invB * s * s;
    }
  }
  return { data: y, numChannels: x.numChannels, numSteps: x.numSteps };
}

export function addSignals(a: Signal, b: Signal): Signal {
  const y = new Float32Array(a.data.length);
  for (let i = 0; i < y.length; i++) y[i] = a.data[i] + b.data[i];
  return { data: y, numChannels: a.numChannels, numSteps: a.numSteps };
}

/** [C, T] ↔ [T, C]. */
export function transposeRows(data: Float32Array, numRows: number, numCols: number): Float32Array {
  const y = new Float32Array(data.length);
  for (let r = 0; r < numRows; r++) for (let c = 0; c < numCols; c++) y[c * numRows + r] = data[r * numCols + c];
  return y;
}

/** Rows [T, in] → [T, out]: y[t,o] = b[o] + Σ_i w[o,i] · x[t,i]; w is torch's [out, in]. */
export function linearRows(x: Float32Array, numRows: number, numIn: number, weight: Float32Array, numOut: number, bias?: Float32Array): Float32Array {
  const y = new Float32Array(numRows * numOut);
  for (let t = 0; t < numRows; t++) {
    for (let o = 0; o < numOut; o++) {
      let acc = bias ? bias[o] : 0;
      for (let i = 0; i < numIn; i++) acc += weight[o * numIn + i] * x[t * numIn + i];
      y[t * numOut + o] = acc;
    }
  }
  return y;
}

/** weight · x / sqrt(mean(x²) + eps), per row. */
export function rmsNormRows(x: Float32Array, numRows: number, dim: number, weight: Float32Array, eps: number): Float32Array {
  const y = new Float32Array(x.length);
  for (let t = 0; t < numRows; t++) {
    let sumSquares = 0;
    for (let i = 0; i < dim; i++) sumSquares += x[t * dim + i] ** 2;
    const inv = 1 / Math.sqrt(sumSquares / dim + eps);
    for (let i = 0; i < dim; i++) y[t * dim + i] = weight[i] * x[t * dim + i] * inv;
  }
  return y;
}

/** (x − mean) / sqrt(var + eps) · weight + bias, per row (biased variance, as torch); the result has x's precision. */
export function layerNormRows<T extends Float32Array | Float64Array>(x: T, numRows: number, dim: number, weight: Float32Array, bias: Float32Array, eps: number): T {
  const y = (x instanceof Float64Array ? new Float64Array(x.length) : new Float32Array(x.length)) as T;
  for (let t = 0; t < numRows; t++) {
    let mean = 0;
    for (let i = 0; i < dim; i++) mean += x[t * dim + i];
    mean /= dim;
    let variance = 0;
    for (let i = 0; i < dim; i++) variance += (x[t * dim + i] - mean) ** 2;
    const inv = 1 / Math.sqrt(variance / dim + eps);
    for (let i = 0; i < dim; i++) y[t * dim + i] = (x[t * dim + i] - mean) * inv * weight[i] + bias[i];
  }
  return y;
}

/** Rotate-half RoPE on one pair, in place: (a, b) = (x[i], x[i + half]) → (a·cos − b·sin, b·cos + a·sin). */
export function rotateHalfPair(x: Float32Array | Float64Array, i: number, half: number, angle: number): void {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const a = x[i];
  const b = x[i + half];
  x[i] = a * cos - b * sin;
  x[i + half] = b * cos + a * sin;
}

/** Rotate-half RoPE in place on rows [numRows, numHeads·headDim]; angleOf(t, i) is row t's angle for pair i (each model states its own formula). */
export function ropeRows(x: Float32Array | Float64Array, numRows: number, numHeads: number, headDim: number, angleOf: (t: number, i: number) => number): void {
  const half = headDim / 2;
  for (let t = 0; t < numRows; t++) {
    for (let h = 0; h < numHeads; h++) {
      const base = (t * numHeads + h) * headDim;
      for (let i = 0; i < half; i++) rotateHalfPair(x, base + i, half, angleOf(t, i));
    }
  }
}

export function silu(v: number): number {
  return v / (1 + Math.exp(-v));
}

/** Exact GELU, 0.5·x·(1 + erf(x/√2)) (torch nn.GELU default). */
export function gelu(v: number): number {
  return 0.5 * v * (1 + erf(v / Math.SQRT2));
}

/** erf by its Taylor series for |x| < 3 (error < 1e-13); beyond, Abramowitz–Stegun 7.1.26 (error < 1.5e-7 where erf ≈ ±1). */
export function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 3) {
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 80; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  const t = 1 / (1 + 0.3275911 * ax);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return Math.sign(x) * (1 - poly * Math.exp(-ax * ax));
}
