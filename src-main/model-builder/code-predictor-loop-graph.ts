/**
 * Builds the code-predictor loop graph (variant b): all numCodeGroups - 1 sub-steps of a frame in one
 * call, unrolled (weights shared), KV kept inside the graph, sampling from host-supplied uniforms via
 * in-graph-sampler.ts. Positions and masks are build-time constants and codes are int32, so no op of a
 * sub-step needs the host. Returns the codes and the sum of their code-predictor embeddings, which is the
 * codec part of the next talker input minus C(c0). The 'static' form (capture-ready) takes the sampler's
 * K and rank mask from the host instead of computing them from top_k.
 */
import path from 'node:path';
import { codePredictorPass, loadCodePredictorWeights } from './code-predictor-graph';
import type { CheckpointConfig } from './checkpoint-config';
import { hostPreparedSampler, prepareSampler, sampleInGraph } from './in-graph-sampler';
import type { GraphSpec, IoSpec } from '../model-format/manifest';
import type { ActivationType } from '../model-format/onnx/composite-ops';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import type { GraphBuildArgs } from './talker-graph';
import { graphWithOwnWeights, writeSharingWeights } from './shared-weights';
import { WeightLoader } from './weight-loader';

export const CODE_PREDICTOR_LOOP_FILE = 'code_predictor_loop.onnx';
export const CODE_PREDICTOR_LOOP_STATIC_FILE = 'code_predictor_loop_static.onnx';
export const CODE_PREDICTOR_LOOP_PLAIN_FILE = 'code_predictor_loop_plain.onnx';

/**
 * 'dynamic': top_k per row, TopK's K = max(top_k) computed in the graph (int64 math, data-dependent shape).
 * 'static' (capture-ready): the host writes K (top_k_max, one value per bucket) and the rank < top_k mask.
 */
export type LoopForm = 'dynamic' | 'static';

export function codePredictorLoopIo(config: CheckpointConfig, dtype: ActivationType, form: LoopForm = 'dynamic'): { inputs: IoSpec[]; outputs: IoSpec[] } {
  const h = config.talker.hiddenSize;
  const numSteps = config.numCodeGroups - 1;
  const topK: IoSpec[] = form === 'dynamic'
    ? [{ name: 'top_k', dtype: 'int64', dims: ['batch'], doc: 'subtalker top-k per row, 1..vocab; 1 = greedy' }]
    : [
        { name: 'top_k_max', dtype: 'int64', dims: [1], doc: "TopK's K: the largest top_k of the call's rows (fixed per bucket; read on the host)" },
        { name: 'in_top_k', dtype: 'float32', dims: ['batch', 'k'], doc: '1 where rank r < the row\'s top_k, else 0, for r < top_k_max' },
      ];
  return {
    inputs: [
      { name: 'last_hidden', dtype, dims: ['batch', 1, h], doc: "the talker's last_hidden for the frame" },
      { name: 'first_code_embed', dtype, dims: ['batch', 1, h], doc: 'C(c0): talker codec_embedding row of the sampled codebook-0 token' },
      { name: 'uniforms', dtype: 'float32', dims: ['batch', numSteps], doc: 'one uniform in [0, 1) per sub-step (from the counter-based RNG of seed, frame, codebook)' },
      { name: 'temperature', dtype: 'float32', dims: ['batch'], doc: 'subtalker temperature per row (> 0)' },
      ...topK,
      { name: 'top_p', dtype: 'float32', dims: ['batch'], doc: 'subtalker top-p per row; 1 = off' },
    ],
    outputs: [
      { name: 'codes', dtype: 'int32', dims: ['batch', numSteps], doc: 'codebooks 1..numCodeGroups-1' },
      { name: 'codes_embed_sum', dtype, dims: ['batch', 1, h], doc: 'Σ_j E_j(codes[j]); next talker input = C(c0) + codes_embed_sum + text row' },
    ],
  };
}

