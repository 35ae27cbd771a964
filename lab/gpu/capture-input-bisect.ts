/**
 * Lab: which input of a graph does a WebGPU replay fail to see? Opens a built graph (talker-decode.onnx by
 * default) through BoundRuns with capture on and off, runs it six times changing only one input between
 * runs (the others keep their first values), and prints per input whether the captured outputs matched.
 * Run: npx tsx lab/gpu/capture-input-bisect.ts --model <built dir> [--graph talker-decode.onnx] [--rows 1 --capacity 32]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadModelManifest } from '../../src-main/engine/stages/model-manifest';
import { BoundRuns, type BoundIo } from '../../src-main/engine/stages/bound-runs';
import type { HostTensorData, ProviderName, TensorDtype } from '../../src-main/engine/runtime/runtime';
import { PROVIDERS } from '../../src-main/engine/runtime/providers';
import { createSession, tensor, type OrtTensor } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { model: { type: 'string' }, provider: { type: 'string', default: 'webgpu' }, rows: { type: 'string', default: '1' }, capacity: { type: 'string', default: '32' } } });
const provider = args.provider as ProviderName;
const manifest = loadModelManifest(args.model!);
const spec = manifest.graphs.talkerDecode!;
const rows = Number(args.rows);
const capacity = Number(args.capacity);
const sizes: Record<string, number> = { batch: rows, capacity };
const dimsOf = (dims: readonly (string | number)[]) => dims.map((d) => (typeof d === 'number' ? d : sizes[d]));
const inputs: BoundIo[] = spec.inputs.map((i) => ({ name: i.name, dtype: i.dtype as TensorDtype, rank: i.dims.length, host: process.env.PAST_HOST === '1' && i.name.startsWith('past_') }));
const outputs: BoundIo[] = spec.outputs.filter((o) => o.name === 'logits' || o.name.startsWith('new_key_0')).map((o) => ({ name: o.name, dtype: o.dtype as TensorDtype, rank: o.dims.length }));
const dims: Record<string, number[]> = Object.fromEntries([...spec.inputs, ...spec.outputs].map((io) => [io.name, dimsOf(io.dims)]));
const open = (m: string | Uint8Array, o: object) => createSession(m, { provider, runtime: 'c-api', ...o });

/** The value of input `name` at run `step` (position 5 + step, its mask and write slot; waves elsewhere). */
function fill(v: Record<string, HostTensorData>, name: string, step: number): void {
  const pos = 5 + step;
  const data = v[name];
  if (name === 'position_ids') return void (data as BigInt64Array).fill(BigInt(pos));
  if (name === 'attention_bias') return void (data as Float32Array).forEach((_, i, a) => (a[i] = i % capacity <= pos ? 0 : -1e9));
  if (name === 'kv_write') return void (data as Float32Array).forEach((_, i, a) => (a[i] = i % capacity === pos ? 1 : 0));
  const n = data.length;
  for (let i = 0; i < n; i++) {
    const x = Math.sin(i * 0.13 + step * 1.7) * 0.3;
    if (data instanceof Uint16Array) {
      // fp16 bits of x via a float32 round trip (coarse but deterministic)
      const f = new Float32Array([x]);
      const u = new Uint32Array(f.buffer)[0];
      data[i] = ((u >> 16) & 0x8000) | ((((u >> 23) & 0xff) - 112) << 10) | ((u >> 13) & 0x3ff);
      if (Math.abs(x) < 6e-5) data[i] = 0;
    } else (data as Float32Array)[i] = x;
  }
}

/** Host tensors of the values fill() writes, for plain runs (the reference). */
function hostFeeds(varying: string, step: number): Record<string, OrtTensor> {
  const feeds: Record<string, OrtTensor> = {};
  for (const io of inputs) {
    const n = dims[io.name].reduce((a, b) => a * b, 1);
    const data = io.dtype === 'int64' ? new BigInt64Array(n) : io.dtype === 'float16' ? new Uint16Array(n) : new Float32Array(n);
    fill({ [io.name]: data }, io.name, io.name === varying ? step : 0);
    feeds[io.name] = tensor(io.dtype, data, dims[io.name]);
  }
  return feeds;
}
const key = (out: Record<string, ArrayBufferView | OrtTensor>) => outputs.map((o) => {
  const v = out[o.name] as { data?: ArrayBufferView } & ArrayBufferView;
  const view = (v.data ?? v) as ArrayBufferView;
  return Buffer.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)).toString('base64');
}).join('|');

const plain = await createSession(path.join(args.model!, spec.file), { provider, runtime: 'c-api' });
for (const varying of ['none', ...inputs.map((i) => i.name).filter((n) => !n.startsWith('past_') || n === 'past_key_0')]) {
  const reference: string[] = [];
  for (let step = 0; step < 5; step++) reference.push(key(await plain.run(hostFeeds(varying, step), outputs.map((o) => o.name))));
  const line: string[] = [];
  for (const capture of [false, true]) {
    const runs = await BoundRuns.open(path.join(args.model!, spec.file), inputs, outputs, { open, captureOptions: capture ? { ...PROVIDERS[provider].graphCapture.options } : {}, location: 'device', maxBuckets: 4, perGraph: capture });
    const bad: number[] = [];
    for (let step = 0; step < 5; step++) {
      const out = await runs.run(dims, (v) => {
        for (const io of inputs) fill(v, io.name, io.name === varying ? step : 0);
      });
      if (key(out as Record<string, ArrayBufferView>) !== reference[step]) bad.push(step);
    }
    await runs.dispose();
    line.push(`${capture ? 'captured' : 'bound'} ${bad.length === 0 ? 'ok' : `wrong in runs ${bad.join(',')}`}`);
  }
  console.log(`varying ${varying}: ${line.join('; ')}`);
}
await plain.release();
