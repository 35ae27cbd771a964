/**
 * Compiles the speaker encoder (ECAPA-TDNN) to one ONNX graph: log-mel rows [B, T, melDim] → x-vectors
 * [B, encDim], the ops of reference-speaker-encoder.ts (reflect-padded Conv1d, Res2Net, squeeze-excite,
 * attentive statistics pooling). fp32 only: it runs once per cloned voice, not per frame. Rows of a
 * batch share T (the official pooling has no mask); clips of other lengths go in separate calls.
 */
import { GraphBuilder } from '../../model-format/onnx/graph-builder';
import { SPEAKER_ENCODER_INPUT, SPEAKER_ENCODER_OUTPUT } from '../../model-format/encoder-io';
import { SPEAKER_ENCODER_PREFIX, type SpeakerEncoderConfig } from './speaker-encoder-config';
import type { SpeakerEncoderWeights } from './reference-speaker-encoder';

export const SPEAKER_ENCODER_FILE = 'speaker_encoder.onnx';

const STATS_EPS = 1e-12;

export function buildSpeakerEncoderGraph(config: SpeakerEncoderConfig, weights: SpeakerEncoderWeights): Uint8Array {
  const g = new GraphBuilder({ name: 'speaker_encoder' });
  const init = (name: string) => {
    const t = weights.get(`${SPEAKER_ENCODER_PREFIX}.${name}`);
    if (!t) throw new Error(`speaker encoder tensor '${name}' is missing`);
    return g.initializer(name, t.data, t.shape);
  };
  const conv = (x: string, prefix: string, kernel: number, dilation = 1): string => {
    const total = dilation * (kernel - 1);
    const left = Math.floor(total / 2);
    // [B, C, T]: pad only the time axis, by reflection
    const padded = total > 0 ? g.op('Pad', [x, g.constInt64([0, 0, left, 0, 0, total - left])], { mode: 'reflect' }) : x;
    return g.op('Conv', [padded, init(`${prefix}.weight`), init(`${prefix}.bias`)], { dilations: [dilation], kernel_shape: [kernel] });
  };
  const relu = (x: string) => g.op('Relu', [x]);
  const tdnn = (x: string, prefix: string, kernel: number, dilation = 1) => relu(conv(x, `${prefix}.conv`, kernel, dilation));
  const meanOverTime = (x: string) => g.op('ReduceMean', [x], { axes: [2], keepdims: 1 });
  const sumOverTime = (x: string) => g.op('ReduceSum', [x, g.constInt64([2])], { keepdims: 1 });
  const stdOf = (meanSquare: string) => g.op('Sqrt', [g.op('Max', [meanSquare, g.constFloat(STATS_EPS)])]);

  const n = config.channels.length;
  const mels = g.input(SPEAKER_ENCODER_INPUT, 'float32', ['batch', 'num_frames', config.melDim]);
  let x = tdnn(g.transpose(mels, [0, 2, 1]), 'blocks.0', config.kernelSizes[0], config.dilations[0]); // [B, C0, T]
  const blockOutputs: string[] = [];
  for (let i = 1; i < n - 1; i++) {
    const p = `blocks.${i}`;
    const part = config.channels[i] / config.res2netScale;
    const h = tdnn(x, `${p}.tdnn1`, 1);
    const chunks = g.node('Split', [h, g.constInt64(Array(config.res2netScale).fill(part))], config.res2netScale, { axis: 1 });
    const outs: string[] = [chunks[0]];
    for (let j = 1; j < config.res2netScale; j++) {
      const input = j === 1 ? chunks[1] : g.add(chunks[j], outs[j - 1]);
      outs.push(tdnn(input, `${p}.res2net_block.blocks.${j - 1}`, config.kernelSizes[i], config.dilations[i]));
    }
    const h2 = tdnn(g.concat(outs, 1), `${p}.tdnn2`, 1);
    const gate = g.sigmoid(conv(relu(conv(meanOverTime(h2), `${p}.se_block.conv1`, 1)), `${p}.se_block.conv2`, 1));
    x = g.add(g.mul(h2, gate), x);
    blockOutputs.push(x);
  }
  const aggregated = tdnn(g.concat(blockOutputs, 1), 'mfa', config.kernelSizes[n - 1], config.dilations[n - 1]); // [B, C, T]

  // attentive statistics pooling: global mean/std tiled over time as context, softmax attention over time
  const globalMean = meanOverTime(aggregated);
  const centred = g.sub(aggregated, globalMean);
  const globalStd = stdOf(meanOverTime(g.mul(centred, centred)));
  const full = g.shape(aggregated);
  const context = g.concat([aggregated, g.op('Expand', [globalMean, full]), g.op('Expand', [globalStd, full])], 1);
  const scores = conv(g.op('Tanh', [tdnn(context, 'asp.tdnn', 1)]), 'asp.conv', 1);
  const attention = g.softmax(scores, 2);
  const mean = sumOverTime(g.mul(attention, aggregated));
  const dev = g.sub(aggregated, mean);
  const std = stdOf(sumOverTime(g.mul(attention, g.mul(dev, dev))));
  const embedding = conv(g.concat([mean, std], 1), 'fc', 1); // [B, encDim, 1]
  g.output(g.squeeze(embedding, [2]), 'float32', ['batch', config.encDim], SPEAKER_ENCODER_OUTPUT);
  return g.toBytes();
}
