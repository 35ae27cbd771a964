/**
 * Lab: do two builds of one checkpoint give the same bytes? Runs the talker and code-predictor graphs of
 * two built model dirs (say builder v15 and v16 of the tiny model) on one provider (CPU by default) with
 * the same seeded inputs (valid positions, masks, KV writes and sampler settings) and compares every output
 * byte for byte. Exits 1 on any difference, naming the graph, output and first differing byte.
 * Run: npx tsx lab/model-builder/graph-bytes-compare.ts --before <built dir> --after <built dir> [--provider webgpu]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { IoSpec, ModelManifest } from '../../src-main/model-format/manifest';
import { float32ToFloat16Bits } from '../../src-main/model-format/float-bits';
import { createSession, disposeSession, runSession, tensor, type OrtTensor, type ProviderName } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { before: { type: 'string' }, after: { type: 'string' }, provider: { type: 'string', default: 'cpu' } } });
const provider = args.provider as ProviderName;
if (!args.before || !args.after) throw new Error('pass --before <built dir> --after <built dir>');

const NUM_ROWS = 3;
const CAPACITY = 8;
let seed = 12345;
const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);

type Case = { label: string; dims: Record<string, number>; values: Record<string, number[]> };

/** Named input values per graph (all else: uniform floats in [-1, 1)); symbolic dims per case. */
function cases(key: string): Case[] {
  const ones = Array(NUM_ROWS * CAPACITY).fill(1);
  const positions = [3, 5, 7];
  const decode = {
    position_ids: positions,
    attention_bias: positions.flatMap((p) => Array.from({ length: CAPACITY }, (_, t) => (t <= p ? 0 : -1e9))),
    kv_write: positions.flatMap((p) => Array.from({ length: CAPACITY }, (_, t) => (t === p ? 1 : 0))),
  };
  const sampler = { temperature: [0.9, 1, 0.7], top_p: [1, 0.9, 0.8], top_k: [1, 5, 50], top_k_max: [4], in_top_k: [1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0], uniforms: Array.from({ length: NUM_ROWS * 15 }, () => random()) };
  switch (key) {
    case 'talker': return [{ label: 'prefill 3 rows', dims: { batch: NUM_ROWS, seq: 3, capacity: CAPACITY }, values: { attention_mask: ones, position_ids: [0, 1, 2, 2, 3, 4, 4, 5, 6] } }];
    case 'talkerDecode': return [{ label: 'one row each', dims: { batch: NUM_ROWS, capacity: CAPACITY }, values: decode }];
    case 'codePredictorStep': return [
      { label: 'sub-step 0', dims: { batch: NUM_ROWS, seq: 2, past: 0 }, values: { generation_step: [0] } },
      { label: 'sub-step 3', dims: { batch: NUM_ROWS, seq: 1, past: 4 }, values: { generation_step: [3] } },
    ];
    // the plain-attention loop's RoPE ids are [1, S]: ORT's CPU RotaryEmbedding takes them for one row only (WebGPU broadcasts)
    case 'codePredictorLoopPlain': return [{ label: 'one frame, one row', dims: { batch: 1, k: 4 }, values: { temperature: [0.9], top_p: [0.9], top_k_max: [4], in_top_k: [1, 1, 1, 0], uniforms: sampler.uniforms.slice(0, 15) } }];
    default: return [{ label: 'one frame', dims: { batch: NUM_ROWS, k: 4 }, values: sampler }];
  }
}

function feed(spec: IoSpec, c: Case): OrtTensor {
  const dims = spec.dims.map((d) => (typeof d === 'number' ? d : c.dims[d]));
  const size = dims.reduce((a, b) => a * b, 1);
  const given = c.values[spec.name];
  const values = given ?? Array.from({ length: size }, () => 2 * random() - 1);
  switch (spec.dtype) {
    case 'int64': return tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), dims);
    case 'int32': return tensor('int32', Int32Array.from(values), dims);
    case 'float16': return tensor('float16', float32ToFloat16Bits(Float32Array.from(values)), dims);
    default: return tensor('float32', Float32Array.from(values), dims);
  }
}

const bytesOf = (t: OrtTensor): Buffer => {
  const data = t.data as ArrayBufferView;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
};

const read = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ModelManifest;
const before = read(args.before);
const after = read(args.after);
let numDiffering = 0;
for (const key of ['talker', 'talkerDecode', 'codePredictorStep', 'codePredictorLoop', 'codePredictorLoopStatic', 'codePredictorLoopPlain'] as const) {
  const specA = before.graphs[key];
  const specB = after.graphs[key];
  if (!specA || !specB) continue;
  const runtime = provider === 'webgpu' ? 'c-api' : undefined;
  const a = await createSession(path.join(args.before, specA.file), { provider, runtime });
  const b = await createSession(path.join(args.after, specB.file), { provider, runtime });
  for (const c of cases(key)) {
    const feeds = Object.fromEntries(specA.inputs.map((s) => [s.name, feed(s, c)]));
    const outA = await runSession(a, feeds);
    const outB = await runSession(b, feeds);
    const differing = specA.outputs.filter((o) => !bytesOf(outA[o.name]).equals(bytesOf(outB[o.name])));
    for (const o of differing) {
      const x = bytesOf(outA[o.name]);
      const y = bytesOf(outB[o.name]);
      const at = x.findIndex((v, i) => v !== y[i]);
      console.log(`DIFFERS ${key} (${c.label}) ${o.name}: first differing byte ${at} of ${x.length}`);
    }
    numDiffering += differing.length;
    console.log(`${key} (${c.label}, ${before.dtype}, ${provider}): ${specA.outputs.length - differing.length}/${specA.outputs.length} outputs byte-identical`);
  }
  await disposeSession(a);
  await disposeSession(b);
}
console.log(numDiffering === 0 ? 'all outputs byte-identical' : `${numDiffering} outputs differ`);
process.exitCode = numDiffering === 0 ? 0 : 1;
