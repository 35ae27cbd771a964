/**
 * Exact (unwindowed, untruncated) sinc interpolation of a clip at chosen blocks, for true-peak.ts.
 * Samples within NEAR of a point are summed directly; the rest add (sin πφ / π)·(−1)^i·Σ y[k] / (t − k)
 * with y[k] = (−1)^k x[k]. Near-Nyquist content makes y slow, so that sum decays only like a logarithm:
 * no windowed filter of practical length reaches it (±256 taps still read an abrupt 0.49·fs tone 0.27 dB
 * low). 1/d is approximated by a sum of exponentials, Σ_j w_j e^(−s_j d) for d ≥ NEAR, which turns each
 * side into J first-order recursions: O(J) per sample whatever the length. Pure arithmetic.
 */

/** Samples either side of a point that are summed directly; farther ones go through the exponential sum. */
const NEAR = 8;
/**
 * Blocks per span of the backward recursion's checkpoints (524,288 samples in blocks of 16: 22 s at
 * 24 kHz). At most one span's states are held (8 MB at 31 terms); a clip of one span needs no checkpoint pass.
 */
const SPAN_BLOCKS = 32_768;

/** 1/d ≈ Σ_j weights[j]·exp(−rates[j]·d) for nearHalfWidth ≤ d ≤ maxDistance. */
export interface ExponentialSum {
  rates: Float64Array;
  weights: Float64Array;
}

/** Trapezoid step of the quadrature below: within 2.9e-4 of 1/d (6.2e-5 at 0.8 with 30 % more terms, 6.9e-4 at 1). */
const STEP = 0.9;
/** e^(−s·d) under this is dropped: the largest rate needed at the smallest distance. */
const MAX_EXPONENT = 25;
/** Relative weight of the tail below the smallest rate, at the largest distance. */
const TAIL = 1e-4;

/**
 * 1/d = ∫ e^(u − e^u·d) du over all u (s = e^u in ∫₀^∞ e^(−s·d) ds); the trapezoid rule in u
 * converges geometrically for this smooth, fast-decaying integrand. 31 terms for d from 8 to 10⁷,
 * 34 to 1.7·10⁸ (an hour at 48 kHz).
 */
export function exponentialSumForInverse(nearHalfWidth: number, maxDistance: number): ExponentialSum {
  const uMin = Math.log(TAIL / maxDistance);
  const uMax = Math.log(MAX_EXPONENT / nearHalfWidth);
  const numTerms = Math.ceil((uMax - uMin) / STEP) + 1;
  const rates = new Float64Array(numTerms);
  const weights = new Float64Array(numTerms);
  for (let j = 0; j < numTerms; j++) {
    const u = uMin + j * STEP;
    rates[j] = Math.exp(u);
    weights[j] = STEP * Math.exp(u);
  }
  return { rates, weights };
}

/**
 * Exact sinc interpolation of a clip at chosen blocks of `blockSize` samples: the value at i + φ is x[i]
 * for φ = 0, else Σ over −NEAR < k − i ≤ NEAR of x[k]·sinc(i + φ − k) plus the far field (the
 * exponential sum above). The far field is smooth in φ (every term is at least NEAR away), so it is
 * taken at φ = 0, ½, 1 and the points between are read off the parabola through them (error below
 * 1e-5 of the peak). Memory stays bounded whatever the length: the backward recursion keeps a
 * checkpoint per SPAN_BLOCKS blocks and is rerun inside a span when its blocks are read.
 */
export class ExactSinc {
  private readonly near: Float64Array[]; // near[q][j]: sinc(NEAR − 1 − j + q/P), the weight of x[i − NEAR + 1 + j]
  private readonly left: Float64Array[]; // left[h][j]: w_j·e^(−s_j·h/2), h = 0, 1, 2
  private readonly right: Float64Array[]; // right[h][j]: −w_j·e^(s_j·h/2)
  private readonly decay: Float64Array; // e^(−s_j)
  private readonly enterLeft: Float64Array; // e^(−s_j·NEAR): weight of y[i − NEAR] as it joins A(i)
  private readonly enterRight: Float64Array; // e^(−s_j·(NEAR + 1)): weight of y[i + NEAR + 1] as it joins B(i)
  private readonly numTerms: number;
  // The far field at φ = q/P from its values at 0, ½, 1 (a parabola), with the sin(πφ)/π factor folded in.
  private readonly parabola0: Float64Array;
  private readonly parabolaHalf: Float64Array;
  private readonly parabola1: Float64Array;
  // Scratch for blockPeak.
  private readonly far: Float64Array;
  private readonly points: Float64Array;
  private readonly a: Float64Array;
  private readonly b: Float64Array;

