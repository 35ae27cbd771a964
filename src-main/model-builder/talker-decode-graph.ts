/**
 * Builds the talker's capture-ready decode graph: one new row per sequence over a fixed-capacity KV
 * buffer that past and present share (bind one buffer as past_* and present_*), with the attention
 * mask and the KV write slots as host-written fp32 inputs, so no node computes shapes, ranges or
 * int64 math and every shape is fixed per (rows, capacity) bucket (CUDA graphs, WebGPU capture).
 * Its arithmetic is the talker graph's for one new row (Reshapes where a Transpose moves the size-1
 * row axis), so on CPU it gives the same bytes. new_key_i /
 * new_value_i are the new rows alone (what the host KV pool stores). Weights are shared with
 * talker.onnx.data when the bytes match (they do unless the builder changed), else written apart.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { decoderLayer, loadDecoderLayerWeights } from './decoder-layer';
import type { GraphSpec, IoSpec } from '../model-format/manifest';
import { rmsNorm, ropeCaches, ropeFor, type Rope } from '../model-format/onnx/composite-ops';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import { writeSharingWeights } from './shared-weights';
import { TALKER_GRAPH_FILE, type GraphBuildArgs } from './talker-graph';
import { WeightLoader } from './weight-loader';

export const TALKER_DECODE_GRAPH_FILE = 'talker-decode.onnx';

export function talkerDecodeIo(args: Pick<GraphBuildArgs, 'config' | 'dtype'>): { inputs: IoSpec[]; outputs: IoSpec[] } {
  const t = args.config.talker;
  const act = args.dtype;
  const kvDims = ['batch', t.numKvHeads, 'capacity', t.headDim];
  const layers = Array.from({ length: t.numLayers }, (_, i) => i);
  const kv = (kind: 'past' | 'present' | 'new', i: number, which: 'key' | 'value'): IoSpec => ({
    name: `${kind}_${which}_${i}`,
    dtype: act,
    dims: kind === 'new' ? ['batch', t.numKvHeads, 1, t.headDim] : kvDims,
    doc: kind === 'new' ? `layer ${i}'s new ${which} row (after RoPE)` : `layer ${i} ${which}s, slot t = position t; bind one buffer as past_${which}_${i} and present_${which}_${i}`,
  });
  return {
    inputs: [
      { name: 'inputs_embeds', dtype: act, dims: ['batch', 1, t.hiddenSize], doc: 'the new row of each sequence' },
      { name: 'position_ids', dtype: 'int64', dims: ['batch', 1], doc: 'position of the new row = the slot it is written to' },
      { name: 'attention_bias', dtype: 'float32', dims: ['batch', 1, 1, 1, 'capacity'], doc: '0 for slots <= the position, MASK_NEGATIVE (-1e9) after' },
      { name: 'kv_write', dtype: 'float32', dims: ['batch', 1, 'capacity', 1], doc: '1 at the new row\'s slot, else 0' },
      ...layers.flatMap((i) => [kv('past', i, 'key'), kv('past', i, 'value')]),
    ],
    outputs: [
      { name: 'logits', dtype: 'float32', dims: ['batch', 1, t.vocabSize], doc: 'codec_head logits of the new row' },
      { name: 'last_hidden', dtype: act, dims: ['batch', 1, t.hiddenSize], doc: 'final-norm hidden state of the new row' },
      ...layers.flatMap((i) => [kv('present', i, 'key'), kv('present', i, 'value'), kv('new', i, 'key'), kv('new', i, 'value')]),
    ],
  };
}

function writeGraph(args: GraphBuildArgs, dataPath: string, location: string): void {
  const { config, dtype } = args;
  const t = config.talker;
  const g = new GraphBuilder({ name: 'talker_decode', producerVersion: args.builderVersion, ops: args.ops, externalData: { dataPath, location }, outputsByKernels: true });
  const io = talkerDecodeIo(args);
  for (const spec of io.inputs) g.input(spec.name, spec.dtype, spec.dims);
  const loader = new WeightLoader(g, args.weights, dtype);
  // the talker graph's order of large initializers: RoPE caches (fused ops), layers, final norm, codec_head
  const rope: Rope = g.ops === 'fused'
    ? { kind: 'fused', positionIds: 'position_ids', ...ropeCaches(g, t.headDim, t.ropeTheta, dtype, t.maxPositionEmbeddings) }
    : ropeFor(g, 'position_ids', t.headDim, t.ropeTheta, dtype, t.maxPositionEmbeddings);
  // one new row a sequence: it is broadcast to its slot (writeKv), so kv_write only says where
  const isNew = g.op('Greater', ['kv_write', g.constFloat(0)]);
  const outSpec = new Map(io.outputs.map((o) => [o.name, o]));
  let x = 'inputs_embeds';
  for (let i = 0; i < t.numLayers; i++) {
    const w = loadDecoderLayerWeights(loader, `talker.model.layers.${i}`);
    const out = decoderLayer(g, w, t, dtype, { x, attention: { rope, mask: 'attention_bias' }, pastKey: `past_key_${i}`, pastValue: `past_value_${i}`, kvWrite: { onehot: null, isNew }, singleRow: true });
    x = out.x;
    for (const [value, name] of [[out.presentKey, `present_key_${i}`], [out.presentValue, `present_value_${i}`], [out.newKey, `new_key_${i}`], [out.newValue, `new_value_${i}`]] as const) {
      if (!value) throw new StudioError('internal', `the decoder layer gave no ${name}`);
      g.output(value, dtype, outSpec.get(name)!.dims, name);
    }
  }
  const hidden = rmsNorm(g, x, loader.norm('talker.model.norm.weight'), t.rmsNormEps, dtype);
  let logits = g.matmul(hidden, loader.linearT('talker.codec_head.weight'));
  if (dtype === 'float16') logits = g.cast(logits, 'float32');
  g.output(logits, 'float32', outSpec.get('logits')!.dims, 'logits');
  g.output(hidden, dtype, outSpec.get('last_hidden')!.dims, 'last_hidden');
  g.save(path.join(args.outDir, TALKER_DECODE_GRAPH_FILE));
}

/** Writes talker-decode.onnx after the talker graph (whose weights file it shares when they match). */
export function buildTalkerDecodeGraph(args: GraphBuildArgs): GraphSpec {
  const externalDataFile = writeSharingWeights(args.outDir, TALKER_DECODE_GRAPH_FILE, `${TALKER_GRAPH_FILE}.data`, (dataPath, location) => writeGraph(args, dataPath, location));
  const io = talkerDecodeIo(args);
  return {
    file: TALKER_DECODE_GRAPH_FILE,
    externalDataFile,
    inputs: io.inputs,
    outputs: io.outputs,
    doc:
      'Capture-ready talker decode: one new row per sequence, static shapes per (batch, capacity). Bind one buffer per layer ' +
      'as past_* and present_* (written in place at position_ids); attention_bias and kv_write come from the host. Same nodes ' +
      'as talker.onnx for one new row.',
  };
}