/** plainAttention: the static form with plain-op attention instead of GroupQueryAttention (WebGPU capture). */
function writeLoopGraph(args: GraphBuildArgs, form: LoopForm, file: string, dataPath: string, location: string, plainAttention = false): void {
  const { config, dtype } = args;
  const g = new GraphBuilder({ name: 'code_predictor_loop', producerVersion: args.builderVersion, ops: args.ops, externalData: { dataPath, location }, outputsByKernels: form === 'static' });
  const io = codePredictorLoopIo(config, dtype, form);
  for (const spec of io.inputs) g.input(spec.name, spec.dtype, spec.dims);
  const loader = new WeightLoader(g, args.weights, dtype);
  const numSteps = config.numCodeGroups - 1;
  // heads one by one: each sub-step's is an initializer, not a Gather of the stack
  const w = loadCodePredictorWeights(loader, config, true);
  const tables = Array.from({ length: numSteps }, (_, j) => loader.plain(`talker.code_predictor.model.codec_embedding.${j}.weight`));
  const sampler = form === 'dynamic'
    ? prepareSampler(g, { temperature: 'temperature', topK: 'top_k', topP: 'top_p' })
    : hostPreparedSampler(g, { temperature: 'temperature', topP: 'top_p', kMax: 'top_k_max', inTopK: 'in_top_k' });

  let rows = g.concat(['last_hidden', 'first_code_embed'], 1); // [B, 2, H]
  let pasts: { key: string | null; value: string | null }[] = w.layers.map(() => ({ key: null, value: null }));
  let pastLength = 0;
  const batchShape = g.dim('last_hidden', 0); // [1] = [B], for per-row attention inputs
  const codes: string[] = [];
  const uniforms = g.node('Split', ['uniforms', g.constInt64(Array(numSteps).fill(1), [numSteps])], numSteps, { axis: 1 }); // numSteps × [B, 1]
  let embedSum: string | null = null;
  for (let j = 0; j < numSteps; j++) {
    const numRows = j === 0 ? 2 : 1;
    const { logits, presents } = codePredictorPass(g, w, config, dtype, rows, pasts, { pastLength, numRows, batchShape, plainAttention }, j);
    const code = sampleInGraph(g, logits, uniforms[j], sampler); // int32 [B, 1]
    codes.push(code);
    const embed = g.gather(tables[j], code, 0); // [B, 1, H]
    embedSum = embedSum ? g.add(embedSum, embed) : embed;
    pastLength += numRows;
    pasts = presents;
    rows = embed;
  }
  g.output(g.concat(codes, 1), 'int32', io.outputs[0].dims, 'codes');
  g.output(embedSum!, dtype, io.outputs[1].dims, 'codes_embed_sum');
  g.save(path.join(args.outDir, file));
}

export function buildCodePredictorLoopGraph(args: GraphBuildArgs): GraphSpec {
  writeLoopGraph(args, 'dynamic', CODE_PREDICTOR_LOOP_FILE, path.join(args.outDir, `${CODE_PREDICTOR_LOOP_FILE}.data`), `${CODE_PREDICTOR_LOOP_FILE}.data`);
  const io = codePredictorLoopIo(args.config, args.dtype);
  return graphWithOwnWeights(CODE_PREDICTOR_LOOP_FILE, io, 'One call per frame for the whole batch; no KV in or out. Greedy rows pass top_k 1. Sampling: temperature → top-k → top-p → inverse CDF with the given uniform.');
}

/** The capture-ready form after the loop graph, sharing its weights file: no int64 math, static shapes per (rows, K). */
export function buildCodePredictorLoopStaticGraph(args: GraphBuildArgs): GraphSpec {
  const file = CODE_PREDICTOR_LOOP_STATIC_FILE;
  const externalDataFile = writeSharingWeights(args.outDir, file, `${CODE_PREDICTOR_LOOP_FILE}.data`, (dataPath, location) => writeLoopGraph(args, 'static', file, dataPath, location));
  const io = codePredictorLoopIo(args.config, args.dtype, 'static');
  return {
    file,
    externalDataFile,
    inputs: io.inputs,
    outputs: io.outputs,
    doc: 'The loop graph with the sampler\'s K and rank mask from the host (static shapes per rows × K, capture-ready); same nodes otherwise.',
  };
}

/**
 * The static form with plain-op attention (RoPE, mask, MatMul, Softmax) in place of GroupQueryAttention,
 * sharing the loop's weights: WebGPU capture refuses GroupQueryAttention whose past and present are
 * separate buffers, as every sub-step's is inside the unrolled loop. Its logits differ from the GQA
 * form's in the last bits, so WebGPU runs it in both bound modes ('bound' and 'on') for like-for-like bytes.
 */
export function buildCodePredictorLoopPlainGraph(args: GraphBuildArgs): GraphSpec {
  const file = CODE_PREDICTOR_LOOP_PLAIN_FILE;
  const externalDataFile = writeSharingWeights(args.outDir, file, `${CODE_PREDICTOR_LOOP_FILE}.data`, (dataPath, location) => writeLoopGraph(args, 'static', file, dataPath, location, true));
  const io = codePredictorLoopIo(args.config, args.dtype, 'static');
  return { file, externalDataFile, inputs: io.inputs, outputs: io.outputs, doc: 'The static loop with plain-op attention (no GroupQueryAttention): capture-ready on WebGPU.' };
}
