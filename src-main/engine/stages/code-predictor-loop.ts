/**
 * Code-predictor stage over the manifest's loop graph: all codebooks of a frame in one call for the
 * whole batch, sampling inside the graph from the host's counter-RNG uniforms with per-row
 * temperature / top_k / top_p (model-builder/in-graph-sampler.ts). Greedy rows pass top_k 1 and
 * uniform 0. The graph follows the host sampler's rules (ties with the k-th kept, draw in token-id
 * order), so a row draws the host's token unless a float32 sum lands on the other side of a boundary
 * than the host's float64 one (LOOP_SAMPLING_DIFFERS). No KV leaves the graph.
 */
import type { ModelManifest } from '../../model-format/manifest';
import { runSession, tensor } from '../runtime/ort';
import { activationTensor } from './activations';
import { SessionCodePredictor } from './code-predictor';
import type { CodePredictorRow, EmbeddingLookup } from './stages';

/**
 * Where a sampled loop-graph draw can differ from the step path's host draw with the same uniform: the
 * graph sums probabilities in float32 (host float64) and gets the uniform rounded to float32, so a
 * uniform within rounding of a CDF boundary can pick the neighbouring token. Greedy rows always agree.
 */
export const LOOP_SAMPLING_DIFFERS = 'float32 CDF (graph) vs float64 CDF (host) at a boundary';

export class OrtCodePredictorLoop extends SessionCodePredictor {
  async predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    this.runBatchSizes.push(rows.length);
    const x = loopInputs(rows, this.manifest, this.embeddings);
    const { batch, hiddenSize: h, numSteps } = x;
    const out = await runSession(this.session, {
      last_hidden: activationTensor(this.dtype, x.hidden, [batch, 1, h]),
      first_code_embed: activationTensor(this.dtype, x.firstEmbed, [batch, 1, h]),
      uniforms: tensor('float32', x.uniforms, [batch, numSteps]),
      temperature: tensor('float32', x.temperature, [batch]),
      top_k: tensor('int64', x.topK, [batch]),
      top_p: tensor('float32', x.topP, [batch]),
    }, ['codes']);
    return splitCodes(out.codes.data as Int32Array, batch, numSteps);
  }
}

/** The loop graph's per-row inputs as host arrays (greedy rows: top_k 1, uniforms 0, temperature and top_p 1), and the call's sizes. */
export function loopInputs(rows: readonly CodePredictorRow[], manifest: ModelManifest, embeddings: EmbeddingLookup) {
  const batch = rows.length;
  const h = manifest.talker.hiddenSize;
  const numSteps = manifest.numCodeGroups - 1;
  const vocabSize = manifest.codePredictor.vocabSize;
  const x = {
    batch,
    hiddenSize: h,
    numSteps,
    hidden: new Float32Array(batch * h),
    firstEmbed: new Float32Array(batch * h),
    uniforms: new Float32Array(batch * numSteps),
    temperature: new Float32Array(batch),
    topK: new BigInt64Array(batch),
    topP: new Float32Array(batch),
  };
  rows.forEach((r, b) => {
    x.hidden.set(r.hidden, b * h);
    embeddings.addCodec(r.c0, x.firstEmbed, b * h);
    const w = r.warpers;
    if (w.doSample) x.uniforms.set(r.uniforms, b * numSteps); // greedy: 0, the lowest id among tied maxima
    x.temperature[b] = w.doSample ? w.temperature : 1;
    // host topK ≤ 0 means off: all tokens
    x.topK[b] = BigInt(!w.doSample ? 1 : w.topK > 0 ? Math.min(w.topK, vocabSize) : vocabSize);
    x.topP[b] = w.doSample ? w.topP : 1;
  });
  return x;
}

export function splitCodes(codes: Int32Array, batch: number, numSteps: number): number[][] {
  return Array.from({ length: batch }, (_, b) => Array.from(codes.subarray(b * numSteps, (b + 1) * numSteps), Number));
}
