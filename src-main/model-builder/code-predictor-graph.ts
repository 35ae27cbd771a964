/**
 * Builds the code-predictor step graph (variant a): one call per sub-step with KV in/out. Prefill is
 * 2 rows [last_hidden, C(c0)] with generation_step 0; step j feeds E_{j-1}(c_j) with generation_step j.
 * All rows of a batch are at the same sub-step, so positions come from the past length (no mask input).
 * Also owns the weight loading and the decoder pass shared with the loop graph.
 */
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { CheckpointConfig } from './checkpoint-config';
import { decoderLayer, loadDecoderLayerWeights, type DecoderAttention, type DecoderLayerWeights, type FusedAttentionInputs } from './decoder-layer';
import type { GraphSpec, IoSpec } from '../model-format/manifest';
import { causalMask, fixedCausalMask, linear, rmsNorm, ropeCaches, ropeFor, type ActivationType } from '../model-format/onnx/composite-ops';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import { graphWithOwnWeights } from './shared-weights';
import type { GraphBuildArgs } from './talker-graph';
import { WeightLoader } from './weight-loader';

export const CODE_PREDICTOR_STEP_FILE = 'code_predictor_step.onnx';

export interface CodePredictorWeights {
  layers: DecoderLayerWeights[];
  finalNorm: string;
  /** lm_heads stacked [numCodeGroups - 1, hidden, vocab] (headsT), or one [hidden, vocab] each (headT, for build-time head indices). */
  headsT: string;
  headT: string[] | null;
  projection: { wT: string; bias: string } | null;
}

export function loadCodePredictorWeights(loader: WeightLoader, config: CheckpointConfig, separateHeads = false): CodePredictorWeights {
  const cp = config.codePredictor;
  const numHeads = config.numCodeGroups - 1;
  const headNames = Array.from({ length: numHeads }, (_, j) => `talker.code_predictor.lm_head.${j}.weight`);
  return {
    layers: Array.from({ length: cp.numLayers }, (_, i) => loadDecoderLayerWeights(loader, `talker.code_predictor.model.layers.${i}`)),
    finalNorm: loader.norm('talker.code_predictor.model.norm.weight'),
    headsT: separateHeads ? '' : loader.stackedLinearT(headNames, 'code_predictor.lm_heads_T'),
    headT: separateHeads ? headNames.map((n) => loader.linearT(n)) : null,
    projection: cp.hasInputProjection
      ? { wT: loader.linearT('talker.code_predictor.small_to_mtp_projection.weight'), bias: loader.plain('talker.code_predictor.small_to_mtp_projection.bias') }
      : null,
  };
}

/**
 * Runs rows [B, S, talkerHidden] through the code predictor given per-layer pasts (null = empty) and
 * the past length (an int64 [1] value, or the past length and row count known at build time, as in the
 * unrolled loop graph: positions and mask are then constants); returns fp32 logits [B, vocab] of the last row under head `head`
 * (an int64 scalar value, or a head index known at build time, which needs w.headT) and the presents.
 */
export function codePredictorPass(
  g: GraphBuilder,
  w: CodePredictorWeights,
  config: CheckpointConfig,
  dtype: ActivationType,
  rows: string,
  pasts: { key: string | null; value: string | null }[],
  /** plainAttention: RoPE, mask and MatMul attention even in fused builds (WebGPU capture refuses GroupQueryAttention whose past and present are separate buffers, as inside the loop). */
  past: string | { pastLength: number; numRows: number; batchShape: string; plainAttention?: boolean },
  head: string | number,
): { logits: string; presents: { key: string; value: string }[] } {
  const cp = config.codePredictor;
  let x = w.projection ? linear(g, rows, w.projection.wT, w.projection.bias) : rows;
  // positions pastLength .. pastLength + S - 1 < numCodeGroups + 1 (one frame's sub-steps)
  const maxPositions = Math.min(cp.maxPositionEmbeddings, config.numCodeGroups + 1);
  let attention: DecoderAttention;
  if (typeof past === 'string') {
    const seqLength = g.dim(rows, 1);
    attention = { rope: ropeFor(g, { start: past, length: seqLength }, cp.headDim, cp.ropeTheta, dtype, maxPositions), mask: causalMask(g, past, seqLength) };
  } else if (g.ops === 'fused' && !past.plainAttention) {
    attention = { fused: fixedGqaInputs(g, past, ropeCaches(g, cp.headDim, cp.ropeTheta, dtype, maxPositions)) };
  } else {
    const ids = g.constInt64(Array.from({ length: past.numRows }, (_, i) => past.pastLength + i), [1, past.numRows]);
    attention = { rope: ropeFor(g, ids, cp.headDim, cp.ropeTheta, dtype, maxPositions), mask: fixedCausalMask(g, past.pastLength, past.numRows) };
  }
  const presents = w.layers.map((lw, i) => {
    const out = decoderLayer(g, lw, cp, dtype, { x, attention, pastKey: pasts[i].key, pastValue: pasts[i].value });
    x = out.x;
    return { key: out.presentKey, value: out.presentValue };
  });
  const singleRow = typeof past !== 'string' && past.numRows === 1;
  const last = singleRow ? x : g.slice(x, 1, -1, 1 << 30); // [B, 1, H], the last row whatever S is
  const hidden = rmsNorm(g, g.squeeze(last, [1]), w.finalNorm, cp.rmsNormEps, dtype); // [B, H]
  const headT = typeof head === 'number' ? w.headT?.[head] : g.gather(w.headsT, head, 0);
  if (!headT) throw new StudioError('internal', `code predictor head ${String(head)} needs the heads loaded one by one (loadCodePredictorWeights separateHeads)`);
  let logits = g.matmul(hidden, headT);
  if (dtype === 'float16') logits = g.cast(logits, 'float32');
  return { logits, presents };
}

