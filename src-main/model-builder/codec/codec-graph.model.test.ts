// Model tests: the codec ONNX graph on onnxruntime-node CPU against the reference decoder, chunked vs
// full decoding through the graph (exact for the tiny window, measured for window 72), external data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from '../../engine/runtime/ort';
import { parseCodecConfig, type CodecConfig } from './codec-config';
import { createCodecCodes, sliceCodecFrames, type CodecCodes } from '../../model-format/codec/codec-codes';
import {
  CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STATIC_ATTENTION_BIAS, CODEC_STATIC_KEY_POSITIONS, CODEC_STATIC_QUERY_POSITIONS, CODEC_STREAM_NUM_CACHED,
  writeJoinInputs, writeStreamStaticMask, writeStreamStaticPositions,
} from '../../model-format/codec/codec-stream-io';
import { buildCodecDecoderGraph, buildCodecStreamGraph, writeCodecDecoderGraph } from './codec-graph';
import type { CodecStreamStateSpec } from './codec-graph-blocks';
import { codecReceptiveFieldFrames } from './codec-receptive-field';
import type { GraphOps } from '../../model-format/onnx/graph-builder';
import { ModelProtoType } from '../../model-format/onnx/onnx-schema';
import type { CodecTensors } from './codec-tensor-shapes';
import { decodeChunked } from '../../model-format/codec/chunked-decode';
import { referenceCodecDecode } from './reference-codec';
import { syntheticCodecConfig, syntheticCodecTensors } from './synthetic-codec';

const MAX_FP32_DIFF = 1e-4;
const MAX_FP16_WEIGHT_DIFF = 3e-2;

const sessions: OrtSession[] = [];

async function openCodec(config: CodecConfig, tensors: CodecTensors, dtype: 'fp32' | 'fp16' = 'fp32', ops: GraphOps = 'portable'): Promise<(codes: CodecCodes) => Promise<Float32Array>> {
  const session = await createSession(buildCodecDecoderGraph(tensors, config, dtype, { ops }), { provider: 'cpu', intraOpNumThreads: 1 });
  sessions.push(session);
  return async (codes) => {
    const out = await runSession(session, { [CODEC_GRAPH_INPUT]: tensor('int64', codes.data, [codes.batchSize, codes.numQuantizers, codes.numFrames]) });
    expect(out[CODEC_GRAPH_OUTPUT].dims).toEqual([codes.batchSize, codes.numFrames * config.samplesPerFrame]);
    return out[CODEC_GRAPH_OUTPUT].data as Float32Array;
  };
}

function codesFor(batchSize: number, numFrames: number, salt: number): CodecCodes {
  return createCodecCodes(Array.from({ length: batchSize * 16 * numFrames }, (_, i) => (i * 7919 + salt * 104729 + 17) % 2048), batchSize, 16, numFrames);
}

function maxAbsDiff(a: Float32Array, b: Float32Array, tolerance = MAX_FP32_DIFF): number {
  expect(a.length).toBe(b.length);
  let maxDiff = 0;
  let firstBad = -1;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d > maxDiff) maxDiff = d;
    if (firstBad < 0 && d > tolerance) firstBad = i;
  }
  if (firstBad >= 0) console.log(`first difference above ${tolerance} at ${firstBad}: ${a[firstBad]} vs ${b[firstBad]} (maxDiff ${maxDiff})`);
  return maxDiff;
}

function tinyVariant(slidingWindow: number, seed: number): { config: CodecConfig; tensors: CodecTensors } {
  const raw = syntheticCodecConfig('tiny');
  const variant = { ...raw, decoder_config: { ...(raw.decoder_config as object), sliding_window: slidingWindow } };
  return { config: parseCodecConfig(variant), tensors: new Map([...syntheticCodecTensors(variant, seed)].map((t) => [t.name, t])) };
}

