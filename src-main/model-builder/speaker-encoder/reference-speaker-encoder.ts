/**
 * The slow reference speaker encoder: log-mel rows [numFrames, melDim] → x-vector [encDim], one clip at
 * a time with plain loops in float64, following Qwen3TTSSpeakerEncoder (modeling_qwen3_tts.py): TDNN →
 * SE-Res2Net blocks → multi-layer aggregation → attentive statistics pooling → 1×1 conv. Every Conv1d
 * pads 'same' with reflection. The golden path the ONNX graph is tested against; never used at run time.
 */
import { StudioError } from '../../../src-shared/errors';
import { SPEAKER_ENCODER_PREFIX, type SpeakerEncoderConfig } from './speaker-encoder-config';

/** Channel-major signal: data[c · length + t]. */
interface Signal {
  numChannels: number;
  length: number;
  data: Float64Array;
}

export type SpeakerEncoderWeights = ReadonlyMap<string, { shape: readonly number[]; data: Float32Array }>;

const STATS_EPS = 1e-12;

function weight(weights: SpeakerEncoderWeights, name: string): { shape: readonly number[]; data: Float32Array } {
  const t = weights.get(`${SPEAKER_ENCODER_PREFIX}.${name}`);
  if (!t) throw new StudioError('model-invalid', `speaker encoder tensor '${SPEAKER_ENCODER_PREFIX}.${name}' is missing`, { tensor: name });
  return t;
}

/** Conv1d, padding 'same' in reflect mode: left ⌊d(k−1)/2⌋, right the rest (torch's split). */
function conv1d(x: Signal, weights: SpeakerEncoderWeights, prefix: string, dilation = 1): Signal {
  const w = weight(weights, `${prefix}.weight`);
  const b = weight(weights, `${prefix}.bias`).data;
  const [numOut, numIn, kernel] = w.shape;
  const left = Math.floor((dilation * (kernel - 1)) / 2);
  if (left >= x.length || dilation * (kernel - 1) - left >= x.length) {
    throw new StudioError('invalid-argument', `the clip gives ${x.length} mel frames, too few for a kernel of ${kernel} at dilation ${dilation}; give a longer clip`, { numFrames: x.length });
  }
  const reflect = (t: number) => (t < 0 ? -t : t >= x.length ? 2 * (x.length - 1) - t : t);
  const out = new Float64Array(numOut * x.length);
  for (let o = 0; o < numOut; o++) {
    for (let t = 0; t < x.length; t++) {
      let sum = b[o];
      for (let i = 0; i < numIn; i++) {
        for (let k = 0; k < kernel; k++) sum += w.data[(o * numIn + i) * kernel + k] * x.data[i * x.length + reflect(t - left + k * dilation)];
      }
      out[o * x.length + t] = sum;
    }
  }
  return { numChannels: numOut, length: x.length, data: out };
}

const relu = (x: Signal): Signal => ({ ...x, data: x.data.map((v) => Math.max(0, v)) });
const tdnn = (x: Signal, w: SpeakerEncoderWeights, prefix: string, dilation = 1) => relu(conv1d(x, w, `${prefix}.conv`, dilation));

function channels(x: Signal, first: number, count: number): Signal {
  return { numChannels: count, length: x.length, data: x.data.slice(first * x.length, (first + count) * x.length) };
}

function concatChannels(parts: Signal[]): Signal {
  const data = new Float64Array(parts.reduce((n, p) => n + p.data.length, 0));
  let offset = 0;
  for (const p of parts) {
    data.set(p.data, offset);
    offset += p.data.length;
  }
  return { numChannels: parts.reduce((n, p) => n + p.numChannels, 0), length: parts[0].length, data };
}

function add(a: Signal, b: Signal): Signal {
  return { ...a, data: a.data.map((v, i) => v + b.data[i]) };
}

function res2net(x: Signal, w: SpeakerEncoderWeights, prefix: string, scale: number, dilation: number): Signal {
  const part = x.numChannels / scale;
  const outputs: Signal[] = [];
  for (let i = 0; i < scale; i++) {
    const chunk = channels(x, i * part, part);
    if (i === 0) outputs.push(chunk);
    else outputs.push(tdnn(i === 1 ? chunk : add(chunk, outputs[i - 1]), w, `${prefix}.blocks.${i - 1}`, dilation));
  }
  return concatChannels(outputs);
}

