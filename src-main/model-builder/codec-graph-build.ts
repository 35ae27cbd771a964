/**
 * Build step for the codec decoder: reads speech_tokenizer/ (config + decoder.* tensors) from the
 * checkpoint and writes codec_decoder.onnx (stateless windows), codec_decoder_stream.onnx (state
 * carried between calls) and codec_decoder_stream_static.onnx (its capture-ready form), and both
 * stream forms again with their transposed convs as MatMuls (*_matmul.onnx, for providers whose
 * ConvTranspose is slow), each sharing the stream graph's .data when the bytes match, into the built
 * dir; returns their GraphSpecs and the codec facts the engine needs. createEngine only opens the files.
 */
import path from 'node:path';
import { readCodecConfig } from './codec/codec-config';
import {
  CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_KEY_POSITIONS, CODEC_STATIC_QUERY_POSITIONS, CODEC_STREAM_NUM_CACHED, joinLengthDim,
} from '../model-format/codec/codec-stream-io';
import { writeCodecDecoderGraph, type CodecGraphMode } from './codec/codec-graph';
import type { CodecStreamJoinSpec } from './codec/codec-graph-blocks';
import type { CodecTensor } from './codec/codec-tensor-shapes';
import type { BuildDtype, CodecFacts, CodecUpsampleForm, GraphSpec, IoSpec } from '../model-format/manifest';
import type { GraphOps } from '../model-format/onnx/graph-builder';
import { SafetensorsFile } from './safetensors';
import { graphWithOwnWeights, writeSharingWeights } from './shared-weights';

export const CODEC_GRAPH_FILE = 'codec_decoder.onnx';
export const CODEC_STREAM_GRAPH_FILE = 'codec_decoder_stream.onnx';
export const CODEC_STREAM_STATIC_GRAPH_FILE = 'codec_decoder_stream_static.onnx';
export const CODEC_STREAM_MATMUL_GRAPH_FILE = 'codec_decoder_stream_matmul.onnx';
export const CODEC_STREAM_STATIC_MATMUL_GRAPH_FILE = 'codec_decoder_stream_static_matmul.onnx';

export interface CodecGraphs {
  graph: GraphSpec;
  streamGraph: GraphSpec;
  streamStaticGraph: GraphSpec;
  streamMatMulGraph: GraphSpec;
  streamStaticMatMulGraph: GraphSpec;
  facts: CodecFacts;
}