  constructor(
    private readonly pcm: Float32Array,
    private readonly numPhases: number,
    private readonly blockSize: number,
  ) {
    const { rates, weights } = exponentialSumForInverse(NEAR, pcm.length + NEAR + 1);
    this.numTerms = rates.length;
    this.near = [];
    for (let q = 0; q < numPhases; q++) {
      const near = new Float64Array(2 * NEAR);
      for (let j = 0; j < 2 * NEAR; j++) {
        const d = NEAR - 1 - j + q / numPhases;
        near[j] = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
      }
      this.near.push(near);
    }
    this.left = [0, 1, 2].map((h) => weights.map((w, j) => w * Math.exp((-rates[j] * h) / 2)));
    this.right = [0, 1, 2].map((h) => weights.map((w, j) => -w * Math.exp((rates[j] * h) / 2)));
    this.decay = rates.map((r) => Math.exp(-r));
    this.enterLeft = rates.map((r) => Math.exp(-r * NEAR));
    this.enterRight = rates.map((r) => Math.exp(-r * (NEAR + 1)));
    const sinOverPi = (q: number) => Math.sin((Math.PI * q) / numPhases) / Math.PI;
    this.parabola0 = Float64Array.from({ length: numPhases }, (_, q) => sinOverPi(q) * (2 * (q / numPhases) - 1) * (q / numPhases - 1));
    this.parabolaHalf = Float64Array.from({ length: numPhases }, (_, q) => sinOverPi(q) * 4 * (q / numPhases) * (1 - q / numPhases));
    this.parabola1 = Float64Array.from({ length: numPhases }, (_, q) => sinOverPi(q) * (q / numPhases) * (2 * (q / numPhases) - 1));
    this.far = new Float64Array((blockSize + 2) * 3);
    this.points = new Float64Array((blockSize + 2) * numPhases);
    this.a = new Float64Array(this.numTerms);
    this.b = new Float64Array(this.numTerms);
  }

  /**
   * The largest refined magnitude over the `candidates` blocks (ascending) that `mustRead(block, best)`
   * still asks for, read in order; `best` starts at the given value (the sample peak).
   * A_j(i) = Σ_{k ≤ i − NEAR} y[k]·e^(−s_j(i − k)) runs forward over the clip once; B_j(i) =
   * Σ_{k ≥ i + NEAR + 1} y[k]·e^(−s_j(k − i)) runs backward once for its checkpoints, then again inside each span read.
   */
  peakOver(candidates: Int32Array, mustRead: (block: number, best: number) => boolean, best: number): number {
    if (candidates.length === 0) return best;
    const { pcm, blockSize, numTerms: J } = this;
    const spanSamples = SPAN_BLOCKS * blockSize;
    const numSpans = Math.ceil(pcm.length / spanSamples);
    const spanEnd = (s: number) => Math.min(pcm.length, (s + 1) * spanSamples);
    // Checkpoints: B at each span's end, from B(length) = 0 down.
    const checkpoints = new Float64Array(numSpans * J);
    const b = new Float64Array(J);
    for (let s = numSpans - 1, i = pcm.length; s >= 0; s--) {
      for (; i > spanEnd(s); i--) this.stepB(b, i - 1);
      checkpoints.set(b, s * J);
    }
    const a = new Float64Array(J); // A(i) with i = aAt; A(−1) is empty
    let aAt = -1;
    let spanStates = new Float64Array(0); // B at the end of each candidate block of the span being read
    for (let v = 0; v < candidates.length; ) {
      const span = Math.floor((candidates[v] * blockSize) / spanSamples);
      let last = v;
      while (last + 1 < candidates.length && Math.floor((candidates[last + 1] * blockSize) / spanSamples) === span) last++;
      // B from the span's checkpoint down to the first candidate's end, kept at every candidate's end.
      if (spanStates.length < (last - v + 1) * J) spanStates = new Float64Array((last - v + 1) * J);
      b.set(checkpoints.subarray(span * J, (span + 1) * J));
      let i = spanEnd(span);
      for (let w = last; w >= v; w--) {
        const end = Math.min(pcm.length, (candidates[w] + 1) * blockSize);
        for (; i > end; i--) this.stepB(b, i - 1);
        spanStates.set(b, (w - v) * J);
      }
      for (let w = v; w <= last; w++) {
        const start = candidates[w] * blockSize;
        for (; aAt < start - 1; aAt++) this.stepA(a, aAt + 1);
        if (mustRead(candidates[w], best)) best = Math.max(best, this.blockPeak(start, a, spanStates.subarray((w - v) * J, (w - v + 1) * J)));
      }
      v = last + 1;
    }
    return best;
  }