describe('codec decoder graph (tiny, ORT CPU)', () => {
  const { config, tensors } = tinyVariant(8, 31);
  let decode: (codes: CodecCodes) => Promise<Float32Array>;

  beforeAll(async () => {
    decode = await openCodec(config, tensors);
  });

  afterAll(async () => {
    for (const s of sessions.splice(0)) await disposeSession(s);
  });

  it('matches the reference within 1e-4 at batch 1', async () => {
    const codes = codesFor(1, 9, 1);
    expect(maxAbsDiff(await decode(codes), referenceCodecDecode(codes, tensors, config))).toBeLessThan(MAX_FP32_DIFF);
  });

  it('matches the reference within 1e-4 at batch 3 with different codes per row', async () => {
    const codes = codesFor(3, 6, 2);
    expect(maxAbsDiff(await decode(codes), referenceCodecDecode(codes, tensors, config))).toBeLessThan(MAX_FP32_DIFF);
  });

  it("with the 'fused' op set (RotaryEmbedding, SimplifiedLayerNormalization) matches the reference within 1e-4 in fewer nodes", async () => {
    const fused = await openCodec(config, tensors, 'fp32', 'fused');
    const codes = codesFor(3, 7, 7);
    expect(maxAbsDiff(await fused(codes), referenceCodecDecode(codes, tensors, config))).toBeLessThan(MAX_FP32_DIFF);
    const opCounts = (ops: GraphOps): Map<string, number> => {
      const model = ModelProtoType.decode(buildCodecDecoderGraph(tensors, config, 'fp32', { ops })) as unknown as { graph: { node: { opType: string }[] } };
      const counts = new Map<string, number>();
      for (const n of model.graph.node) counts.set(n.opType, (counts.get(n.opType) ?? 0) + 1);
      return counts;
    };
    const [fusedOps, portableOps] = [opCounts('fused'), opCounts('portable')];
    const numLayers = config.decoder.numHiddenLayers;
    expect(fusedOps.get('RotaryEmbedding')).toBe(2 * numLayers); // q and k of every pre-transformer layer
    expect(fusedOps.get('SimplifiedLayerNormalization')).toBe(2 * numLayers + 1);
    expect(portableOps.get('RotaryEmbedding')).toBeUndefined();
    const numNodes = (c: Map<string, number>) => [...c.values()].reduce((a, b) => a + b, 0);
    expect(numNodes(fusedOps)).toBeLessThan(numNodes(portableOps));
    // the two code groups are the only Slices: the RVQ sum is folded into the output projections (no
    // Slice per codebook) and transposed convs trim by padding; portable RoPE adds 2 per q and k
    expect(fusedOps.get('Slice')).toBe(2);
    expect(portableOps.get('Slice')).toBe(2 + 4 * numLayers);
  });

  it('accepts any length, down to one frame', async () => {
    const codes = codesFor(2, 1, 3);
    expect(maxAbsDiff(await decode(codes), referenceCodecDecode(codes, tensors, config))).toBeLessThan(MAX_FP32_DIFF);
  });

  it('with fp16 weights stays within 3e-2 of the reference and is half the size', async () => {
    const fp16 = await openCodec(config, tensors, 'fp16');
    const codes = codesFor(1, 6, 4);
    const diff = maxAbsDiff(await fp16(codes), referenceCodecDecode(codes, tensors, config), MAX_FP16_WEIGHT_DIFF);
    expect(diff).toBeLessThan(MAX_FP16_WEIGHT_DIFF);
    expect(diff).toBeGreaterThan(0); // really rounded weights
    const numFp32Bytes = buildCodecDecoderGraph(tensors, config, 'fp32').byteLength;
    expect(buildCodecDecoderGraph(tensors, config, 'fp16').byteLength).toBeLessThan(0.55 * numFp32Bytes);
  });

  it('decodes chunk by chunk (4, then 8 frames, 25 of context) equal to one full decode within 1e-4', async () => {
    const codes = codesFor(2, 60, 5);
    const full = await decode(codes);
    const chunked = await decodeChunked(codes, decode, config.samplesPerFrame);
    expect(maxAbsDiff(full, chunked)).toBeLessThan(MAX_FP32_DIFF);
  });

  it('reports the per-frame cost of the tiny codec on one CPU thread', async () => {
    const codes = codesFor(1, 100, 6);
    await decode(codes);
    const started = performance.now();
    for (let i = 0; i < 3; i++) await decode(codes);
    const msPerFrame = (performance.now() - started) / 3 / codes.numFrames;
    console.log(`tiny codec, ORT CPU, 1 thread: ${msPerFrame.toFixed(3)} ms per 80 ms frame (100-frame call)`);
    expect(msPerFrame).toBeLessThan(80); // far faster than real time
  });

  it('loads from a path with external data and gives the same PCM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codec-graph-'));
    const onnxPath = path.join(dir, 'codec.onnx');
    const written = writeCodecDecoderGraph(onnxPath, tensors, config, 'fp32', { dataPath: path.join(dir, 'codec.onnx.data'), location: 'codec.onnx.data' });
    expect(written.numExternalBytes).toBeGreaterThan(written.numModelBytes);
    const session = await createSession(onnxPath, { provider: 'cpu', intraOpNumThreads: 1 });
    sessions.push(session);
    const codes = codesFor(1, 4, 7);
    const out = await runSession(session, { [CODEC_GRAPH_INPUT]: tensor('int64', codes.data, [1, 16, 4]) });
    expect(Array.from(out[CODEC_GRAPH_OUTPUT].data as Float32Array)).toEqual(Array.from(await decode(codes)));
    fs.rmSync(dir, { recursive: true });
  });
});