export function buildCodecGraph(checkpointDir: string, outDir: string, dtype: BuildDtype, ops: GraphOps): CodecGraphs {
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
  const numQuantizers = config.decoder.numQuantizers;
  const codesInput: IoSpec = { name: CODEC_GRAPH_INPUT, dtype: 'int64', dims: ['batch', numQuantizers, 'num_frames'], doc: 'codes per quantizer (codebook 0 first), one row per sequence' };
  const pcmOutput: IoSpec = { name: CODEC_GRAPH_OUTPUT, dtype: 'float32', dims: ['batch', `num_frames*${config.samplesPerFrame}`], doc: 'PCM float at sampleRateHz' };
  const write = (fileName: string, mode: CodecGraphMode) => {
    const file = path.join(outDir, fileName);
    return writeCodecDecoderGraph(file, tensors, config, dtype, { dataPath: `${file}.data`, location: `${fileName}.data` }, { ops, mode }).states;
  };
  write(CODEC_GRAPH_FILE, 'window');
  const graph = graphWithOwnWeights(
    CODEC_GRAPH_FILE,
    { inputs: [codesInput], outputs: [pcmOutput] },
    'Stateless and causal: feed [left context, new frames] and drop the context samples (chunked-decode.ts). Rows of a batch never mix.',
  );
  const states = write(CODEC_STREAM_GRAPH_FILE, 'stream');
  const stateSpec = (name: string, dims: [number, number], doc: string): IoSpec => ({ name, dtype: 'float32', dims: ['batch', ...dims], doc });
  const streamGraph = graphWithOwnWeights(
    CODEC_STREAM_GRAPH_FILE,
    {
      inputs: [
        codesInput,
        { name: CODEC_STREAM_NUM_CACHED, dtype: 'int64', dims: ['batch'], doc: `frames the row decoded before this call (the last ${config.decoder.slidingWindow - 1} are carried)` },
        ...states.map((s) => stateSpec(s.input, s.dims, 'carried state: zeros on a sequence\'s first call, then the previous call\'s output of the same index')),
      ],
      outputs: [pcmOutput, ...states.map((s) => stateSpec(s.output, s.dims, 'state for the next call'))],
    },
    'Feed only new frames with the state of the previous call (zeros at first): the calls together equal one full decode. Rows of a batch never mix.',
  );
  /** A second graph over the stream graph's weights: written once, its .data shared when the bytes match. */
  let joins: CodecStreamJoinSpec[] = [];
  const writeShared = (fileName: string, mode: CodecGraphMode, upsample: CodecUpsampleForm): string => writeSharingWeights(outDir, fileName, `${CODEC_STREAM_GRAPH_FILE}.data`, (dataPath, location) => {
    joins = writeCodecDecoderGraph(path.join(outDir, fileName), tensors, config, dtype, { dataPath, location }, { ops, mode, upsample }).joins;
  });
  const joinSpecs = (): IoSpec[] => joins.flatMap((j) => {
    const length = joinLengthDim(j.numState, j.framesScale);
    return [
      { name: j.index, dtype: 'int32', dims: [length], doc: `gather join of ${j.numState} carried entries along axis ${j.axis}: min(j, ${j.numState - 1}) (set once per num_frames)` },
      { name: j.keep, dtype: 'float32', dims: j.axis === 2 ? [1, 1, length] : [1, length, 1], doc: `gather join along axis ${j.axis}: 1 for the first ${j.numState} entries, then 0` },
    ] satisfies IoSpec[];
  });
  const numCarried = config.decoder.slidingWindow - 1;
  const keyFrames = `num_frames+${numCarried}`;
  // joinSpecs reads the joins of the static graph written last (externalDataFile's writeShared runs first)
  const staticSpec = (file: string, externalDataFile: string): GraphSpec => ({
    file,
    externalDataFile,
    inputs: [
      { ...codesInput, dtype: 'int32', doc: `${codesInput.doc} (int32: every node stays on GPU providers)` },
      { name: CODEC_STATIC_ATTENTION_BIAS, dtype: 'float32', dims: ['batch', 1, 1, 'num_frames', keyFrames], doc: `new frame i (key ${numCarried} + i) sees key j when 0 <= ${numCarried} + i - j <= ${numCarried} and j >= ${numCarried} - the row's decoded frames: 0, else MASK_NEGATIVE (-1e9)` },
      ...(ops === 'portable'
        ? [
            { name: CODEC_STATIC_QUERY_POSITIONS, dtype: 'int64', dims: [1, 'num_frames'], doc: `RoPE positions of the new frames: ${numCarried}, ${numCarried + 1}, … (portable ops only)` },
            { name: CODEC_STATIC_KEY_POSITIONS, dtype: 'int64', dims: [1, keyFrames], doc: 'RoPE positions of the keys: 0, 1, … (portable ops only)' },
          ] satisfies IoSpec[]
        : []),
      ...streamGraph.inputs.slice(2),
      ...joinSpecs(),
    ],
    outputs: streamGraph.outputs,
    doc: 'Capture-ready streaming codec: the stream graph with its mask, RoPE positions and carry joins from the host, static shapes per (batch, num_frames), no Concat of uneven inputs. Bind the state outputs to other buffers than the state inputs (ping-pong).',
  });
  const matMulDoc = (spec: GraphSpec): GraphSpec => ({ ...spec, doc: `${spec.doc} Its transposed convolutions are MatMuls with an overlap-add (same maths, not always the same bytes).` });
  return {
    graph,
    streamGraph,
    streamStaticGraph: staticSpec(CODEC_STREAM_STATIC_GRAPH_FILE, writeShared(CODEC_STREAM_STATIC_GRAPH_FILE, 'stream-static', 'conv-transpose')),
    streamMatMulGraph: matMulDoc({ ...streamGraph, file: CODEC_STREAM_MATMUL_GRAPH_FILE, externalDataFile: writeShared(CODEC_STREAM_MATMUL_GRAPH_FILE, 'stream', 'matmul') }),
    streamStaticMatMulGraph: matMulDoc(staticSpec(CODEC_STREAM_STATIC_MATMUL_GRAPH_FILE, writeShared(CODEC_STREAM_STATIC_MATMUL_GRAPH_FILE, 'stream-static', 'matmul'))),
    facts: { sampleRateHz: config.outputSampleRateHz, samplesPerFrame: config.samplesPerFrame, numQuantizers },
  };
}
