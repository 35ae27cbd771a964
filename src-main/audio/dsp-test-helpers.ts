/**
 * Test-only helpers for the DSP tests: synthetic signals, a YIN pitch estimate, a slow, independent
 * BS.1770 meter (direct form I with the standard's published 48 kHz coefficients, explicit per-block
 * loops) and a slow 32× true-peak reference. Imported by *.test.ts only; nothing in the app uses it.
 */

/** A voiced-speech-like tone: harmonics 1..numHarmonics with 1/h amplitudes, peak about `amplitude`. */
export function harmonicTone(f0Hz: number, sampleRateHz: number, durationS: number, amplitude = 0.3, numHarmonics = 6): Float32Array {
  const x = new Float32Array(Math.round(sampleRateHz * durationS));
  let norm = 0;
  for (let h = 1; h <= numHarmonics; h++) norm += 1 / h;
  for (let i = 0; i < x.length; i++) {
    let v = 0;
    for (let h = 1; h <= numHarmonics && f0Hz * h < sampleRateHz / 2; h++) v += Math.sin((2 * Math.PI * f0Hz * h * i) / sampleRateHz) / h;
    x[i] = (amplitude * v) / norm;
  }
  return x;
}

export function sine(freqHz: number, sampleRateHz: number, durationS: number, amplitude: number, phase = 0): Float32Array {
  const x = new Float32Array(Math.round(sampleRateHz * durationS));
  for (let i = 0; i < x.length; i++) x[i] = amplitude * Math.sin((2 * Math.PI * freqHz * i) / sampleRateHz + phase);
  return x;
}

/** Seeded xorshift32 in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/** YIN fundamental-frequency estimate over the middle `windowS` of the signal. */
export function estimatePitchHz(x: Float32Array, sampleRateHz: number, minHz = 60, maxHz = 800, windowS = 0.1): number {
  const n = Math.round(windowS * sampleRateHz);
  const maxLag = Math.ceil(sampleRateHz / minHz);
  const start = Math.max(0, Math.floor(x.length / 2 - (n + maxLag) / 2));
  const d = new Float64Array(maxLag + 2);
  for (let lag = 1; lag <= maxLag + 1; lag++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const diff = x[start + i] - x[start + i + lag];
      sum += diff * diff;
    }
    d[lag] = sum;
  }
  const cmnd = new Float64Array(maxLag + 2);
  let running = 0;
  for (let lag = 1; lag <= maxLag + 1; lag++) {
    running += d[lag];
    cmnd[lag] = (d[lag] * lag) / running;
  }
  const minLag = Math.floor(sampleRateHz / maxHz);
  let lag = minLag;
  for (; lag < maxLag; lag++) if (cmnd[lag] < 0.1 && cmnd[lag] <= cmnd[lag + 1]) break;
  const a = cmnd[lag - 1], b = cmnd[lag], c = cmnd[lag + 1];
  const shift = (a - c) / (2 * (a - 2 * b + c));
  return sampleRateHz / (lag + (Number.isFinite(shift) ? shift : 0));
}

/** Slow reference BS.1770-4 integrated loudness at 48 kHz only. */
export function referenceLoudness48k(x: Float32Array): number {
  const stages = [
    { b: [1.53512485958697, -2.69169618940638, 1.19839281085285], a: [1, -1.69065929318241, 0.73248077421585] },
    { b: [1, -2, 1], a: [1, -1.99004745483398, 0.99007225036621] },
  ];
  let y: number[] = Array.from(x);
  for (const { b, a } of stages) {
    const out = new Array<number>(y.length).fill(0);
    for (let n = 0; n < y.length; n++) {
      const x0 = y[n], x1 = n > 0 ? y[n - 1] : 0, x2 = n > 1 ? y[n - 2] : 0;
      const y1 = n > 0 ? out[n - 1] : 0, y2 = n > 1 ? out[n - 2] : 0;
      out[n] = b[0] * x0 + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2;
    }
    y = out;
  }
  const blockLen = 19200;
  const step = 4800;
  const blocks: number[] = [];
  for (let start = 0; start + blockLen <= y.length; start += step) {
    let sum = 0;
    for (let i = start; i < start + blockLen; i++) sum += y[i] * y[i];
    blocks.push(sum / blockLen);
  }
  const lk = (z: number) => -0.691 + 10 * Math.log10(z);
  const abs = blocks.filter((z) => lk(z) > -70);
  const rel = lk(abs.reduce((s, z) => s + z, 0) / abs.length) - 10;
  const gated = abs.filter((z) => lk(z) > rel);
  return lk(gated.reduce((s, z) => s + z, 0) / gated.length);
}

/**
 * Slow reference true peak: the largest magnitude at `oversampling` points per sample of the
 * signal rebuilt by a long (±128 samples) Hann-windowed sinc; independent of true-peak.ts.
 */
export function referenceTruePeak(x: Float32Array, oversampling = 32, halfWidth = 128): number {
  let best = 0;
  for (let i = 0; i < x.length; i++) {
    for (let p = 0; p < oversampling; p++) {
      const t = i + p / oversampling;
      let acc = 0;
      for (let k = Math.max(0, Math.ceil(t - halfWidth)); k <= Math.min(x.length - 1, Math.floor(t + halfWidth)); k++) {
        const d = t - k;
        acc += x[k] * (d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d)) * (0.5 + 0.5 * Math.cos((Math.PI * d) / halfWidth));
      }
      best = Math.max(best, Math.abs(acc));
    }
  }
  return best;
}

/** Multiplies both ends by a raised-cosine fade of `fadeSamples`, so an abrupt edge adds no overshoot of its own. */
export function fadeEnds(x: Float32Array, fadeSamples: number): Float32Array {
  for (let i = 0; i < fadeSamples; i++) {
    const g = 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeSamples);
    x[i] *= g;
    x[x.length - 1 - i] *= g;
  }
  return x;
}

/**
 * Slow exact true peak: the sinc interpolation of the whole clip (zero outside it, no window, no
 * truncation), Σ_k x[k]·sin(π(t − k))/(π(t − k)), at `gridPerSample` points per sample over samples
 * from … to (default: one sample before the clip to one after). At 64 points a crest at 0.49·fs is
 * missed by at most 0.003 dB.
 */
export function sincTruePeak(x: Float32Array, gridPerSample = 64, from = -1, to = x.length): number {
  let best = 0;
  for (let i = from; i <= to; i++) {
    best = Math.max(best, i >= 0 && i < x.length ? Math.abs(x[i]) : 0);
    for (let p = 1; p < gridPerSample; p++) {
      const frac = p / gridPerSample;
      // sin(π(i + frac − k)) = (−1)^(i − k)·sin(π·frac), so only the 1/(t − k) factor changes with k.
      let acc = 0;
      for (let k = 0; k < x.length; k++) acc += ((i - k) & 1 ? -x[k] : x[k]) / (i + frac - k);
      best = Math.max(best, Math.abs((Math.sin(Math.PI * frac) / Math.PI) * acc));
    }
  }
  return best;
}