/** GroupQueryAttention inputs for rows at a build-time past length: seqlens_k = P + S − 1 for every row of batchShape. */
function fixedGqaInputs(g: GraphBuilder, fixed: { pastLength: number; numRows: number; batchShape: string }, caches: { cosCache: string; sinCache: string }): FusedAttentionInputs {
  const total = fixed.pastLength + fixed.numRows;
  const seqlensK = g.op('Expand', [g.constInt32([total - 1]), fixed.batchShape]);
  return { seqlensK, totalSequenceLength: g.constInt32([total], []), ...caches };
}

export function codePredictorStepIo(config: CheckpointConfig, dtype: ActivationType): { inputs: IoSpec[]; outputs: IoSpec[] } {
  const cp = config.codePredictor;
  const layers = Array.from({ length: cp.numLayers }, (_, i) => i);
  const kv = (kind: 'past' | 'present', i: number, which: 'key' | 'value'): IoSpec => ({
    name: `${kind}_${which}_${i}`,
    dtype,
    dims: ['batch', cp.numKvHeads, kind === 'past' ? 'past' : 'total', cp.headDim],
    doc: `layer ${i} ${which}s; past has 0 positions at the start of every frame`,
  });
  return {
    inputs: [
      { name: 'inputs_embeds', dtype, dims: ['batch', 'seq', config.talker.hiddenSize], doc: 'sub-step 0: [last_hidden, C(c0)] (seq 2); sub-step j: E_{j-1}(c_j) (seq 1)' },
      { name: 'generation_step', dtype: 'int64', dims: [], doc: 'sub-step j in 0..numCodeGroups-2: selects lm_head j, which predicts codebook j+1' },
      ...layers.flatMap((i) => [kv('past', i, 'key'), kv('past', i, 'value')]),
    ],
    outputs: [
      { name: 'logits', dtype: 'float32', dims: ['batch', cp.vocabSize], doc: 'logits for codebook generation_step + 1' },
      ...layers.flatMap((i) => [kv('present', i, 'key'), kv('present', i, 'value')]),
    ],
  };
}

export function buildCodePredictorStepGraph(args: GraphBuildArgs): GraphSpec {
  const { config, dtype } = args;
  const file = path.join(args.outDir, CODE_PREDICTOR_STEP_FILE);
  const g = new GraphBuilder({ name: 'code_predictor_step', producerVersion: args.builderVersion, ops: args.ops, externalData: { dataPath: `${file}.data`, location: `${CODE_PREDICTOR_STEP_FILE}.data` } });
  const io = codePredictorStepIo(config, dtype);
  for (const spec of io.inputs) g.input(spec.name, spec.dtype, spec.dims);
  const w = loadCodePredictorWeights(new WeightLoader(g, args.weights, dtype), config);
  const pasts = w.layers.map((_, i) => ({ key: `past_key_${i}`, value: `past_value_${i}` }));
  const { logits, presents } = codePredictorPass(g, w, config, dtype, 'inputs_embeds', pasts, g.dim('past_key_0', 2), 'generation_step');
  g.output(logits, 'float32', io.outputs[0].dims, 'logits');
  presents.forEach((p, i) => {
    g.output(p.key, dtype, io.outputs[1 + 2 * i].dims, `present_key_${i}`);
    g.output(p.value, dtype, io.outputs[2 + 2 * i].dims, `present_value_${i}`);
  });
  g.save(file);
  return graphWithOwnWeights(
    CODE_PREDICTOR_STEP_FILE,
    io,
    'Per frame: call with [last_hidden, C(c0)] and generation_step 0 on an empty past, sample c1; then for j = 1..14 feed E_{j-1}(c_j) with generation_step j and the previous presents.',
  );
}
