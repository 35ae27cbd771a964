/**
 * Lab: the streaming codec's stage time, today's form (onnxruntime-node adapter, host state) against the
 * bound static form (C-API adapter, ping-pong state buffers), rounds interleaved so load drift hits both.
 * Each round streams `rows` sequences together in chunks of `chunk` frames; prints median ms per round.
 * Run: npx tsx lab/gpu/codec-bound-cpu-bench.ts [--rounds 15] [--rows 8] [--chunk 8] [--chunks 6]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ModelManifest } from '../../src-main/model-format/manifest';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';
import { BoundCodecStream } from '../../src-main/engine/stages/codec-bound-stream';
import { openCodecDecoder } from '../../src-main/engine/stages/codec-decoder';
import type { CodecStage } from '../../src-main/engine/stages/stages';
import { createSession } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, rows: { type: 'string', default: '8' }, chunk: { type: 'string', default: '8' }, chunks: { type: 'string', default: '6' } } });
const [rounds, numRows, chunk, numChunks] = [args.rounds, args.rows, args.chunk, args.chunks].map(Number);

const { builtDir } = await ensureTinyModel();
const manifest = JSON.parse(fs.readFileSync(path.join(builtDir, 'manifest.json'), 'utf8')) as ModelManifest;
const today = await openCodecDecoder(builtDir, manifest, { provider: 'cpu', intraOpNumThreads: 1 }, 'codecStream');
const bound = await BoundCodecStream.open(path.join(builtDir, manifest.graphs.codecStreamStatic!.file), manifest, { open: (m, extra) => createSession(m, { provider: 'cpu', intraOpNumThreads: 1, runtime: 'c-api', ...extra }), captureOptions: {}, location: 'cpu', maxBuckets: 16 });
let nextId = 0;

async function round(codec: CodecStage): Promise<number> {
  const ids = Array.from({ length: numRows }, () => nextId++);
  const t0 = performance.now();
  for (let c = 0; c < numChunks; c++) {
    await codec.decodeStreamBatch!(ids.map((id) => ({ sequenceId: id, numDecodedFrames: c * chunk, window: Array.from({ length: chunk }, (_, t) => Array.from({ length: 16 }, (_, q) => (id * 31 + (c * chunk + t) * 7 + q) % 2048)) })));
  }
  const ms = performance.now() - t0;
  for (const id of ids) codec.releaseStream!(id);
  return ms;
}

const times: Record<'today' | 'bound', number[]> = { today: [], bound: [] };
await round(today);
await round(bound);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? (['bound', 'today'] as const) : (['today', 'bound'] as const);
  for (const which of order) times[which].push(await round(which === 'today' ? today : bound));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = { rounds, rows: numRows, chunk, chunks: numChunks, todayMs: median(times.today), boundMs: median(times.bound), ratio: median(times.bound) / median(times.today), bound: bound.stats() };
console.log(JSON.stringify(result));
await today.dispose();
await bound.dispose();