describe('chunked decoding when the sliding window (72) exceeds the left context', () => {
  const { config, tensors } = tinyVariant(72, 7);

  afterAll(async () => {
    for (const s of sessions.splice(0)) await disposeSession(s);
  });

  it('differs from a full decode at 25 frames of context and is exact once the context covers the receptive field', async () => {
    const decode = await openCodec(config, tensors);
    const codes = codesFor(1, 150, 8);
    const full = await decode(codes);
    const at25 = maxAbsDiff(full, await decodeChunked(codes, decode, config.samplesPerFrame), Infinity);
    const receptiveField = codecReceptiveFieldFrames(config.decoder); // 2 + 71 + ≈ 9.4 → 83
    const covered = await decodeChunked(codes, decode, config.samplesPerFrame, { chunkFrames: 8, firstChunkFrames: 4, leftContextFrames: receptiveField });
    const atReceptive = maxAbsDiff(full, covered);
    console.log(`tiny codec, window 72, LayerScale ≈ 0.3: max |chunked − full| = ${at25.toExponential(2)} at 25 frames of context, ${atReceptive.toExponential(2)} at ${receptiveField}`);
    expect(at25).toBeGreaterThan(MAX_FP32_DIFF);
    expect(atReceptive).toBeLessThan(MAX_FP32_DIFF);
  });
});

