/**
 * Build step for the codec decoder: reads speech_tokenizer/ (config + decoder.* tensors) from the
 * checkpoint and writes codec_decoder.onnx (+ .data) into the built dir, returning its GraphSpec and
 * the codec facts the engine needs. Before this step existed the engine rebuilt the graph at every
 * load (~457 MB of fp32 weights at 0.6B); now createEngine only opens the file.
 */
import path from 'node:path';
import { readCodecConfig } from './codec/codec-config';
import { CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, writeCodecDecoderGraph } from './codec/codec-graph';
import type { CodecTensor } from './codec/codec-tensor-shapes';
import type { BuildDtype, CodecFacts, GraphSpec } from './manifest';
import type { GraphOps } from './onnx/graph-builder';
import { SafetensorsFile } from './safetensors';

export const CODEC_GRAPH_FILE = 'codec_decoder.onnx';

export function buildCodecGraph(checkpointDir: string, outDir: string, dtype: BuildDtype, ops: GraphOps): { graph: GraphSpec; facts: CodecFacts } {
  const dir = path.join(checkpointDir, 'speech_tokenizer');
  const config = readCodecConfig(path.join(dir, 'config.json'));
  const weights = SafetensorsFile.open(path.join(dir, 'model.safetensors'));
  const tensors = new Map<string, CodecTensor>();
  try {
    for (const name of weights.names()) {
      if (name.startsWith('decoder.')) tensors.set(name, { shape: weights.info(name).shape, data: weights.readFloat32(name) });
    }
  } finally {
    weights.close();
  }
  const file = path.join(outDir, CODEC_GRAPH_FILE);
  writeCodecDecoderGraph(file, tensors, config, dtype, { dataPath: `${file}.data`, location: `${CODEC_GRAPH_FILE}.data` }, ops);
  const numQuantizers = config.decoder.numQuantizers;
  const graph: GraphSpec = {
    file: CODEC_GRAPH_FILE,
    externalDataFile: `${CODEC_GRAPH_FILE}.data`,
    inputs: [{ name: CODEC_GRAPH_INPUT, dtype: 'int64', dims: ['batch', numQuantizers, 'num_frames'], doc: 'codes per quantizer (codebook 0 first), one row per sequence' }],
    outputs: [{ name: CODEC_GRAPH_OUTPUT, dtype: 'float32', dims: ['batch', `num_frames*${config.samplesPerFrame}`], doc: 'PCM float at sampleRateHz' }],
    doc: 'Stateless and causal: feed [left context, new frames] and drop the context samples (chunked-decode.ts). Rows of a batch never mix.',
  };
  return { graph, facts: { sampleRateHz: config.outputSampleRateHz, samplesPerFrame: config.samplesPerFrame, numQuantizers } };
}
