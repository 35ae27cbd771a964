/**
 * The code-predictor loop on its capture-ready graph (code_predictor_loop_static.onnx) over bound
 * buffers (bound-runs.ts): one bucket per (rows, K), where K = the call's largest top_k, as the loop
 * graph computes it; the host writes K and the rank < top_k mask, so the graph runs the loop graph's
 * nodes on the same values (same codes on CPU) without int64 math or a data-dependent shape.
 */
import type { ModelManifest } from '../../model-format/manifest';
import { float32ToFloat16Bits } from '../../model-format/float-bits';
import type { BoundSetup } from './bound-buckets';
import { BoundRuns, type BoundRunsStats } from './bound-runs';
import { loopInputs, splitCodes } from './code-predictor-loop';
import type { CodePredictorRow, CodePredictorStage, EmbeddingLookup } from './stages';

export class BoundCodePredictorLoop implements CodePredictorStage {
  readonly runBatchSizes: number[] = [];

  private constructor(private readonly runs: BoundRuns, private readonly manifest: ModelManifest, private readonly embeddings: EmbeddingLookup) {}

  static async open(model: string, manifest: ModelManifest, embeddings: EmbeddingLookup, setup: BoundSetup): Promise<BoundCodePredictorLoop> {
    const act = manifest.dtype === 'fp16' ? 'float16' : 'float32';
    const inputs = [
      { name: 'last_hidden', dtype: act, rank: 3 },
      { name: 'first_code_embed', dtype: act, rank: 3 },
      { name: 'uniforms', dtype: 'float32', rank: 2 },
      { name: 'temperature', dtype: 'float32', rank: 1 },
      { name: 'top_k_max', dtype: 'int64', rank: 1, host: true },
      { name: 'in_top_k', dtype: 'float32', rank: 2 },
      { name: 'top_p', dtype: 'float32', rank: 1 },
    ] as const;
    const runs = await BoundRuns.open(model, inputs, [{ name: 'codes', dtype: 'int32', rank: 2 }], setup);
    return new BoundCodePredictorLoop(runs, manifest, embeddings);
  }

  stats(): BoundRunsStats {
    return this.runs.stats();
  }

  async predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    this.runBatchSizes.push(rows.length);
    const x = loopInputs(rows, this.manifest, this.embeddings);
    const { batch, hiddenSize: h, numSteps } = x;
    const k = Number(x.topK.reduce((a, b) => (b > a ? b : a), 1n));
    const dims = { last_hidden: [batch, 1, h], first_code_embed: [batch, 1, h], uniforms: [batch, numSteps], temperature: [batch], top_k_max: [1], in_top_k: [batch, k], top_p: [batch], codes: [batch, numSteps] };
    const fp16 = this.manifest.dtype === 'fp16';
    const out = await this.runs.run(dims, (v) => {
      (v.last_hidden as Float32Array | Uint16Array).set(fp16 ? float32ToFloat16Bits(x.hidden) : x.hidden);
      (v.first_code_embed as Float32Array | Uint16Array).set(fp16 ? float32ToFloat16Bits(x.firstEmbed) : x.firstEmbed);
      (v.uniforms as Float32Array).set(x.uniforms);
      (v.temperature as Float32Array).set(x.temperature);
      (v.top_p as Float32Array).set(x.topP);
      (v.top_k_max as BigInt64Array)[0] = BigInt(k);
      const inTopK = v.in_top_k as Float32Array;
      for (let b = 0; b < batch; b++) for (let r = 0; r < k; r++) inTopK[b * k + r] = r < Number(x.topK[b]) ? 1 : 0;
    });
    return splitCodes(out.codes as Int32Array, batch, numSteps);
  }

  dispose(): Promise<void> {
    return this.runs.dispose();
  }
}
