/**
 * How many past frames one output sample of the codec decoder can depend on, from the config.
 * This is the left context a chunked decode needs to be exact (chunked-decode.ts). Pure arithmetic
 * over the causal layers of spec §4.2; every kernel size here is fixed by the official module.
 */
import { RESIDUAL_DILATIONS, type CodecDecoderConfig } from './codec-config';

const PRE_CONV_KERNEL = 3;
const CONV_KERNEL = 7;

/**
 * Upper bound, in whole frames, of the look-back of a sample at frame t: outputs of frame t and later
 * never read frames before t − result. Lookbacks add up layer by layer, each converted from samples
 * at that layer's rate into frames.
 */
export function codecReceptiveFieldFrames(d: CodecDecoderConfig): number {
  let frames = PRE_CONV_KERNEL - 1;
  frames += d.numHiddenLayers * (d.slidingWindow - 1); // each layer reads window − 1 earlier rows
  let samplesPerFrame = 1;
  for (const ratio of d.upsamplingRatios) {
    samplesPerFrame *= ratio; // ConvTranspose with kernel = stride: no look-back
    frames += (CONV_KERNEL - 1) / samplesPerFrame; // ConvNeXt depthwise conv
  }
  frames += (CONV_KERNEL - 1) / samplesPerFrame; // decoder.0
  for (const rate of d.upsampleRates) {
    frames += 1 / samplesPerFrame; // ConvTranspose kernel 2·stride reads one earlier input
    samplesPerFrame *= rate;
    for (const dilation of RESIDUAL_DILATIONS) frames += ((CONV_KERNEL - 1) * dilation) / samplesPerFrame;
  }
  frames += (CONV_KERNEL - 1) / samplesPerFrame; // final conv
  return Math.ceil(frames - 1e-9);
}
