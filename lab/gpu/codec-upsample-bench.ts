/**
 * Lab: the streaming codec with its transposed convolutions as ConvTranspose nodes against MatMul +
 * overlap-add (codec.upsample), on the full-size synthetic decoder (seed 1, fused ops), rows streamed
 * together with the engine's chunk schedule; rounds alternate the two forms so load drift hits both.
 * Prints JSON: median ms per round of each form, their ratio, and the largest PCM difference between them.
 * Run: npx tsx lab/gpu/codec-upsample-bench.ts [--frames 48] [--rows 1] [--rounds 5] [--provider cpu] [--dtype fp32]
 */
import { parseArgs } from 'node:util';
import { parseCodecConfig } from '../../src-main/model-builder/codec/codec-config';
import { createCodecCodes, sliceCodecFrames } from '../../src-main/model-format/codec/codec-codes';
import { buildCodecStreamGraph } from '../../src-main/model-builder/codec/codec-graph';
import { CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT, CODEC_STREAM_NUM_CACHED } from '../../src-main/model-format/codec/codec-stream-io';
import { planCodecChunks } from '../../src-main/model-format/codec/chunked-decode';
import type { CodecUpsampleForm } from '../../src-main/model-format/manifest';
import { syntheticCodecConfig, syntheticCodecTensors } from '../../src-main/model-builder/codec/synthetic-codec';
import { defaultEngineConfig } from '../../src-main/engine/engine-config';
import { createSession, runSession, tensor, type OrtSession, type ProviderName } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({
  options: {
    frames: { type: 'string', default: '48' }, rows: { type: 'string', default: '1' }, rounds: { type: 'string', default: '5' },
    provider: { type: 'string', default: 'cpu' }, threads: { type: 'string', default: '0' }, dtype: { type: 'string', default: 'fp32' },
  },
});
const [numFrames, numRows, numRounds] = [args.frames, args.rows, args.rounds].map(Number);
const raw = syntheticCodecConfig('0.6b');
const config = parseCodecConfig(raw);
const tensors = new Map([...syntheticCodecTensors(raw, 1)].map((t) => [t.name, t]));
const spf = config.samplesPerFrame;
const options = { provider: args.provider as ProviderName, intraOpNumThreads: Number(args.threads) };
const codes = createCodecCodes(Array.from({ length: numRows * 16 * numFrames }, (_, i) => (i * 7919 + 17) % 2048), numRows, 16, numFrames);
const chunks = planCodecChunks(numFrames, defaultEngineConfig().codec);

interface Form { form: CodecUpsampleForm; session: OrtSession; states: ReturnType<typeof buildCodecStreamGraph>['states']; roundsMs: number[]; pcm: Float32Array }
const forms: Form[] = [];
for (const form of ['conv-transpose', 'matmul'] as const) {
  const { bytes, states } = buildCodecStreamGraph(tensors, config, args.dtype as 'fp32' | 'fp16', 'fused', 'stream', form);
  forms.push({ form, session: await createSession(bytes, options), states, roundsMs: [], pcm: new Float32Array(numRows * numFrames * spf) });
}

/** Streams every row through one form's graph chunk by chunk; returns the ms it took. */
async function streamAll(f: Form): Promise<number> {
  let carried = f.states.map((s) => tensor('float32', new Float32Array(numRows * s.dims[0] * s.dims[1]), [numRows, ...s.dims]));
  const started = performance.now();
  for (const c of chunks) {
    const n = c.endFrame - c.startFrame;
    const window = sliceCodecFrames(codes, c.startFrame, c.endFrame);
    const feeds: Record<string, ReturnType<typeof tensor>> = {
      [CODEC_GRAPH_INPUT]: tensor('int64', window.data, [numRows, 16, n]),
      [CODEC_STREAM_NUM_CACHED]: tensor('int64', BigInt64Array.from({ length: numRows }, () => BigInt(c.startFrame)), [numRows]),
    };
    f.states.forEach((s, i) => (feeds[s.input] = carried[i]));
    const out = await runSession(f.session, feeds);
    const pcm = out[CODEC_GRAPH_OUTPUT].data as Float32Array;
    for (let r = 0; r < numRows; r++) f.pcm.set(pcm.subarray(r * n * spf, (r + 1) * n * spf), (r * numFrames + c.startFrame) * spf);
    carried = f.states.map((s) => out[s.output]);
  }
  return performance.now() - started;
}

for (const f of forms) await streamAll(f); // warm-up
for (let round = 0; round < numRounds; round++) for (const f of round % 2 ? [...forms].reverse() : forms) f.roundsMs.push(await streamAll(f));
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const [convT, matmul] = forms;
console.log(JSON.stringify({
  date: new Date().toISOString(),
  provider: args.provider,
  dtype: args.dtype,
  rows: numRows,
  numFrames,
  chunkFrames: chunks.map((c) => c.endFrame - c.startFrame),
  convTransposeMedianMs: Math.round(median(convT.roundsMs)),
  matmulMedianMs: Math.round(median(matmul.roundsMs)),
  matmulOverConvTranspose: Number((median(matmul.roundsMs) / median(convT.roundsMs)).toFixed(3)),
  maxPcmDiff: convT.pcm.reduce((m, v, i) => Math.max(m, Math.abs(v - matmul.pcm[i])), 0),
  roundsMs: Object.fromEntries(forms.map((f) => [f.form, f.roundsMs.map(Math.round)])),
}));
for (const f of forms) await f.session.release();