  /** A(i − 1) → A(i). */
  private stepA(a: Float64Array, i: number): void {
    const k = i - NEAR;
    const y = k < 0 || k >= this.pcm.length ? 0 : k & 1 ? -this.pcm[k] : this.pcm[k]; // y[k] = (−1)^k x[k]
    const { decay, enterLeft } = this;
    if (y === 0) for (let j = 0; j < a.length; j++) a[j] *= decay[j];
    else for (let j = 0; j < a.length; j++) a[j] = decay[j] * a[j] + y * enterLeft[j];
  }

  /** B(i + 1) → B(i). */
  private stepB(b: Float64Array, i: number): void {
    const k = i + NEAR + 1;
    const y = k < 0 || k >= this.pcm.length ? 0 : k & 1 ? -this.pcm[k] : this.pcm[k];
    const { decay, enterRight } = this;
    if (y === 0) for (let j = 0; j < b.length; j++) b[j] *= decay[j];
    else for (let j = 0; j < b.length; j++) b[j] = decay[j] * b[j] + y * enterRight[j];
  }

  /** The largest magnitude over samples start − 1 … end of the block at `start`, crests refined; A(start − 1) and B(end) given. */
  private blockPeak(start: number, aBefore: Float64Array, bAfter: Float64Array): number {
    const { pcm, numPhases, numTerms: J, far, points, a, b } = this;
    const [left0, leftHalf, left1] = this.left;
    const [right0, rightHalf, right1] = this.right;
    const end = Math.min(pcm.length, start + this.blockSize);
    const numSamples = end - start + 2;
    // Far field without its sin(πφ)/π factor at φ = 0, ½, 1 of each sample: B stepped down from B(end), then A up from A(start − 1).
    b.set(bAfter);
    for (let s = numSamples - 1; s >= 0; s--) {
      if (s < numSamples - 1) this.stepB(b, start - 1 + s);
      let acc0 = 0, accHalf = 0, acc1 = 0;
      for (let j = 0; j < J; j++) {
        acc0 += right0[j] * b[j];
        accHalf += rightHalf[j] * b[j];
        acc1 += right1[j] * b[j];
      }
      far[s * 3] = acc0;
      far[s * 3 + 1] = accHalf;
      far[s * 3 + 2] = acc1;
    }
    a.set(aBefore);
    for (let s = 0; s < numSamples; s++) {
      const i = start - 1 + s;
      if (s > 0) this.stepA(a, i);
      let acc0 = far[s * 3], accHalf = far[s * 3 + 1], acc1 = far[s * 3 + 2];
      for (let j = 0; j < J; j++) {
        acc0 += left0[j] * a[j];
        accHalf += leftHalf[j] * a[j];
        acc1 += left1[j] * a[j];
      }
      const sign = i & 1 ? -1 : 1;
      points[s * numPhases] = i >= 0 && i < pcm.length ? pcm[i] : 0;
      const first = Math.max(0, NEAR - 1 - i);
      const last = Math.min(2 * NEAR, pcm.length - (i - NEAR + 1));
      for (let q = 1; q < numPhases; q++) {
        const near = this.near[q];
        let acc = 0;
        for (let j = first; j < last; j++) acc += near[j] * pcm[i - NEAR + 1 + j];
        // The far field's parabola through (0, acc0), (½, accHalf), (1, acc1) at φ = q/P, times sin(πφ)/π.
        points[s * numPhases + q] = acc + sign * (this.parabola0[q] * acc0 + this.parabolaHalf[q] * accHalf + this.parabola1[q] * acc1);
      }
    }
    return refinedMax(points, numSamples * numPhases);
  }
}

/** Largest |points[k]|, k < m, with each interior local maximum replaced by its parabola's vertex. */
function refinedMax(points: Float64Array, m: number): number {
  let best = 0;
  for (let k = 0; k < m; k++) {
    const mid = points[k];
    const b = Math.abs(mid);
    if (b > best) best = b;
    if (k === 0 || k === m - 1) continue;
    const a = Math.sign(mid) * points[k - 1];
    const c = Math.sign(mid) * points[k + 1];
    const curvature = 2 * b - a - c;
    if (b >= a && b >= c && curvature > 0) {
      // Vertex of the parabola through (−1, a), (0, b), (1, c); it lies within ±½ of the middle point.
      const vertex = b + ((c - a) * (c - a)) / (8 * curvature);
      if (vertex > best) best = vertex;
    }
  }
  return best;
}
