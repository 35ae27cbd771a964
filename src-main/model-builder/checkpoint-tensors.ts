/**
 * The talker-side tensor names and shapes a checkpoint must hold, derived from its config
 * (names as in the official model.safetensors; see docs checkpoint-tensors.md). Pure; used by the
 * checkpoint reader for shape checks and by the synthetic checkpoint writer for its layout.
 */
import type { CheckpointConfig } from './checkpoint-config';
import type { TransformerDims } from '../model-format/manifest';

export type TensorRole = 'linear' | 'norm' | 'embedding' | 'bias';

export interface ExpectedTensor {
  name: string;
  shape: number[];
  role: TensorRole;
}

function decoderLayerTensors(prefix: string, d: TransformerDims): ExpectedTensor[] {
  const q = d.numHeads * d.headDim;
  const kv = d.numKvHeads * d.headDim;
  const h = d.hiddenSize;
  const out: ExpectedTensor[] = [];
  for (let i = 0; i < d.numLayers; i++) {
    const p = `${prefix}.layers.${i}`;
    out.push(
      { name: `${p}.self_attn.q_proj.weight`, shape: [q, h], role: 'linear' },
      { name: `${p}.self_attn.k_proj.weight`, shape: [kv, h], role: 'linear' },
      { name: `${p}.self_attn.v_proj.weight`, shape: [kv, h], role: 'linear' },
      { name: `${p}.self_attn.o_proj.weight`, shape: [h, q], role: 'linear' },
      { name: `${p}.self_attn.q_norm.weight`, shape: [d.headDim], role: 'norm' },
      { name: `${p}.self_attn.k_norm.weight`, shape: [d.headDim], role: 'norm' },
      { name: `${p}.mlp.gate_proj.weight`, shape: [d.intermediateSize, h], role: 'linear' },
      { name: `${p}.mlp.up_proj.weight`, shape: [d.intermediateSize, h], role: 'linear' },
      { name: `${p}.mlp.down_proj.weight`, shape: [h, d.intermediateSize], role: 'linear' },
      { name: `${p}.input_layernorm.weight`, shape: [h], role: 'norm' },
      { name: `${p}.post_attention_layernorm.weight`, shape: [h], role: 'norm' },
    );
  }
  out.push({ name: `${prefix}.norm.weight`, shape: [h], role: 'norm' });
  return out;
}

/** Every talker + code-predictor tensor of model.safetensors, in the official order. */
export function expectedCheckpointTensors(config: CheckpointConfig): ExpectedTensor[] {
  const t = config.talker;
  const cp = config.codePredictor;
  const out = decoderLayerTensors('talker.model', t);
  out.push(
    { name: 'talker.model.codec_embedding.weight', shape: [t.vocabSize, t.hiddenSize], role: 'embedding' },
    { name: 'talker.model.text_embedding.weight', shape: [t.textVocabSize, t.textHiddenSize], role: 'embedding' },
    { name: 'talker.text_projection.linear_fc1.weight', shape: [t.textHiddenSize, t.textHiddenSize], role: 'linear' },
    { name: 'talker.text_projection.linear_fc1.bias', shape: [t.textHiddenSize], role: 'bias' },
    { name: 'talker.text_projection.linear_fc2.weight', shape: [t.hiddenSize, t.textHiddenSize], role: 'linear' },
    { name: 'talker.text_projection.linear_fc2.bias', shape: [t.hiddenSize], role: 'bias' },
    { name: 'talker.codec_head.weight', shape: [t.vocabSize, t.hiddenSize], role: 'linear' },
  );
  out.push(...decoderLayerTensors('talker.code_predictor.model', cp));
  const numTables = config.numCodeGroups - 1;
  for (let i = 0; i < numTables; i++) {
    out.push({ name: `talker.code_predictor.model.codec_embedding.${i}.weight`, shape: [cp.vocabSize, t.hiddenSize], role: 'embedding' });
  }
  for (let i = 0; i < numTables; i++) {
    out.push({ name: `talker.code_predictor.lm_head.${i}.weight`, shape: [cp.vocabSize, cp.hiddenSize], role: 'linear' });
  }
  if (cp.hasInputProjection) {
    out.push(
      { name: 'talker.code_predictor.small_to_mtp_projection.weight', shape: [cp.hiddenSize, t.hiddenSize], role: 'linear' },
      { name: 'talker.code_predictor.small_to_mtp_projection.bias', shape: [cp.hiddenSize], role: 'bias' },
    );
  }
  return out;
}
