/**
 * Band-limited resampling of mono float PCM with a windowed-sinc interpolator.
 * Used for sample-rate conversion (inserted audio, export rates) and inside pitch shift.
 * The kernel is tabulated once (Kaiser-windowed sinc, 8 zero crossings per side); when
 * reading faster than 1 input sample per output sample the cutoff drops to avoid aliasing.
 */
import { besselI0 } from './bessel-i0';
import { checkRange, checkSampleRate } from './check-args';

const NUM_ZERO_CROSSINGS = 8;
const TABLE_DENSITY = 512; // table entries per zero crossing; nearest-entry lookup
const KAISER_BETA = 7.0;

let kernelTable: Float32Array | null = null;

/** sinc(u) · kaiser(u / NUM_ZERO_CROSSINGS) for u = j / TABLE_DENSITY, j = 0..N·density. */
function getKernelTable(): Float32Array {
  if (kernelTable) return kernelTable;
  const numEntries = NUM_ZERO_CROSSINGS * TABLE_DENSITY + 2;
  const table = new Float32Array(numEntries);
  const i0Beta = besselI0(KAISER_BETA);
  for (let j = 0; j < numEntries; j++) {
    const u = j / TABLE_DENSITY;
    if (u >= NUM_ZERO_CROSSINGS) continue;
    const sinc = u === 0 ? 1 : Math.sin(Math.PI * u) / (Math.PI * u);
    const r = u / NUM_ZERO_CROSSINGS;
    table[j] = (sinc * besselI0(KAISER_BETA * Math.sqrt(1 - r * r))) / i0Beta;
  }
  kernelTable = table;
  return table;
}

/**
 * Reads `pcm` at positions i · step for i = 0..numOutputSamples-1 (step > 1 reads faster:
 * shorter output, higher pitch when played at the same rate). Samples outside the input are 0.
 */
export function resampleByStep(pcm: Float32Array, step: number, numOutputSamples: number): Float32Array {
  checkRange('step', step, 1 / 16, 16, 'resample in two passes for larger ratios');
  const table = getKernelTable();
  const out = new Float32Array(numOutputSamples);
  const cutoff = Math.min(1, 1 / step); // fraction of the input Nyquist that survives
  const halfWidth = NUM_ZERO_CROSSINGS / cutoff; // kernel half-length in input samples
  const tableScale = cutoff * TABLE_DENSITY;
  const numInput = pcm.length;
  for (let i = 0; i < numOutputSamples; i++) {
    const pos = i * step;
    const first = Math.max(0, Math.ceil(pos - halfWidth));
    const last = Math.min(numInput - 1, Math.floor(pos + halfWidth));
    let acc = 0;
    for (let k = first; k <= last; k++) {
      const d = pos - k;
      const j = Math.round((d < 0 ? -d : d) * tableScale);
      acc += pcm[k] * table[j];
    }
    out[i] = acc * cutoff;
  }
  return out;
}

/** Converts between sample rates; the output has round(n · toHz / fromHz) samples. */
export function resample(pcm: Float32Array, fromSampleRateHz: number, toSampleRateHz: number): Float32Array {
  checkSampleRate(fromSampleRateHz, 'fromSampleRateHz');
  checkSampleRate(toSampleRateHz, 'toSampleRateHz');
  if (fromSampleRateHz === toSampleRateHz) return pcm.slice();
  const numOutput = Math.round((pcm.length * toSampleRateHz) / fromSampleRateHz);
  return resampleByStep(pcm, fromSampleRateHz / toSampleRateHz, numOutput);
}
