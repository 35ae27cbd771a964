/**
 * The slow, obviously correct single-request pipeline (llm.c style reference): batch of one, one
 * stage call after another, the whole codec decode at the end with no chunking. Produces the
 * goldens under src-main/engine/golden/ and the expectation the batched engine must match.
 */
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-format/manifest';
import type { EngineConfig } from './engine-config';
import { createSequence } from './create-sequence';
import { codecFrames, codePredictorRow, frameEmbed, promptEmbeds, type FrameContext } from './frame-steps';
import type { ModelStages } from './stages/stages';
import { counterUniform } from './sampling/counter-rng';
import { sampleTalkerToken } from './sampling/sampler';
import type { TextTokenizer } from './tokenizer';

export async function referenceSynthesis(
  stages: ModelStages,
  manifest: ModelManifest,
  tokenizer: TextTokenizer,
  config: EngineConfig,
  request: SynthesisRequest,
): Promise<{ codes: number[][]; pcm: Float32Array; truncated: boolean }> {
  const sequence = createSequence(0, request, manifest, tokenizer, config, 0);
  const ctx: FrameContext = {
    stages,
    codec: config.codec,
    batchCodec: false,
    rules: { eosId: manifest.codecTokens.eos, controlStartId: manifest.codePredictor.vocabSize, controlEndId: manifest.talker.vocabSize, minNewTokens: manifest.generation.minNewTokens },
  };
  const p = sequence.params;
  let [out] = await stages.talker.prefill([{ sequenceId: 0, embeds: promptEmbeds(ctx, sequence), numRows: sequence.prompt.rows.length }]);
  let truncated = false;
  for (let frame = 0; ; frame++) {
    if (frame >= sequence.maxFrames) {
      truncated = true;
      break;
    }
    const past = sequence.codes.map((f) => f[0]);
    const c0 = sampleTalkerToken(out.logits.slice(), { pastTokens: past, numGenerated: frame }, p, ctx.rules, counterUniform(sequence.seed, frame, 0));
    if (c0 === ctx.rules.eosId) break;
    const [rest] = await stages.codePredictor.predict([codePredictorRow(ctx, sequence, out.hidden, c0)]);
    sequence.codes.push([c0, ...rest]);
    if (sequence.codes.length >= sequence.maxFrames) {
      truncated = true;
      break;
    }
    [out] = await stages.talker.decode([{ sequenceId: 0, embeds: frameEmbed(ctx, sequence), numRows: 1 }]);
  }
  stages.talker.release(0);
  // in-context requests: decode reference + generated codes, keep the generated frames' samples (as generate_voice_clone)
  const numPrefixSamples = sequence.codecPrefix.length * stages.codec.samplesPerFrame;
  const pcm = sequence.codes.length > 0 ? (await stages.codec.decode(codecFrames(sequence, -sequence.codecPrefix.length, sequence.codes.length))).slice(numPrefixSamples) : new Float32Array(0);
  return { codes: sequence.codes, pcm, truncated };
}
