/**
 * Builds the talker graph: one batched graph for prefill and decode over a fixed-capacity KV buffer
 * per layer (slot t holds position t; the new rows are written at their position ids, so present has
 * past's shape and a row's result depends on its own length and the buffer's capacity only), an
 * attention mask over the slots, q/k RMSNorm,
 * 1-D rotate-half RoPE (== M-RoPE with equal rows, spec §1.2), GQA, SwiGLU, final norm and codec_head
 * logits for the last position. Writes talker.onnx (+ talker.onnx.data) and returns its GraphSpec.
 */
import path from 'node:path';
import type { CheckpointConfig } from './checkpoint-config';
import { decoderLayer, loadDecoderLayerWeights } from './decoder-layer';
import type { GraphSpec, IoDtype, IoSpec } from '../model-format/manifest';
import { kvWritePlan, positionMask, rmsNorm, ropeFor, type ActivationType } from '../model-format/onnx/composite-ops';
import { GraphBuilder, type GraphOps } from '../model-format/onnx/graph-builder';
import type { SafetensorsFile } from './safetensors';
import { graphWithOwnWeights } from './shared-weights';
import { WeightLoader } from './weight-loader';

export const TALKER_GRAPH_FILE = 'talker.onnx';

export interface GraphBuildArgs {
  config: CheckpointConfig;
  weights: SafetensorsFile;
  dtype: ActivationType;
  outDir: string;
  builderVersion: string;
  /** Op set of the composite blocks (GraphBuilder 'ops'). */
  ops: GraphOps;
}

export function talkerIo(config: CheckpointConfig, dtype: ActivationType): { inputs: IoSpec[]; outputs: IoSpec[] } {
  const t = config.talker;
  const act: IoDtype = dtype;
  const kv = (kind: 'past' | 'present', i: number, which: 'key' | 'value'): IoSpec => ({
    name: `${kind}_${which}_${i}`,
    dtype: act,
    dims: ['batch', t.numKvHeads, 'capacity', t.headDim],
    doc: `layer ${i} ${which}s after RoPE, slot t = position t; ${kind === 'past' ? 'slots at or after the new positions should be 0' : 'past with the new positions written'}`,
  });
  const layers = Array.from({ length: t.numLayers }, (_, i) => i);
  return {
    inputs: [
      { name: 'inputs_embeds', dtype: act, dims: ['batch', 'seq', t.hiddenSize], doc: 'summed text-track + codec-track rows; left-pad ragged prefill rows' },
      { name: 'attention_mask', dtype: 'int64', dims: ['batch', 'capacity'], doc: '1 for the slots holding positions after this run (past + new), else 0' },
      { name: 'position_ids', dtype: 'int64', dims: ['batch', 'seq'], doc: 'position of each new row = the slot it is written to; -1 for a pad row (written nowhere)' },
      ...layers.flatMap((i) => [kv('past', i, 'key'), kv('past', i, 'value')]),
    ],
    outputs: [
      { name: 'logits', dtype: 'float32', dims: ['batch', 1, t.vocabSize], doc: 'codec_head logits of the last new position (before any processor)' },
      { name: 'last_hidden', dtype: act, dims: ['batch', 1, t.hiddenSize], doc: 'final-norm hidden state of the last new position (code-predictor input)' },
      ...layers.flatMap((i) => [kv('present', i, 'key'), kv('present', i, 'value')]),
    ],
  };
}

export function buildTalkerGraph(args: GraphBuildArgs): GraphSpec {
  const { config, dtype } = args;
  const t = config.talker;
  const file = path.join(args.outDir, TALKER_GRAPH_FILE);
  const g = new GraphBuilder({ name: 'talker', producerVersion: args.builderVersion, ops: args.ops, externalData: { dataPath: `${file}.data`, location: `${TALKER_GRAPH_FILE}.data` } });
  const io = talkerIo(config, dtype);
  for (const spec of io.inputs) g.input(spec.name, spec.dtype, spec.dims);
  const loader = new WeightLoader(g, args.weights, dtype);

  const seqLength = g.dim('inputs_embeds', 1);
  const mask = positionMask(g, 'position_ids', 'attention_mask');
  const kvWrite = kvWritePlan(g, 'position_ids', 'attention_mask', dtype);
  const rope = ropeFor(g, 'position_ids', t.headDim, t.ropeTheta, dtype, t.maxPositionEmbeddings);
  let x = 'inputs_embeds';
  for (let i = 0; i < t.numLayers; i++) {
    const w = loadDecoderLayerWeights(loader, `talker.model.layers.${i}`);
    const out = decoderLayer(g, w, t, dtype, { x, attention: { rope, mask }, pastKey: `past_key_${i}`, pastValue: `past_value_${i}`, kvWrite });
    x = out.x;
    g.output(out.presentKey, dtype, io.outputs[2 + 2 * i].dims, `present_key_${i}`);
    g.output(out.presentValue, dtype, io.outputs[3 + 2 * i].dims, `present_value_${i}`);
  }
  const lastStart = g.sub(seqLength, g.constInt64([1]));
  const last = g.slice(x, 1, lastStart, seqLength); // [B, 1, H]
  const hidden = rmsNorm(g, last, loader.norm('talker.model.norm.weight'), t.rmsNormEps, dtype);
  let logits = g.matmul(hidden, loader.linearT('talker.codec_head.weight'));
  if (dtype === 'float16') logits = g.cast(logits, 'float32');
  g.output(logits, 'float32', io.outputs[0].dims, 'logits');
  g.output(hidden, dtype, io.outputs[1].dims, 'last_hidden');
  // outputs were declared in layer order above; ORT matches outputs by name, so the order is cosmetic
  g.save(file);
  return graphWithOwnWeights(
    TALKER_GRAPH_FILE,
    io,
    'One graph for prefill and decode over KV buffers of a fixed capacity (slot t = position t). Prefill: zero past, ' +
      'left-padded rows (pad position -1), mask over the prompt slots. Decode: one new position per row, mask over past + 1 slots; ' +
      'present_* has past_*\'s shape and can be fed straight back. Logits and last_hidden are for the last new position.',
  );
}
