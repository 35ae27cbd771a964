/**
 * The speech-tokenizer decoder's tensor inventory: every official `decoder.*` name with the shape
 * the config implies (checkpoint-tensors.md), and a check of a checkpoint's tensors against it.
 * Encoder tensors (`encoder.*`) are ignored: only the decoder is built. Pure; no I/O.
 */
import { StudioError } from '../../../src-shared/errors';
import type { CodecConfig } from './codec-config';

export interface CodecTensor {
  shape: readonly number[];
  data: Float32Array;
}

/** Decoder tensors by official name. */
export type CodecTensors = ReadonlyMap<string, CodecTensor>;

/** name → expected shape, in checkpoint order. */
export function expectedCodecTensorShapes(config: CodecConfig): Map<string, number[]> {
  const d = config.decoder;
  const shapes = new Map<string, number[]>();
  const put = (name: string, shape: number[]): void => void shapes.set(`decoder.${name}`, shape);
  const qDim = d.numAttentionHeads * d.headDim;
  const kvDim = d.numKeyValueHeads * d.headDim;
  for (let i = 0; i < d.numHiddenLayers; i++) {
    const p = `pre_transformer.layers.${i}`;
    put(`${p}.self_attn.q_proj.weight`, [qDim, d.hiddenSize]);
    put(`${p}.self_attn.k_proj.weight`, [kvDim, d.hiddenSize]);
    put(`${p}.self_attn.v_proj.weight`, [kvDim, d.hiddenSize]);
    put(`${p}.self_attn.o_proj.weight`, [d.hiddenSize, qDim]);
    put(`${p}.mlp.gate_proj.weight`, [d.intermediateSize, d.hiddenSize]);
    put(`${p}.mlp.up_proj.weight`, [d.intermediateSize, d.hiddenSize]);
    put(`${p}.mlp.down_proj.weight`, [d.hiddenSize, d.intermediateSize]);
    put(`${p}.input_layernorm.weight`, [d.hiddenSize]);
    put(`${p}.post_attention_layernorm.weight`, [d.hiddenSize]);
    put(`${p}.self_attn_layer_scale.scale`, [d.hiddenSize]);
    put(`${p}.mlp_layer_scale.scale`, [d.hiddenSize]);
  }
  put('pre_transformer.norm.weight', [d.hiddenSize]);
  put('pre_transformer.input_proj.weight', [d.hiddenSize, d.latentDim]);
  put('pre_transformer.input_proj.bias', [d.hiddenSize]);
  put('pre_transformer.output_proj.weight', [d.latentDim, d.hiddenSize]);
  put('pre_transformer.output_proj.bias', [d.latentDim]);
  const vqDim = d.codebookDim / 2;
  const groups: [string, number][] = [
    ['rvq_first', d.numSemanticQuantizers],
    ['rvq_rest', d.numQuantizers - d.numSemanticQuantizers],
  ];
  for (const [group, numLayers] of groups) {
    put(`quantizer.${group}.input_proj.weight`, [vqDim, d.codebookDim, 1]); // encoder side; checked, unused
    put(`quantizer.${group}.output_proj.weight`, [d.codebookDim, vqDim, 1]);
    for (let i = 0; i < numLayers; i++) {
      put(`quantizer.${group}.vq.layers.${i}._codebook.cluster_usage`, [d.codebookSize]);
      put(`quantizer.${group}.vq.layers.${i}._codebook.embedding_sum`, [d.codebookSize, vqDim]);
    }
  }
  put('pre_conv.conv.weight', [d.latentDim, d.codebookDim, 3]);
  put('pre_conv.conv.bias', [d.latentDim]);
  d.upsamplingRatios.forEach((ratio, i) => {
    const c = d.latentDim;
    put(`upsample.${i}.0.conv.weight`, [c, c, ratio]);
    put(`upsample.${i}.0.conv.bias`, [c]);
    put(`upsample.${i}.1.gamma`, [c]);
    put(`upsample.${i}.1.dwconv.conv.weight`, [c, 1, 7]);
    put(`upsample.${i}.1.dwconv.conv.bias`, [c]);
    put(`upsample.${i}.1.norm.weight`, [c]);
    put(`upsample.${i}.1.norm.bias`, [c]);
    put(`upsample.${i}.1.pwconv1.weight`, [4 * c, c]);
    put(`upsample.${i}.1.pwconv1.bias`, [4 * c]);
    put(`upsample.${i}.1.pwconv2.weight`, [c, 4 * c]);
    put(`upsample.${i}.1.pwconv2.bias`, [c]);
  });
  put('decoder.0.conv.weight', [d.decoderDim, d.latentDim, 7]);
  put('decoder.0.conv.bias', [d.decoderDim]);
  d.upsampleRates.forEach((rate, i) => {
    const inDim = d.decoderDim / 2 ** i;
    const outDim = inDim / 2;
    const p = `decoder.${i + 1}.block`;
    put(`${p}.0.alpha`, [inDim]);
    put(`${p}.0.beta`, [inDim]);
    put(`${p}.1.conv.weight`, [inDim, outDim, 2 * rate]);
    put(`${p}.1.conv.bias`, [outDim]);
    for (let u = 2; u <= 4; u++) {
      put(`${p}.${u}.act1.alpha`, [outDim]);
      put(`${p}.${u}.act1.beta`, [outDim]);
      put(`${p}.${u}.conv1.conv.weight`, [outDim, outDim, 7]);
      put(`${p}.${u}.conv1.conv.bias`, [outDim]);
      put(`${p}.${u}.act2.alpha`, [outDim]);
      put(`${p}.${u}.act2.beta`, [outDim]);
      put(`${p}.${u}.conv2.conv.weight`, [outDim, outDim, 1]);
      put(`${p}.${u}.conv2.conv.bias`, [outDim]);
    }
  });
  const numBlocks = d.upsampleRates.length;
  const outDim = d.decoderDim / 2 ** numBlocks;
  put(`decoder.${numBlocks + 1}.alpha`, [outDim]);
  put(`decoder.${numBlocks + 1}.beta`, [outDim]);
  put(`decoder.${numBlocks + 2}.conv.weight`, [1, outDim, 7]);
  put(`decoder.${numBlocks + 2}.conv.bias`, [1]);
  return shapes;
}

