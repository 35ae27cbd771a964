/**
 * Code-predictor stage over the manifest's step graph: per frame, one call on [h, C(c0)] with an
 * empty past, then one call per remaining codebook fed with E_{j-1}(c_j) and the previous presents
 * (spec §1.5). All rows of a step share shapes and positions, so the batch needs no padding; each
 * row's token is sampled on the host (sampler.ts) with its own warpers and counter-RNG uniform.
 * SessionCodePredictor is what it shares with the loop graph's stage (code-predictor-loop.ts).
 */
import type { ModelManifest } from '../../model-format/manifest';
import { runSession, tensor, type OrtSession, type OrtTensor } from '../runtime/ort';
import { activationTensor, emptyActivation, toFloat32, type ActivationDtype } from './activations';
import { NO_TOKEN, sampleCodePredictorToken } from '../sampling/sampler';
import type { CodePredictorRow, CodePredictorStage, EmbeddingLookup } from './stages';

/** What the code predictors over one session share (the step graph here, the loop graph in code-predictor-loop.ts). */
export abstract class SessionCodePredictor implements CodePredictorStage {
  protected readonly dtype: ActivationDtype;
  /** Rows of every call, for tests and the bench. */
  readonly runBatchSizes: number[] = [];

  constructor(
    protected readonly session: OrtSession,
    protected readonly manifest: ModelManifest,
    protected readonly embeddings: EmbeddingLookup,
  ) {
    this.dtype = manifest.dtype === 'fp16' ? 'float16' : 'float32';
  }

  abstract predict(rows: readonly CodePredictorRow[]): Promise<number[][]>;

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

export class OrtCodePredictor extends SessionCodePredictor {
  async predict(rows: readonly CodePredictorRow[]): Promise<number[][]> {
    const batch = rows.length;
    const h = this.manifest.talker.hiddenSize;
    const cp = this.manifest.codePredictor;
    const numSteps = this.manifest.numCodeGroups - 1;
    this.runBatchSizes.push(batch);
    const codes: number[][] = rows.map(() => []);
    // sub-step 0: [h, C(c0)] → codebook 1
    let embeds = new Float32Array(batch * 2 * h);
    rows.forEach((r, b) => {
      embeds.set(r.hidden, b * 2 * h);
      this.embeddings.addCodec(r.c0, embeds, b * 2 * h + h);
    });
    let numNew = 2;
    let past: Record<string, OrtTensor> = {};
    for (let i = 0; i < cp.numLayers; i++) {
      for (const which of ['key', 'value']) {
        past[`past_${which}_${i}`] = tensor(this.dtype, emptyActivation(this.dtype, 0), [batch, cp.numKvHeads, 0, cp.headDim]);
      }
    }
    for (let step = 0; step < numSteps; step++) {
      const out = await runSession(this.session, {
        inputs_embeds: activationTensor(this.dtype, embeds, [batch, numNew, h]),
        generation_step: tensor('int64', BigInt64Array.of(BigInt(step)), []),
        ...past,
      });
      const logits = toFloat32(out.logits);
      const vocab = logits.length / batch;
      embeds = new Float32Array(batch * h);
      rows.forEach((r, b) => {
        const code = sampleCodePredictorToken(logits.slice(b * vocab, (b + 1) * vocab), r.warpers, r.uniforms[step]);
        codes[b].push(code);
        // a row without a token goes on with a zero embedding; the engine fails it after this call (frame-steps.ts)
        if (code !== NO_TOKEN) this.embeddings.addCodePredictorCodec(step, code, embeds, b * h);
      });
      numNew = 1;
      past = {};
      for (let i = 0; i < cp.numLayers; i++) {
        past[`past_key_${i}`] = out[`present_key_${i}`];
        past[`past_value_${i}`] = out[`present_value_${i}`];
      }
    }
    return codes;
  }
}
