/**
 * Lab: the codec's cost per sequence, window mode (each chunk decoded again with 25 frames of left
 * context) against stream mode (new frames only, state carried), on the full-size synthetic decoder
 * (fp32 weights, seed 1), with the engine's chunk schedule; both outputs against one full decode.
 * Not a test; prints JSON. Run: npx tsx lab/gpu/codec-stream-bench.ts [--frames 48] [--provider cpu]
 */
import { parseArgs } from 'node:util';
import { parseCodecConfig } from '../../src-main/model-builder/codec/codec-config';
import { createCodecCodes, sliceCodecFrames, type CodecCodes } from '../../src-main/model-format/codec/codec-codes';
import { buildCodecDecoderGraph, buildCodecStreamGraph } from '../../src-main/model-builder/codec/codec-graph';
import { CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STREAM_NUM_CACHED } from '../../src-main/model-format/codec/codec-stream-io';
import { decodeChunked, planCodecChunks } from '../../src-main/model-format/codec/chunked-decode';
import { syntheticCodecConfig, syntheticCodecTensors } from '../../src-main/model-builder/codec/synthetic-codec';
import { defaultEngineConfig } from '../../src-main/engine/engine-config';
import { createSession, runSession, tensor, type ProviderName } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { frames: { type: 'string', default: '48' }, provider: { type: 'string', default: 'cpu' }, threads: { type: 'string', default: '0' } } });
const numFrames = Number(args.frames);
const raw = syntheticCodecConfig('0.6b');
const config = parseCodecConfig(raw);
const tensors = new Map([...syntheticCodecTensors(raw, 1)].map((t) => [t.name, t]));
const spf = config.samplesPerFrame;
const options = { provider: args.provider as ProviderName, intraOpNumThreads: Number(args.threads) };
const codes = createCodecCodes(Array.from({ length: 16 * numFrames }, (_, i) => (i * 7919 + 17) % 2048), 1, 16, numFrames);
const chunking = defaultEngineConfig().codec;
const chunks = planCodecChunks(numFrames, chunking);

const windowSession = await createSession(buildCodecDecoderGraph(tensors, config, 'fp32', { ops: 'fused' }), options);
const decodeWindow = async (c: CodecCodes) => (await runSession(windowSession, { [CODEC_GRAPH_INPUT]: tensor('int64', c.data, [1, 16, c.numFrames]) }))[CODEC_GRAPH_OUTPUT].data as Float32Array;
await decodeWindow(sliceCodecFrames(codes, 0, 4)); // warm-up
let t = performance.now();
const windowed = await decodeChunked(codes, decodeWindow, spf, chunking);
const windowMs = performance.now() - t;
const full = await decodeWindow(codes);

const { bytes: streamBytes, states } = buildCodecStreamGraph(tensors, config, 'fp32', 'fused');
const streamSession = await createSession(streamBytes, options);
const zeros = () => states.map((s) => tensor('float32', new Float32Array(s.dims[0] * s.dims[1]), [1, ...s.dims]));
const streamCall = async (start: number, end: number, carried: ReturnType<typeof zeros>) => {
  const window = sliceCodecFrames(codes, start, end);
  const feeds: Record<string, ReturnType<typeof tensor>> = {
    [CODEC_GRAPH_INPUT]: tensor('int64', window.data, [1, 16, end - start]),
    [CODEC_STREAM_NUM_CACHED]: tensor('int64', BigInt64Array.of(BigInt(start)), [1]),
  };
  states.forEach((s, i) => (feeds[s.input] = carried[i]));
  return runSession(streamSession, feeds);
};
await streamCall(0, 4, zeros()); // warm-up
t = performance.now();
const streamed = new Float32Array(numFrames * spf);
let carried = zeros();
for (const c of chunks) {
  const out = await streamCall(c.startFrame, c.endFrame, carried);
  streamed.set(out[CODEC_GRAPH_OUTPUT].data as Float32Array, c.startFrame * spf);
  carried = states.map((s) => out[s.output]);
}
const streamMs = performance.now() - t;

const maxDiff = (a: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - full[i])), 0);
console.log(JSON.stringify({
  date: new Date().toISOString(),
  provider: args.provider,
  numFrames,
  chunkFrames: chunks.map((c) => c.endFrame - c.startFrame),
  window: { framesDecoded: chunks.reduce((n, c) => n + c.endFrame - c.startFrame + c.contextFrames, 0), ms: Math.round(windowMs), maxDiffToFullDecode: maxDiff(windowed) },
  stream: { framesDecoded: numFrames, ms: Math.round(streamMs), maxDiffToFullDecode: maxDiff(streamed), numStates: states.length },
  streamOverWindow: Number((streamMs / windowMs).toFixed(3)),
}));
await windowSession.release();
await streamSession.release();