/**
 * Throws 'model-invalid' naming the first missing tensor, the first shape mismatch (tensor,
 * expected, actual) or the first unexpected `decoder.*` name; data length must match the shape.
 */
export function checkCodecTensorShapes(tensors: ReadonlyMap<string, { shape: readonly number[]; data?: ArrayLike<number> }>, config: CodecConfig): void {
  const expected = expectedCodecTensorShapes(config);
  for (const [name, shape] of expected) {
    const t = tensors.get(name);
    if (!t) {
      throw new StudioError('model-invalid', `speech tokenizer tensor '${name}' is missing (expected shape [${shape.join(', ')}]); use the checkpoint that matches speech_tokenizer/config.json`, { tensor: name, expected: shape });
    }
    if (t.shape.length !== shape.length || t.shape.some((v, i) => v !== shape[i])) {
      throw new StudioError('model-invalid', `speech tokenizer tensor '${name}' has shape [${t.shape.join(', ')}] but the config implies [${shape.join(', ')}]; use the checkpoint that matches speech_tokenizer/config.json`, { tensor: name, expected: shape, actual: [...t.shape] });
    }
    const numElements = shape.reduce((a, b) => a * b, 1);
    if (t.data && t.data.length !== numElements) {
      throw new StudioError('model-invalid', `speech tokenizer tensor '${name}' holds ${t.data.length} values but shape [${shape.join(', ')}] needs ${numElements}; the file is truncated or mis-read`, { tensor: name, numValues: t.data.length, numExpected: numElements });
    }
  }
  for (const name of tensors.keys()) {
    if (name.startsWith('decoder.') && !expected.has(name)) {
      throw new StudioError('model-invalid', `speech tokenizer tensor '${name}' is not part of the decoder the config describes; use the checkpoint that matches speech_tokenizer/config.json`, { tensor: name });
    }
  }
}
