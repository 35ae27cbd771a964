/**
 * Lab: runs the built codec graph on the same window alone and beside other rows and prints where
 * the rows differ (max abs diff, first index), to find what breaks codec batch invariance on CPU.
 * Run: npx tsx src-main/engine/lab/codec-batch-diff.ts
 */
import path from 'node:path';
import { ensureTinyModel } from '../../model-builder/tiny-model';
import { loadModelManifest } from '../models/model-manifest';
import { openCodecDecoder } from '../models/codec-decoder';

const { builtDir } = await ensureTinyModel();
const manifest = loadModelManifest(builtDir);
const codec = await openCodecDecoder(builtDir, manifest, { provider: 'cpu', intraOpNumThreads: Number(process.env.THREADS ?? 1), graphOptimizationLevel: (process.env.OPT ?? 'all') as 'all' });
const numFrames = Number(process.env.FRAMES ?? 12);
const window = (seed: number) => Array.from({ length: numFrames }, (_, t) => Array.from({ length: manifest.codec.numQuantizers }, (_, q) => (seed * 131 + t * 17 + q * 7) % 2048));
const alone = await codec.decode(window(1));
for (const batch of [2, 3, 4]) {
  const rows = await codec.decodeBatch(Array.from({ length: batch }, (_, b) => window(b + 1)));
  let maxDiff = 0;
  let first = -1;
  rows[0].forEach((v, i) => {
    const d = Math.abs(v - alone[i]);
    if (d > 0 && first < 0) first = i;
    maxDiff = Math.max(maxDiff, d);
  });
  console.log(JSON.stringify({ batch, maxDiff, firstIndex: first, numSamples: alone.length, file: path.basename(manifest.graphs.codec.file) }));
}
await codec.dispose();
