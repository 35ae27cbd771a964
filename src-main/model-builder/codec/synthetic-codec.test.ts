// Unit tests for the synthetic decoder: determinism by seed, official structure, EMA codebook format.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCodecConfig, totalUpsampling } from './codec-config';
import { codecReceptiveFieldFrames } from './codec-receptive-field';
import { expectedCodecTensorShapes } from './codec-tensor-shapes';
import { syntheticCodecConfig, syntheticCodecTensors } from './synthetic-codec';

function digest(size: 'tiny', seed: number): string {
  const hash = createHash('sha256');
  for (const t of syntheticCodecTensors(size, seed)) {
    hash.update(t.name);
    hash.update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  return hash.digest('hex');
}

describe('syntheticCodecConfig', () => {
  it('keeps the official strides, quantizers and codebook size in the tiny config', () => {
    const tiny = parseCodecConfig(syntheticCodecConfig('tiny')).decoder;
    expect(tiny.upsampleRates).toEqual([8, 5, 4, 3]);
    expect(tiny.upsamplingRatios).toEqual([2, 2]);
    expect(totalUpsampling(tiny)).toBe(1920);
    expect(tiny.numQuantizers).toBe(16);
    expect(tiny.codebookSize).toBe(2048);
  });

  it('gives 0.6b and 1.7b the same (shared) official tokenizer', () => {
    expect(syntheticCodecConfig('1.7b')).toEqual(syntheticCodecConfig('0.6b'));
  });

  it('sizes the tiny sliding window so its receptive field fits in 25 frames of context', () => {
    // 2 (pre_conv) + 1 layer × (8 − 1) + ≈ 9.4 frames of convolutions → 19
    expect(codecReceptiveFieldFrames(parseCodecConfig(syntheticCodecConfig('tiny')).decoder)).toBe(19);
    // 2 + 8 layers × 71 + ≈ 9.4 → 580: the official decoder is not exact at 25 frames of context
    expect(codecReceptiveFieldFrames(parseCodecConfig(syntheticCodecConfig('0.6b')).decoder)).toBe(580);
  });
});

describe('syntheticCodecTensors', () => {
  it('yields the same bytes for the same seed and different bytes for another seed', () => {
    const first = digest('tiny', 42);
    expect(digest('tiny', 42)).toBe(first);
    expect(digest('tiny', 43)).not.toBe(first);
  });

  it('yields every expected tensor once, in checkpoint order, with matching data lengths', () => {
    const config = parseCodecConfig(syntheticCodecConfig('tiny'));
    const tensors = [...syntheticCodecTensors('tiny', 1)];
    expect(tensors.map((t) => t.name)).toEqual([...expectedCodecTensorShapes(config).keys()]);
    for (const t of tensors) {
      expect(t.data.length).toBe(t.shape.reduce((a, b) => a * b, 1));
      expect(t.data.every(Number.isFinite)).toBe(true);
    }
  });

  it('stores codebooks as EMA sums: cluster_usage positive, embedding_sum / usage within ±1', () => {
    const byName = new Map([...syntheticCodecTensors('tiny', 5)].map((t) => [t.name, t]));
    const usage = byName.get('decoder.quantizer.rvq_rest.vq.layers.3._codebook.cluster_usage')!.data;
    const sum = byName.get('decoder.quantizer.rvq_rest.vq.layers.3._codebook.embedding_sum')!;
    const dim = sum.shape[1];
    expect(Math.min(...usage)).toBeGreaterThan(0.4);
    let maxAbs = 0;
    for (let i = 0; i < sum.data.length; i++) maxAbs = Math.max(maxAbs, Math.abs(sum.data[i] / usage[Math.floor(i / dim)]));
    expect(maxAbs).toBeLessThanOrEqual(1);
    expect(maxAbs).toBeGreaterThan(0.9);
  });

  it('rejects a seed outside 32 bits', () => {
    expect(() => [...syntheticCodecTensors('tiny', -1)]).toThrow(/seed/);
  });
});
