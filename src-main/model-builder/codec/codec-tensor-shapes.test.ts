// Unit tests for the decoder tensor inventory and the shape check against checkpoint-tensors.md.
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../src-shared/testing/thrown';
import { parseCodecConfig } from './codec-config';
import { checkCodecTensorShapes, expectedCodecTensorShapes } from './codec-tensor-shapes';
import { syntheticCodecConfig, syntheticCodecTensors } from './synthetic-codec';

const official = parseCodecConfig(syntheticCodecConfig('0.6b'));
const tiny = parseCodecConfig(syntheticCodecConfig('tiny'));

function shapesOnly(config = tiny): Map<string, { shape: number[] }> {
  return new Map([...expectedCodecTensorShapes(config)].map(([name, shape]) => [name, { shape }]));
}

describe('expectedCodecTensorShapes', () => {
  it('lists the 271 official decoder tensors with 114.32 M parameters', () => {
    const shapes = expectedCodecTensorShapes(official);
    expect(shapes.size).toBe(271);
    let numParams = 0;
    for (const s of shapes.values()) numParams += s.reduce((a, b) => a * b, 1);
    expect(numParams).toBe(114_323_137);
  });

  it('matches shapes quoted in checkpoint-tensors.md', () => {
    const s = expectedCodecTensorShapes(official);
    expect(s.get('decoder.pre_transformer.layers.7.self_attn.q_proj.weight')).toEqual([1024, 512]);
    expect(s.get('decoder.pre_transformer.input_proj.weight')).toEqual([512, 1024]);
    expect(s.get('decoder.quantizer.rvq_first.output_proj.weight')).toEqual([512, 256, 1]);
    expect(s.get('decoder.quantizer.rvq_rest.vq.layers.14._codebook.embedding_sum')).toEqual([2048, 256]);
    expect(s.get('decoder.upsample.1.1.dwconv.conv.weight')).toEqual([1024, 1, 7]);
    expect(s.get('decoder.decoder.1.block.1.conv.weight')).toEqual([1536, 768, 16]);
    expect(s.get('decoder.decoder.4.block.1.conv.weight')).toEqual([192, 96, 6]);
    expect(s.get('decoder.decoder.5.alpha')).toEqual([96]);
    expect(s.get('decoder.decoder.6.conv.weight')).toEqual([1, 96, 7]);
    expect(s.has('decoder.quantizer.rvq_rest.vq.layers.15._codebook.embedding_sum')).toBe(false);
  });
});

describe('checkCodecTensorShapes', () => {
  it('accepts the synthetic tiny checkpoint', () => {
    const tensors = new Map([...syntheticCodecTensors('tiny', 3)].map((t) => [t.name, t]));
    expect(() => checkCodecTensorShapes(tensors, tiny)).not.toThrow();
  });

  it('names the tensor, the expected and the actual shape on a mismatch', () => {
    const tensors = shapesOnly();
    tensors.set('decoder.pre_conv.conv.weight', { shape: [48, 32, 5] });
    const err = thrown(() => checkCodecTensorShapes(tensors, tiny));
    expect(err.code).toBe('model-invalid');
    expect(err.message).toContain("'decoder.pre_conv.conv.weight' has shape [48, 32, 5] but the config implies [48, 32, 3]");
    expect(err.details).toMatchObject({ tensor: 'decoder.pre_conv.conv.weight', expected: [48, 32, 3], actual: [48, 32, 5] });
  });

  it('names a missing tensor', () => {
    const tensors = shapesOnly();
    tensors.delete('decoder.decoder.2.block.3.act2.beta');
    expect(thrown(() => checkCodecTensorShapes(tensors, tiny)).message).toContain("'decoder.decoder.2.block.3.act2.beta' is missing");
  });

  it('rejects a decoder tensor the config does not describe but ignores encoder tensors', () => {
    const tensors = shapesOnly();
    tensors.set('encoder.conv.weight', { shape: [1] });
    expect(() => checkCodecTensorShapes(tensors, tiny)).not.toThrow();
    tensors.set('decoder.pre_transformer.layers.1.mlp.up_proj.weight', { shape: [64, 32] });
    expect(thrown(() => checkCodecTensorShapes(tensors, tiny)).message).toContain('layers.1.mlp.up_proj.weight');
  });

  it('rejects data whose length does not match the shape', () => {
    const tensors = new Map([...syntheticCodecTensors('tiny', 3)].map((t) => [t.name, t]));
    const bias = tensors.get('decoder.pre_conv.conv.bias')!;
    tensors.set('decoder.pre_conv.conv.bias', { ...bias, data: bias.data.subarray(1) });
    expect(thrown(() => checkCodecTensorShapes(tensors, tiny)).message).toContain('holds 47 values');
  });
});
