// Unit tests for chunked decoding: planning, config resolution, seam bookkeeping, exactness vs a full decode.
import { describe, expect, it } from 'vitest';
import { parseCodecConfig } from '../../model-builder/codec/codec-config';
import { createCodecCodes, type CodecCodes } from './codec-codes';
import { codecReceptiveFieldFrames } from '../../model-builder/codec/codec-receptive-field';
import {
  codecChunkSize, decodeChunked, decodeCodecChunks, defaultChunkedDecodeConfig, nextCodecChunk, planCodecChunks, resolveChunkedDecodeConfig,
} from './chunked-decode';
import { referenceCodecDecode } from '../../model-builder/codec/reference-codec';
import { syntheticCodecConfig, syntheticCodecTensors } from '../../model-builder/codec/synthetic-codec';

const MAX_CHUNK_DIFF = 1e-4;

describe('chunk planning', () => {
  it('uses a 4-frame first chunk, then 8-frame chunks with up to 25 frames of left context', () => {
    expect(defaultChunkedDecodeConfig()).toEqual({ chunkFrames: 8, firstChunkFrames: 4, leftContextFrames: 25 });
    const chunks = planCodecChunks(45, defaultChunkedDecodeConfig());
    // 45 = 4 + 8 · 5 + 1
    expect(chunks.map((c) => [c.startFrame, c.endFrame, c.contextFrames])).toEqual([
      [0, 4, 0], [4, 12, 4], [12, 20, 12], [20, 28, 20], [28, 36, 25], [36, 44, 25], [44, 45, 25],
    ]);
  });

  it('grows a small first chunk by doubling up to chunkFrames (1, 2, 4, 8, 8, …)', () => {
    const config = resolveChunkedDecodeConfig({ firstChunkFrames: 1 });
    expect(planCodecChunks(30, config).map((c) => c.endFrame - c.startFrame)).toEqual([1, 2, 4, 8, 8, 7]);
    expect([0, 1, 2, 3, 6, 7, 15, 100].map((n) => codecChunkSize(n, config))).toEqual([1, 2, 2, 4, 4, 8, 8, 8]);
    // a first chunk that is not a power-of-two fraction stops at chunkFrames
    expect(planCodecChunks(20, resolveChunkedDecodeConfig({ firstChunkFrames: 3 })).map((c) => c.endFrame - c.startFrame)).toEqual([3, 6, 8, 3]);
    // slow reference: plan chunk by chunk with the rule written out
    for (const first of [1, 2, 3, 5, 8]) {
      const c = resolveChunkedDecodeConfig({ firstChunkFrames: first });
      const expected: number[] = [];
      for (let done = 0, size = first; done < 50; done += Math.min(size, 50 - done), size = Math.min(2 * size, c.chunkFrames)) expected.push(Math.min(size, 50 - done));
      expect(planCodecChunks(50, c).map((k) => k.endFrame - k.startFrame)).toEqual(expected);
    }
  });

  it('waits for a full chunk while streaming and flushes the remainder at the end', () => {
    const config = defaultChunkedDecodeConfig();
    expect(nextCodecChunk(0, 3, false, config)).toBeNull();
    expect(nextCodecChunk(0, 4, false, config)).toEqual({ startFrame: 0, endFrame: 4, contextFrames: 0 });
    expect(nextCodecChunk(4, 11, false, config)).toBeNull();
    expect(nextCodecChunk(4, 11, true, config)).toEqual({ startFrame: 4, endFrame: 11, contextFrames: 4 });
    expect(nextCodecChunk(11, 11, true, config)).toBeNull();
  });
});

describe('resolveChunkedDecodeConfig', () => {
  it('applies overrides and freezes the result', () => {
    const c = resolveChunkedDecodeConfig({ chunkFrames: 25, leftContextFrames: 50 });
    expect(c).toEqual({ chunkFrames: 25, firstChunkFrames: 4, leftContextFrames: 50 });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('rejects an unknown key naming its path', () => {
    expect(() => resolveChunkedDecodeConfig({ chunkSize: 8 })).toThrow("unknown setting 'codec.chunking.chunkSize'");
  });

  it('rejects a left context below 25 frames and non-integers', () => {
    expect(() => resolveChunkedDecodeConfig({ leftContextFrames: 24 })).toThrow(/at least 25/);
    expect(() => resolveChunkedDecodeConfig({ chunkFrames: 2.5 })).toThrow(/positive integer/);
  });
});

describe('decodeChunked', () => {
  it('drops exactly the context samples: a decoder that writes frame indices comes back in order', async () => {
    // fake decoder: every sample of window frame f carries the code of quantizer 0 at f, per row
    const numFrames = 37;
    const samplesPerFrame = 3;
    const codes = createCodecCodes(Array.from({ length: 2 * 16 * numFrames }, (_, i) => i % numFrames + 100 * Math.floor(i / (16 * numFrames))), 2, 16, numFrames);
    const fake = async (window: CodecCodes): Promise<Float32Array> => {
      const out = new Float32Array(window.batchSize * window.numFrames * samplesPerFrame);
      for (let b = 0; b < window.batchSize; b++) {
        for (let f = 0; f < window.numFrames; f++) {
          out.fill(Number(window.data[b * 16 * window.numFrames + f]), (b * window.numFrames + f) * samplesPerFrame, (b * window.numFrames + f + 1) * samplesPerFrame);
        }
      }
      return out;
    };
    const pcm = await decodeChunked(codes, fake, samplesPerFrame);
    const expected = Array.from({ length: 2 * numFrames * samplesPerFrame }, (_, i) => Math.floor((i % (numFrames * samplesPerFrame)) / samplesPerFrame) + 100 * Math.floor(i / (numFrames * samplesPerFrame)));
    expect(Array.from(pcm)).toEqual(expected);
  });

  it('reports a decode function that returns the wrong number of samples', async () => {
    const codes = createCodecCodes(new Array(16 * 5).fill(0), 1, 16, 5);
    const chunks = decodeCodecChunks(codes, async () => new Float32Array(7), 1920, defaultChunkedDecodeConfig());
    await expect(chunks.next()).rejects.toThrow(/returned 7 samples/);
  });

  it('equals a full reference decode within 1e-4 when the context covers the receptive field (tiny codec)', async () => {
    const config = parseCodecConfig(syntheticCodecConfig('tiny'));
    expect(codecReceptiveFieldFrames(config.decoder)).toBeLessThanOrEqual(25);
    const tensors = new Map([...syntheticCodecTensors('tiny', 21)].map((t) => [t.name, t]));
    const numFrames = 36; // chunks 4 + 8 + 8 + 8 + 8; the last two have the full 25 frames of context
    const codes = createCodecCodes(Array.from({ length: 16 * numFrames }, (_, i) => (i * 7919 + 5) % 2048), 1, 16, numFrames);
    const full = referenceCodecDecode(codes, tensors, config);
    const chunked = await decodeChunked(codes, async (c) => referenceCodecDecode(c, tensors, config), config.samplesPerFrame);
    let maxDiff = 0;
    for (let i = 0; i < full.length; i++) maxDiff = Math.max(maxDiff, Math.abs(full[i] - chunked[i]));
    expect(maxDiff).toBeLessThan(MAX_CHUNK_DIFF);
  });
});