describe('streaming codec graph (state carried between calls)', () => {
  afterAll(async () => {
    for (const s of sessions.splice(0)) await disposeSession(s);
  });

  /** Decodes `codes` call by call with chunks of `sizes` new frames, carrying each row's state. */
  async function decodeStreamed(session: OrtSession, config: CodecConfig, states: CodecStreamStateSpec[], codes: CodecCodes, sizes: number[]): Promise<Float32Array[]> {
    const B = codes.batchSize;
    let carried = states.map((s) => tensor('float32', new Float32Array(B * s.dims[0] * s.dims[1]), [B, ...s.dims]));
    const perRow: Float32Array[][] = Array.from({ length: B }, () => []);
    let start = 0;
    for (const size of sizes) {
      const window = sliceCodecFrames(codes, start, start + size);
      const numCached = BigInt64Array.from({ length: B }, () => BigInt(Math.min(start, config.decoder.slidingWindow - 1)));
      const feeds: Record<string, ReturnType<typeof tensor>> = {
        [CODEC_GRAPH_INPUT]: tensor('int64', window.data, [B, window.numQuantizers, size]),
        [CODEC_STREAM_NUM_CACHED]: tensor('int64', numCached, [B]),
      };
      states.forEach((s, i) => (feeds[s.input] = carried[i]));
      const out = await runSession(session, feeds);
      const pcm = out[CODEC_GRAPH_OUTPUT].data as Float32Array;
      const n = size * config.samplesPerFrame;
      for (let b = 0; b < B; b++) perRow[b].push(pcm.slice(b * n, (b + 1) * n));
      carried = states.map((s) => out[s.output]);
      start += size;
    }
    return perRow.map((parts) => Float32Array.from(parts.flatMap((p) => Array.from(p))));
  }

  it.each([
    ['window 8 (a full carry after 7 frames)', 8, 'portable'],
    ['window 72 (the carry fills up over the calls)', 72, 'portable'],
    ['window 72, fused op set', 72, 'fused'],
  ] as const)('%s: chunk by chunk equals one full reference decode within 1e-4', async (_label, slidingWindow, ops) => {
    const { config, tensors } = tinyVariant(slidingWindow, 11);
    const { bytes, states } = buildCodecStreamGraph(tensors, config, 'fp32', ops);
    // pre_conv, 2 ConvNeXt depthwise convs, decoder.0, per block a transposed conv and 3 dilated convs, the final conv; k and v per layer
    expect(states.length).toBe(1 + 2 + 1 + config.decoder.upsampleRates.length * 4 + 1 + 2 * config.decoder.numHiddenLayers);
    const session = await createSession(bytes, { provider: 'cpu', intraOpNumThreads: 1 });
    sessions.push(session);
    const numFrames = 90;
    const codes = codesFor(2, numFrames, 9);
    const sizes = [1, 2, 4, ...Array.from({ length: 10 }, () => 8), 3];
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(numFrames);
    const streamed = await decodeStreamed(session, config, states, codes, sizes);
    const full = referenceCodecDecode(codes, tensors, config);
    const numSamples = numFrames * config.samplesPerFrame;
    for (let b = 0; b < 2; b++) expect(maxAbsDiff(streamed[b], full.subarray(b * numSamples, (b + 1) * numSamples))).toBeLessThan(MAX_FP32_DIFF);
  });

  it.each(['portable', 'fused'] as const)(
    '%s ops: the static form (mask and positions from the host) gives the stream graph\'s PCM and state bytes, rows at different frame counts',
    async (ops) => {
      const { config, tensors } = tinyVariant(8, 5);
      const stream = buildCodecStreamGraph(tensors, config, 'fp32', ops);
      const fixed = buildCodecStreamGraph(tensors, config, 'fp32', ops, 'stream-static');
      expect(fixed.states).toEqual(stream.states);
      const [dynamicSession, staticSession] = await Promise.all([stream.bytes, fixed.bytes].map((b) => createSession(b, { provider: 'cpu', intraOpNumThreads: 1 })));
      sessions.push(dynamicSession, staticSession);
      const W = config.decoder.slidingWindow;
      const B = 3;
      const codes = codesFor(B, 24, 3);
      // row r has decoded 0, 3 and 11 frames before the first call (more than W − 1 = 7 for the last)
      let numDecoded = [0, 3, 11];
      let carried = stream.states.map((s, i) => tensor('float32', Float32Array.from({ length: B * s.dims[0] * s.dims[1] }, (_, k) => Math.sin(k + i)), [B, ...s.dims]));
      let start = 0;
      for (const size of [1, 5, 8, 2, 8]) {
        const window = sliceCodecFrames(codes, start, start + size);
        const common: Record<string, ReturnType<typeof tensor>> = { [CODEC_GRAPH_INPUT]: tensor('int64', window.data, [B, window.numQuantizers, size]) };
        stream.states.forEach((s, i) => (common[s.input] = carried[i]));
        const mask = new Float32Array(B * size * (size + W - 1));
        writeStreamStaticMask(mask, numDecoded, size, W);
        // the static form takes int32 codes (no int64 node on GPU providers)
        const codes32 = tensor('int32', Int32Array.from(window.data as ArrayLike<number | bigint>, Number), [B, window.numQuantizers, size]);
        const staticFeeds: Record<string, ReturnType<typeof tensor>> = { ...common, [CODEC_GRAPH_INPUT]: codes32, [CODEC_STATIC_ATTENTION_BIAS]: tensor('float32', mask, [B, 1, 1, size, size + W - 1]) };
        // the carry joins' index and keep (no uneven Concat in the static form)
        expect(fixed.joins.length).toBeGreaterThan(0);
        for (const j of fixed.joins) {
          const length = size * j.framesScale + j.numState;
          const [index, keep] = [new Int32Array(length), new Float32Array(length)];
          writeJoinInputs(index, keep, j.numState);
          staticFeeds[j.index] = tensor('int32', index, [length]);
          staticFeeds[j.keep] = tensor('float32', keep, j.axis === 2 ? [1, 1, length] : [1, length, 1]);
        }
        if (ops === 'portable') {
          const [queries, keys] = [new BigInt64Array(size), new BigInt64Array(size + W - 1)];
          writeStreamStaticPositions(queries, keys, W);
          staticFeeds[CODEC_STATIC_QUERY_POSITIONS] = tensor('int64', queries, [1, size]);
          staticFeeds[CODEC_STATIC_KEY_POSITIONS] = tensor('int64', keys, [1, size + W - 1]);
        }
        const expected = await runSession(dynamicSession, { ...common, [CODEC_STREAM_NUM_CACHED]: tensor('int64', BigInt64Array.from(numDecoded, BigInt), [B]) });
        const actual = await runSession(staticSession, staticFeeds);
        for (const name of [CODEC_GRAPH_OUTPUT, ...stream.states.map((s) => s.output)]) {
          expect(Buffer.from((actual[name].data as Float32Array).buffer).equals(Buffer.from((expected[name].data as Float32Array).buffer)), `${name} after ${start} frames`).toBe(true);
        }
        carried = stream.states.map((s) => expected[s.output]);
        numDecoded = numDecoded.map((n) => n + size);
        start += size;
      }
    },
  );
});
