/**
 * Code-predictor stage over the manifest's loop graph: all codebooks of a frame in one call for the
 * whole batch, sampling inside the graph from the host's counter-RNG uniforms with per-row
 * temperature / top_k / top_p (model-builder/in-graph-sampler.ts). Greedy rows pass top_k 1 and
 * uniform 0. The graph follows the host sampler's rules (ties with the k-th kept, draw in token-id
 * order), so a row draws the host's token unless a float32 sum lands on the other side of a boundary
 * than the host's float64 one (LOOP_SAMPLING_DIFFERS). No KV leaves the graph.
 */
import type { ModelManifest } from '../../model-builder/manifest';
import { runSession, tensor, type OrtSession } from '../runtime/ort';
import { activationTensor, type ActivationDtype } from './activations';
import type { CodePredictorRow, CodePredictorStage, EmbeddingLookup } from './stages';

/**
 * Where a sampled loop-graph draw can differ from the step path's host draw with the same uniform: the
 * graph sums probabilities in float32 (host float64) and gets the uniform rounded to float32, so a
 * uniform within rounding of a CDF boundary can pick the neighbouring token. Greedy rows always agree.
 */
export const LOOP_SAMPLING_DIFFERS = 'float32 CDF (graph) vs float64 CDF (host) at a boundary';

export class OrtCodePredictorLoop implements CodePredictorStage {
  private readonly dtype: ActivationDtype;
  readonly runBatchSizes: number[] = [];

  constructor(
    private readonly session: OrtSession,
    private readonly manifest: ModelManifest,
    private readonly embeddings: EmbeddingLookup,
  ) {
    this.dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  }

  async predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    const batch = rows.length;
    const h = this.manifest.talker.hiddenSize;
    const numSteps = this.manifest.numCodeGroups - 1;
    const vocabSize = this.manifest.codePredictor.vocabSize;
    this.runBatchSizes.push(batch);
    const hidden = new Float32Array(batch * h);
    const firstEmbed = new Float32Array(batch * h);
    const uniforms = new Float32Array(batch * numSteps);
    const temperature = new Float32Array(batch);
    const topK = new BigInt64Array(batch);
    const topP = new Float32Array(batch);
    rows.forEach((r, b) => {
      hidden.set(r.hidden, b * h);
      this.embeddings.addCodec(r.c0, firstEmbed, b * h);
      const w = r.warpers;
      if (w.doSample) uniforms.set(r.uniforms, b * numSteps); // greedy: 0, the lowest id among tied maxima
      temperature[b] = w.doSample ? w.temperature : 1;
      // host topK ≤ 0 means off: all tokens
      topK[b] = BigInt(!w.doSample ? 1 : w.topK > 0 ? Math.min(w.topK, vocabSize) : vocabSize);
      topP[b] = w.doSample ? w.topP : 1;
    });
    const out = await runSession(this.session, {
      last_hidden: activationTensor(this.dtype, hidden, [batch, 1, h]),
      first_code_embed: activationTensor(this.dtype, firstEmbed, [batch, 1, h]),
      uniforms: tensor('float32', uniforms, [batch, numSteps]),
      temperature: tensor('float32', temperature, [batch]),
      top_k: tensor('int64', topK, [batch]),
      top_p: tensor('float32', topP, [batch]),
    }, ['codes']);
    const codes = out.codes.data as Int32Array;
    return rows.map((_, b) => Array.from(codes.subarray(b * numSteps, (b + 1) * numSteps), Number));
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
