/**
 * K-weighting filter of ITU-R BS.1770-4 designed for any sample rate.
 * The standard publishes only 48 kHz biquads. Both are second-order sections of the form
 * a prewarped bilinear transform produces, so the analog prototypes (corner frequency f0, Q,
 * and the shelf's high/band gains) are recovered exactly from the published 48 kHz numbers
 * and then transformed again at the requested rate. At 48 kHz this reproduces the standard.
 */
import { checkSampleRate } from './check-args';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** BS.1770-4 Table 1 (stage 1, high shelf, "pre-filter") at 48 kHz. */
export const BS1770_SHELF_48K: Biquad = { b0: 1.53512485958697, b1: -2.69169618940638, b2: 1.19839281085285, a1: -1.69065929318241, a2: 0.73248077421585 };
/** BS.1770-4 Table 2 (stage 2, RLB high-pass) at 48 kHz. */
export const BS1770_HIGHPASS_48K: Biquad = { b0: 1, b1: -2, b2: 1, a1: -1.99004745483398, a2: 0.99007225036621 };

const REFERENCE_RATE_HZ = 48000;

/**
 * Analog second-order section H(s) = (gHigh·s² + gBand·(w0/Q)·s + gLow·w0²) / (s² + (w0/Q)·s + w0²).
 * The prewarped bilinear transform with K = tan(pi·f0/fs) gives, with D = 1 + K/Q + K²:
 *   b0 = (gHigh + gBand·K/Q + gLow·K²)/D, b1 = 2(gLow·K² − gHigh)/D, b2 = (gHigh − gBand·K/Q + gLow·K²)/D,
 *   a1 = 2(K² − 1)/D, a2 = (1 − K/Q + K²)/D.
 */
interface AnalogSection {
  f0Hz: number;
  q: number;
  gHigh: number;
  gBand: number;
  gLow: number;
}

/** Inverts the transform above: 1+a1+a2 = 4K²/D, 1−a1+a2 = 4/D, 1−a2 = 2(K/Q)/D. */
function analogFromDigital(c: Biquad, sampleRateHz: number): AnalogSection {
  const sumPlus = 1 + c.a1 + c.a2;
  const sumMinus = 1 - c.a1 + c.a2;
  const k = Math.sqrt(sumPlus / sumMinus);
  const d = 4 / sumMinus;
  const kOverQ = ((1 - c.a2) * d) / 2;
  const bPlus = c.b0 + c.b1 + c.b2; // = 4·gLow·K²/D
  const bMinus = c.b0 - c.b1 + c.b2; // = 4·gHigh/D
  const bDiff = c.b0 - c.b2; // = 2·gBand·(K/Q)/D
  return {
    f0Hz: (Math.atan(k) * sampleRateHz) / Math.PI,
    q: k / kOverQ,
    gHigh: (bMinus * d) / 4,
    gBand: (bDiff * d) / (2 * kOverQ),
    gLow: (bPlus * d) / (4 * k * k),
  };
}

function digitalFromAnalog(s: AnalogSection, sampleRateHz: number): Biquad {
  const k = Math.tan((Math.PI * s.f0Hz) / sampleRateHz);
  const kq = k / s.q;
  const d = 1 + kq + k * k;
  return {
    b0: (s.gHigh + s.gBand * kq + s.gLow * k * k) / d,
    b1: (2 * (s.gLow * k * k - s.gHigh)) / d,
    b2: (s.gHigh - s.gBand * kq + s.gLow * k * k) / d,
    a1: (2 * (k * k - 1)) / d,
    a2: (1 - kq + k * k) / d,
  };
}

const SHELF_PROTOTYPE = analogFromDigital(BS1770_SHELF_48K, REFERENCE_RATE_HZ);
const HIGHPASS_PROTOTYPE = analogFromDigital(BS1770_HIGHPASS_48K, REFERENCE_RATE_HZ);

/** The two K-weighting stages [shelf, high-pass] for sampleRateHz. */
export function designKWeighting(sampleRateHz: number): [Biquad, Biquad] {
  checkSampleRate(sampleRateHz);
  return [digitalFromAnalog(SHELF_PROTOTYPE, sampleRateHz), digitalFromAnalog(HIGHPASS_PROTOTYPE, sampleRateHz)];
}

/** The recovered analog prototypes, for tests and documentation. */
export function kWeightingPrototypes(): { shelf: Readonly<AnalogSection>; highpass: Readonly<AnalogSection> } {
  return { shelf: SHELF_PROTOTYPE, highpass: HIGHPASS_PROTOTYPE };
}

/** Runs both stages (transposed direct form II, float64 state) and returns the squared output. */
export function kWeightedSquares(pcm: Float32Array, sampleRateHz: number): Float64Array {
  const [s1, s2] = designKWeighting(sampleRateHz);
  const out = new Float64Array(pcm.length);
  let z1a = 0, z2a = 0, z1b = 0, z2b = 0;
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i];
    const y1 = s1.b0 * x + z1a;
    z1a = s1.b1 * x - s1.a1 * y1 + z2a;
    z2a = s1.b2 * x - s1.a2 * y1;
    const y2 = s2.b0 * y1 + z1b;
    z1b = s2.b1 * y1 - s2.a1 * y2 + z2b;
    z2b = s2.b2 * y1 - s2.a2 * y2;
    out[i] = y2 * y2;
  }
  return out;
}
