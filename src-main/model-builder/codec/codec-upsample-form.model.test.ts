// Model tests: the codec's transposed convolutions written as MatMul + overlap-add ('matmul') against the
// ConvTranspose nodes ('conv-transpose') on ORT CPU: no ConvTranspose left, and the same PCM and carried state
// within 1e-5 of their scale (not always the same bytes: another GEMM path), window and stream graphs, one row and several,
// kernels of one stride and of two.
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor, type OrtSession } from '../../engine/runtime/ort';
import { parseCodecConfig, type CodecConfig } from './codec-config';
import { createCodecCodes, sliceCodecFrames, type CodecCodes } from '../../model-format/codec/codec-codes';
import { CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STREAM_NUM_CACHED } from '../../model-format/codec/codec-stream-io';
import { buildCodecDecoderGraph, buildCodecStreamGraph } from './codec-graph';
import type { CodecUpsampleForm } from '../../model-format/manifest';
import { ModelProtoType } from '../../model-format/onnx/onnx-schema';
import type { CodecTensors } from './codec-tensor-shapes';
import { referenceCodecDecode } from './reference-codec';
import { syntheticCodecConfig, syntheticCodecTensors } from './synthetic-codec';

const sessions: OrtSession[] = [];
afterAll(async () => {
  for (const s of sessions.splice(0)) await disposeSession(s);
});

function tiny(seed: number): { config: CodecConfig; tensors: CodecTensors } {
  const raw = syntheticCodecConfig('tiny');
  return { config: parseCodecConfig(raw), tensors: new Map([...syntheticCodecTensors(raw, seed)].map((t) => [t.name, t])) };
}

function codesFor(batchSize: number, numFrames: number, salt: number): CodecCodes {
  return createCodecCodes(Array.from({ length: batchSize * 16 * numFrames }, (_, i) => (i * 7919 + salt * 104729 + 17) % 2048), batchSize, 16, numFrames);
}

function opCounts(bytes: Uint8Array): Map<string, number> {
  const model = ModelProtoType.decode(bytes) as unknown as { graph: { node: { opType: string }[] } };
  const counts = new Map<string, number>();
  for (const n of model.graph.node) counts.set(n.opType, (counts.get(n.opType) ?? 0) + 1);
  return counts;
}

/** The largest |a − b| of two equally long outputs, over the larger of 1 and the largest |b| (states run larger than PCM). */
function maxScaledDiff(a: unknown, b: unknown): number {
  const [x, y] = [a as Float32Array, b as Float32Array];
  expect(x.length).toBe(y.length);
  let [max, scale] = [0, 1];
  for (let i = 0; i < x.length; i++) [max, scale] = [Math.max(max, Math.abs(x[i] - y[i])), Math.max(scale, Math.abs(y[i]))];
  return max / scale;
}

const MAX_FORM_DIFF = 1e-5;

describe("codec upsample form 'matmul' (ORT CPU)", () => {
  const { config, tensors } = tiny(23);
  const numTransposed = config.decoder.upsamplingRatios.length + config.decoder.upsampleRates.length;

  it('the window graph has no ConvTranspose, one MatMul more per transposed conv, and the same PCM within 1e-5 (and within 1e-4 of the reference)', async () => {
    const [plain, matmul] = (['conv-transpose', 'matmul'] as CodecUpsampleForm[]).map((upsample) => buildCodecDecoderGraph(tensors, config, 'fp32', { upsample }));
    const [plainOps, matmulOps] = [opCounts(plain), opCounts(matmul)];
    expect(plainOps.get('ConvTranspose')).toBe(numTransposed);
    expect(matmulOps.get('ConvTranspose')).toBeUndefined();
    expect(matmulOps.get('MatMul')).toBe((plainOps.get('MatMul') ?? 0) + numTransposed);
    const [a, b] = await Promise.all([plain, matmul].map((m) => createSession(m, { provider: 'cpu', intraOpNumThreads: 1 })));
    sessions.push(a, b);
    for (const [batch, frames] of [[1, 1], [1, 9], [3, 6]] as const) {
      const codes = codesFor(batch, frames, frames);
      const feeds = { [CODEC_GRAPH_INPUT]: tensor('int64', codes.data, [batch, 16, frames]) };
      const [x, y] = [await runSession(a, feeds), await runSession(b, feeds)];
      expect(y[CODEC_GRAPH_OUTPUT].dims).toEqual(x[CODEC_GRAPH_OUTPUT].dims);
      expect(maxScaledDiff(y[CODEC_GRAPH_OUTPUT].data, x[CODEC_GRAPH_OUTPUT].data), `${batch}×${frames}`).toBeLessThan(MAX_FORM_DIFF);
      expect(maxScaledDiff(y[CODEC_GRAPH_OUTPUT].data, referenceCodecDecode(codes, tensors, config))).toBeLessThan(1e-4);
    }
  });

  it('the stream graph gives the same PCM and carried state within 1e-5 call by call (the carry holds the look-back of kernel 2·stride)', async () => {
    const [plain, matmul] = (['conv-transpose', 'matmul'] as CodecUpsampleForm[]).map((upsample) => buildCodecStreamGraph(tensors, config, 'fp32', 'portable', 'stream', upsample));
    expect(matmul.states).toEqual(plain.states);
    expect(opCounts(matmul.bytes).get('ConvTranspose')).toBeUndefined();
    const [a, b] = await Promise.all([plain.bytes, matmul.bytes].map((m) => createSession(m, { provider: 'cpu', intraOpNumThreads: 1 })));
    sessions.push(a, b);
    const B = 2;
    const codes = codesFor(B, 20, 4);
    let carried = plain.states.map((s) => tensor('float32', new Float32Array(B * s.dims[0] * s.dims[1]), [B, ...s.dims]));
    let start = 0;
    for (const size of [1, 3, 8, 8]) {
      const window = sliceCodecFrames(codes, start, start + size);
      const feeds: Record<string, ReturnType<typeof tensor>> = {
        [CODEC_GRAPH_INPUT]: tensor('int64', window.data, [B, 16, size]),
        [CODEC_STREAM_NUM_CACHED]: tensor('int64', BigInt64Array.from({ length: B }, () => BigInt(Math.min(start, config.decoder.slidingWindow - 1))), [B]),
      };
      plain.states.forEach((s, i) => (feeds[s.input] = carried[i]));
      const [x, y] = [await runSession(a, feeds), await runSession(b, feeds)];
      for (const name of [CODEC_GRAPH_OUTPUT, ...plain.states.map((s) => s.output)]) {
        expect(maxScaledDiff(y[name].data, x[name].data), `${name} after ${start} frames`).toBeLessThan(MAX_FORM_DIFF);
      }
      carried = plain.states.map((s) => x[s.output]);
      start += size;
    }
  });
});
