// Unit tests for the speech tokenizer config parser: official values, validation errors by key path.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../src-shared/testing/thrown';
import { parseCodecConfig, readCodecConfig, totalUpsampling } from './codec-config';
import { syntheticCodecConfig } from './synthetic-codec';

function withDecoder(patch: Record<string, unknown>): Record<string, unknown> {
  const raw = syntheticCodecConfig('0.6b');
  return { ...raw, decoder_config: { ...(raw.decoder_config as object), ...patch } };
}

describe('parseCodecConfig', () => {
  it('reads the official decoder values into camelCase fields', () => {
    const c = parseCodecConfig(syntheticCodecConfig('0.6b'));
    expect(c.outputSampleRateHz).toBe(24000);
    expect(c.samplesPerFrame).toBe(1920);
    expect(c.decoder).toMatchObject({
      codebookSize: 2048, codebookDim: 512, latentDim: 1024, hiddenSize: 512, intermediateSize: 1024, numHiddenLayers: 8,
      numAttentionHeads: 16, numKeyValueHeads: 16, headDim: 64, slidingWindow: 72, ropeTheta: 10000, rmsNormEps: 1e-5,
      numQuantizers: 16, numSemanticQuantizers: 1, decoderDim: 1536,
    });
    expect(c.decoder.upsampleRates).toEqual([8, 5, 4, 3]);
    expect(c.decoder.upsamplingRatios).toEqual([2, 2]);
    // 2 · 2 · 8 · 5 · 4 · 3 = 1920 samples per 80 ms frame
    expect(totalUpsampling(c.decoder)).toBe(1920);
    expect(Object.isFrozen(c.decoder)).toBe(true);
  });

  it('names the key path of a missing field', () => {
    const raw = withDecoder({});
    delete (raw.decoder_config as Record<string, unknown>).sliding_window;
    const err = thrown(() => parseCodecConfig(raw));
    expect(err.code).toBe('model-invalid');
    expect(err.message).toContain('decoder_config.sliding_window');
  });

  it('rejects strides that do not multiply to decode_upsample_rate', () => {
    const err = thrown(() => parseCodecConfig(withDecoder({ upsample_rates: [8, 5, 4, 2] })));
    expect(err.code).toBe('model-invalid');
    expect(err.message).toContain('1280');
  });

  it('rejects a non-integer list entry naming its index', () => {
    const err = thrown(() => parseCodecConfig(withDecoder({ upsampling_ratios: [2, 2.5] })));
    expect(err.message).toContain('decoder_config.upsampling_ratios[1]');
  });

  it('marks an activation other than silu as unsupported', () => {
    expect(thrown(() => parseCodecConfig(withDecoder({ hidden_act: 'gelu' }))).code).toBe('unsupported');
  });

  it('reads config.json from disk and reports a missing file as model-missing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codec-config-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify(syntheticCodecConfig('tiny')));
    expect(readCodecConfig(file).decoder.hiddenSize).toBe(32);
    expect(thrown(() => readCodecConfig(path.join(dir, 'absent.json'))).code).toBe('model-missing');
    fs.writeFileSync(file, '{ not json');
    expect(thrown(() => readCodecConfig(file)).code).toBe('model-invalid');
    fs.rmSync(dir, { recursive: true });
  });
});
