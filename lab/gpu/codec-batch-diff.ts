/**
 * Lab: codec batch invariance and cost per call. Decodes row 0 alone and beside B-1 other rows, for
 * window lengths T (window graph) and for a chunk schedule with carried state (stream graph), and
 * prints whether row 0 is bit-identical to its solo decode, plus ms per call. Not a test; prints JSON.
 * Run: npx tsx lab/gpu/codec-batch-diff.ts [--model <built dir>] [--provider webgpu]
 *      [--frames 1,2,4,8,33] [--batches 1,2,3,4,8,16,64]   (no --model: the tiny model on CPU)
 *      [--schedule 1,2,4,8,8] [--state device|host]   (where the stream graph's carried state lives)
 */
import { parseArgs } from 'node:util';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import { openCodecDecoder } from '../../src-main/engine/stages/codec-decoder';
import type { CodecWindow } from '../../src-main/engine/stages/stages';
import type { ProviderName } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    provider: { type: 'string', default: 'cpu' },
    frames: { type: 'string', default: '1,2,4,8,33' },
    batches: { type: 'string', default: '1,2,3,4,8,16' },
    schedule: { type: 'string', default: '1,2,4,8,8' },
    state: { type: 'string', default: 'device' },
  },
});
const modelDir = args.model ?? (await ensureTinyModel()).builtDir;
const manifest = loadModelManifest(modelDir);
const options = { provider: args.provider as ProviderName, ...(args.provider === 'cpu' ? { intraOpNumThreads: 1 } : {}) };
const list = (s: string) => s.split(',').map(Number);
const numQ = manifest.codec.numQuantizers;
const window = (seed: number, start: number, numFrames: number): CodecWindow =>
  Array.from({ length: numFrames }, (_, t) => Array.from({ length: numQ }, (_, q) => (seed * 131 + (start + t) * 17 + q * 7) % 2048));
const compare = (a: Float32Array, b: Float32Array) => {
  let maxDiff = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
  return { identical: maxDiff === 0, maxDiff: Number(maxDiff.toExponential(2)) };
};
const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const t = performance.now();
  const value = await fn();
  return { value, ms: Number((performance.now() - t).toFixed(2)) };
};
const report: Record<string, unknown> = { date: new Date().toISOString(), provider: args.provider, modelDir };

const windowCodec = await openCodecDecoder(modelDir, manifest, options, 'codec');
const windowRows: Record<string, unknown>[] = [];
for (const numFrames of list(args.frames!)) {
  await windowCodec.decode(window(1, 0, numFrames)); // warm-up of this shape
  const alone = await windowCodec.decode(window(1, 0, numFrames));
  for (const batch of list(args.batches!)) {
    const rows = (mateSeed: number) => [window(1, 0, numFrames), ...Array.from({ length: batch - 1 }, (_, b) => window(mateSeed + b, 0, numFrames))];
    await windowCodec.decodeBatch(rows(2));
    const run = await timed(() => windowCodec.decodeBatch(rows(2)));
    const otherMates = await windowCodec.decodeBatch(rows(500));
    windowRows.push({ numFrames, batch, msPerCall: run.ms, vsAlone: compare(run.value[0], alone), vsOtherMatesSameShape: compare(run.value[0], otherMates[0]) });
  }
}
report.window = windowRows;
await windowCodec.dispose();

if (manifest.graphs.codecStream) {
  const streamCodec = await openCodecDecoder(modelDir, manifest, options, 'codecStream', args.state === 'device');
  let nextSequenceId = 0;
  const schedule = list(args.schedule!);
  /** Row 0 (seed 1) and batch-1 mates decoded chunk by chunk; row 0's PCM joined, with ms per call. */
  const runSchedule = async (batch: number, mateSeed: number) => {
    const ids = Array.from({ length: batch }, () => nextSequenceId++);
    const pcm: Float32Array[] = [];
    const msPerCall: number[] = [];
    let start = 0;
    for (const numFrames of schedule) {
      const rows = Array.from({ length: batch }, (_, b) => ({ sequenceId: ids[b], window: window(b === 0 ? 1 : mateSeed + b, start, numFrames), numDecodedFrames: start }));
      const { value, ms } = await timed(() => streamCodec.decodeStreamBatch(rows));
      msPerCall.push(ms);
      pcm.push(value[0]);
      start += numFrames;
    }
    ids.forEach((id) => streamCodec.releaseStream(id));
    const joined = new Float32Array(pcm.reduce((n, p) => n + p.length, 0));
    pcm.reduce((at, p) => (joined.set(p, at), at + p.length), 0);
    return { joined, msPerCall };
  };
  await runSchedule(1, 2); // warm-up
  const alone = await runSchedule(1, 2);
  const streamRows: Record<string, unknown>[] = [];
  for (const batch of list(args.batches!)) {
    await runSchedule(batch, 2);
    const run = await runSchedule(batch, 2);
    const otherMates = await runSchedule(batch, 500);
    streamRows.push({ batch, schedule, msPerCall: run.msPerCall, vsAlone: compare(run.joined, alone.joined), vsOtherMatesSameShape: compare(run.joined, otherMates.joined) });
  }
  report.stream = streamRows;
  report.streamState = streamCodec.stateStats();
  await streamCodec.dispose();
}
console.log(JSON.stringify(report, null, 1));