function squeezeExcite(x: Signal, w: SpeakerEncoderWeights, prefix: string): Signal {
  const mean: Signal = { numChannels: x.numChannels, length: 1, data: new Float64Array(x.numChannels) };
  for (let c = 0; c < x.numChannels; c++) {
    let s = 0;
    for (let t = 0; t < x.length; t++) s += x.data[c * x.length + t];
    mean.data[c] = s / x.length;
  }
  const gate = conv1d(relu(conv1d(mean, w, `${prefix}.conv1`)), w, `${prefix}.conv2`).data.map((v) => 1 / (1 + Math.exp(-v)));
  return { ...x, data: x.data.map((v, i) => v * gate[Math.floor(i / x.length)]) };
}

/** Weighted mean and std per channel: weights [C, T] summing to 1 over t. */
function statistics(x: Signal, weights: (c: number, t: number) => number): { mean: Float64Array; std: Float64Array } {
  const mean = new Float64Array(x.numChannels);
  const std = new Float64Array(x.numChannels);
  for (let c = 0; c < x.numChannels; c++) {
    let m = 0;
    for (let t = 0; t < x.length; t++) m += weights(c, t) * x.data[c * x.length + t];
    let v = 0;
    for (let t = 0; t < x.length; t++) v += weights(c, t) * (x.data[c * x.length + t] - m) ** 2;
    mean[c] = m;
    std[c] = Math.sqrt(Math.max(v, STATS_EPS));
  }
  return { mean, std };
}

function attentiveStatisticsPooling(x: Signal, w: SpeakerEncoderWeights): Float64Array {
  const T = x.length;
  const global = statistics(x, () => 1 / T);
  const tile = (v: Float64Array): Signal => ({ numChannels: v.length, length: T, data: Float64Array.from({ length: v.length * T }, (_, i) => v[Math.floor(i / T)]) });
  const attention = conv1d(tanh(tdnn(concatChannels([x, tile(global.mean), tile(global.std)]), w, 'asp.tdnn')), w, 'asp.conv');
  // softmax over time per channel
  for (let c = 0; c < attention.numChannels; c++) {
    const row = attention.data.subarray(c * T, (c + 1) * T);
    const max = Math.max(...row);
    let sum = 0;
    for (let t = 0; t < T; t++) sum += row[t] = Math.exp(row[t] - max);
    for (let t = 0; t < T; t++) row[t] /= sum;
  }
  const pooled = statistics(x, (c, t) => attention.data[c * T + t]);
  const out = new Float64Array(2 * x.numChannels);
  out.set(pooled.mean, 0);
  out.set(pooled.std, x.numChannels);
  return out;
}

function tanh(x: Signal): Signal {
  return { ...x, data: x.data.map(Math.tanh) };
}

/** x-vector of one clip: mels [numFrames, melDim] row-major (time-major, as the official forward takes them). */
export function referenceSpeakerEncode(mels: Float32Array, numFrames: number, config: SpeakerEncoderConfig, weights: SpeakerEncoderWeights): Float32Array {
  if (mels.length !== numFrames * config.melDim) {
    throw new StudioError('invalid-argument', `mels hold ${mels.length} values, expected ${numFrames} × ${config.melDim}`, { numFrames });
  }
  let x: Signal = { numChannels: config.melDim, length: numFrames, data: new Float64Array(config.melDim * numFrames) };
  for (let t = 0; t < numFrames; t++) for (let m = 0; m < config.melDim; m++) x.data[m * numFrames + t] = mels[t * config.melDim + m];
  const n = config.channels.length;
  x = tdnn(x, weights, 'blocks.0', config.dilations[0]);
  const blockOutputs: Signal[] = [];
  for (let i = 1; i < n - 1; i++) {
    const p = `blocks.${i}`;
    let h = tdnn(x, weights, `${p}.tdnn1`);
    h = res2net(h, weights, `${p}.res2net_block`, config.res2netScale, config.dilations[i]);
    h = tdnn(h, weights, `${p}.tdnn2`);
    h = squeezeExcite(h, weights, `${p}.se_block`);
    x = add(h, x);
    blockOutputs.push(x);
  }
  const aggregated = tdnn(concatChannels(blockOutputs), weights, 'mfa', config.dilations[n - 1]);
  const pooled = attentiveStatisticsPooling(aggregated, weights);
  const embedding = conv1d({ numChannels: pooled.length, length: 1, data: pooled }, weights, 'fc');
  return Float32Array.from(embedding.data);
}
