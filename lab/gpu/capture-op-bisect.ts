/**
 * Lab: which op kind gives wrong bytes when a WebGPU graph is replayed? Builds one small graph per op kind
 * of talker-decode.onnx (fp16 MatMul, SimplifiedLayerNormalization, RotaryEmbedding with device position
 * ids, Softmax, Where over a shared KV buffer, Identity to an output, …), runs each six times with new
 * inputs through BoundRuns with capture on and off, and prints per kind whether every run matched.
 * Run: npx tsx lab/gpu/capture-op-bisect.ts [--provider webgpu]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { float32ToFloat16Bits } from '../../src-main/model-format/float-bits';
import { GraphBuilder } from '../../src-main/model-format/onnx/graph-builder';
import { BoundRuns, type BoundIo } from '../../src-main/engine/stages/bound-runs';
import type { HostTensorData, ProviderName } from '../../src-main/engine/runtime/runtime';
import { PROVIDERS } from '../../src-main/engine/runtime/providers';
import { createSession } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { provider: { type: 'string', default: 'webgpu' }, interleave: { type: 'boolean', default: false } } });
const provider = args.provider as ProviderName;
const D = 64;
type Case = { name: string; build: (g: GraphBuilder) => void; inputs: BoundIo[]; outputs: BoundIo[]; dims: Record<string, number[]> };
const h16 = (g: GraphBuilder, name: string, dims: number[]) => g.initializer(name, Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37) * 0.2), dims, 'float16');
const CASES: Case[] = [
  { name: 'MatMul fp16', build: (g) => g.output(g.matmul('x', h16(g, 'w', [D, D])), 'float16', [1, 1, D], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: 'SimplifiedLayerNormalization', build: (g) => g.output(g.op('SimplifiedLayerNormalization', ['x', h16(g, 'w', [D])], { axis: -1, epsilon: 1e-6, stash_type: 1 }), 'float16', [1, 1, D], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: 'Softmax', build: (g) => g.output(g.op('Softmax', [g.cast('x', 'float32')], { axis: -1 }), 'float32', [1, 1, D], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float32', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: 'RotaryEmbedding (device position ids)', build: (g) => {
      const cos = h16(g, 'cos', [128, D / 2]);
      const sin = h16(g, 'sin', [128, D / 2]);
      g.output(g.op('RotaryEmbedding', ['x', 'pos', cos, sin], { interleaved: 0, num_heads: 1 }, 'com.microsoft'), 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }, { name: 'pos', dtype: 'int64', rank: 2 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], pos: [1, 1], y: [1, 1, D] } },
  { name: 'Identity to an output', build: (g) => g.output(g.op('Identity', [g.mul('x', h16(g, 'w', [D]))]), 'float16', [1, 1, D], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: 'Split + Transpose + Reshape', build: (g) => {
      const [a, b] = g.node('Split', ['x', g.constInt64([D / 2, D / 2])], 2, { axis: 2 });
      g.output(g.reshape(g.transpose(g.add(a, b), [0, 2, 1]), [1, 1, D / 2]), 'float16', [1, 1, D / 2], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D / 2] } },
  { name: 'Greater + Cast + Where', build: (g) => {
      const isNew = g.op('Greater', ['w', g.constFloat(0)]);
      g.output(g.op('Where', [isNew, 'x', g.mul('x', g.cast('w', 'float16'))]), 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }, { name: 'w', dtype: 'float32', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], w: [1, 1, D], y: [1, 1, D] } },
  { name: 'input read by SLN and a residual Add', build: (g) => {
      const n = g.op('SimplifiedLayerNormalization', ['x', h16(g, 'n', [D])], { axis: -1, epsilon: 1e-6, stash_type: 1 });
      g.output(g.add('x', g.matmul(n, h16(g, 'w', [D, D]))), 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: 'position ids read by two RotaryEmbeddings', build: (g) => {
      const cos = h16(g, 'cos', [128, D / 2]);
      const sin = h16(g, 'sin', [128, D / 2]);
      const a = g.op('RotaryEmbedding', ['x', 'pos', cos, sin], { interleaved: 0, num_heads: 1 }, 'com.microsoft');
      const b = g.op('RotaryEmbedding', [g.mul('x', h16(g, 'm', [D])), 'pos', cos, sin], { interleaved: 0, num_heads: 1 }, 'com.microsoft');
      g.output(g.add(a, b), 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }, { name: 'pos', dtype: 'int64', rank: 2 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], pos: [1, 1], y: [1, 1, D] } },
  { name: 'attention-like MatMul of two computed tensors (4-D, transposed)', build: (g) => {
      const q = g.reshape(g.matmul('x', h16(g, 'wq', [D, D])), [1, 1, 4, D / 4]); // [1, 1, H, d]
      const k = g.reshape(g.matmul('kv', h16(g, 'wk', [D, D])), [1, 8, 4, D / 4]); // [1, T, H, d]
      const scores = g.matmul(g.transpose(q, [0, 2, 1, 3]), g.transpose(k, [0, 2, 3, 1])); // [1, H, 1, T]
      const probs = g.op('Softmax', [g.add(g.cast(scores, 'float32'), 'bias')], { axis: -1 });
      g.output(g.reshape(probs, [1, 1, 32]), 'float32', [1, 1, 32], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }, { name: 'kv', dtype: 'float16', rank: 3 }, { name: 'bias', dtype: 'float32', rank: 4 }], outputs: [{ name: 'y', dtype: 'float32', rank: 3 }], dims: { x: [1, 1, D], kv: [1, 8, D], bias: [1, 1, 1, 8], y: [1, 1, 32] } },
  { name: 'Transpose of a computed 4-D tensor', build: (g) => {
      const k = g.reshape(g.matmul('x', h16(g, 'wk', [D, D])), [1, 1, 4, D / 4]);
      g.output(g.reshape(g.transpose(k, [0, 2, 3, 1]), [1, 1, D]), 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
  { name: '4-D MatMul of two computed tensors, no Transpose', build: (g) => {
      const q = g.reshape(g.matmul('x', h16(g, 'wq', [D, D])), [1, 4, 1, D / 4]);
      const k = g.reshape(g.matmul('x', h16(g, 'wk', [D, D])), [1, 4, D / 4, 1]);
      g.output(g.reshape(g.matmul(q, k), [1, 1, 4]), 'float16', [1, 1, 4], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, 4] } },
  { name: '4-D MatMul of an input and a computed tensor', build: (g) => {
      const k = g.reshape(g.matmul('x', h16(g, 'wk', [D, D])), [1, 4, D / 4, 1]);
      g.output(g.reshape(g.matmul('q', k), [1, 1, 4]), 'float16', [1, 1, 4], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }, { name: 'q', dtype: 'float16', rank: 4 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], q: [1, 4, 1, D / 4], y: [1, 1, 4] } },
  { name: 'MatMul then Reshape', build: (g) => g.output(g.reshape(g.matmul('x', h16(g, 'w', [D, D])), [1, 4, D / 4]), 'float16', [1, 4, D / 4], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 4, D / 4] } },
  { name: 'MatMul then Reshape then Max(y, y)', build: (g) => {
      const r = g.reshape(g.matmul('x', h16(g, 'w', [D, D])), [1, 4, D / 4]);
      g.output(g.op('Max', [r, r]), 'float16', [1, 4, D / 4], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 4, D / 4] } },
  { name: 'MatMul then Mul then Transpose', build: (g) => g.output(g.transpose(g.mul(g.reshape(g.matmul('x', h16(g, 'w', [D, D])), [1, 4, D / 4]), h16(g, 'm', [D / 4])), [0, 2, 1]), 'float16', [1, D / 4, 4], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, D / 4, 4] } },
  { name: 'MatMul then Transpose (3-D)', build: (g) => g.output(g.transpose(g.reshape(g.matmul('x', h16(g, 'w', [D, D])), [1, 4, D / 4]), [0, 2, 1]), 'float16', [1, D / 4, 4], 'y'), inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, D / 4, 4] } },
  { name: 'chain of 12 layers (MatMul, norm, SiLU, Add)', build: (g) => {
      let x = 'x';
      for (let l = 0; l < 12; l++) {
        const n = g.op('SimplifiedLayerNormalization', [x, h16(g, `n${l}`, [D])], { axis: -1, epsilon: 1e-6, stash_type: 1 });
        const m = g.matmul(n, h16(g, `w${l}`, [D, D]));
        x = g.add(x, g.mul(m, g.op('Sigmoid', [m])));
      }
      g.output(x, 'float16', [1, 1, D], 'y');
    }, inputs: [{ name: 'x', dtype: 'float16', rank: 3 }], outputs: [{ name: 'y', dtype: 'float16', rank: 3 }], dims: { x: [1, 1, D], y: [1, 1, D] } },
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'op-bisect-'));
const open = (m: string | Uint8Array, o: object) => createSession(m, { provider, runtime: 'c-api', ...o });
for (const c of CASES) {
  const g = new GraphBuilder({ name: 'op', ops: 'fused' });
  for (const io of c.inputs) g.input(io.name, io.dtype, c.dims[io.name]);
  c.build(g);
  const file = path.join(dir, `${c.name.replace(/\W+/g, '_')}.onnx`);
  fs.writeFileSync(file, g.toBytes());
  const results: string[][] = [];
  try {
    for (const capture of [false, true]) {
      const runs = await BoundRuns.open(file, c.inputs, c.outputs, { open, captureOptions: capture ? { ...PROVIDERS[provider].graphCapture.options } : {}, location: 'device', maxBuckets: 4, perGraph: capture });
      const outs: string[] = [];
      // --interleave: an unrelated uncaptured session runs between the replays (as the engine's other stages do)
      const other = args.interleave ? await createSession(fs.readFileSync(path.join(dir, `${CASES[0].name.replace(/\W+/g, '_')}.onnx`)), { provider, runtime: 'c-api' }) : null;
      for (let step = 0; step < 6; step++) {
        if (other) await other.run({ x: (await import('../../src-main/engine/runtime/ort')).tensor('float16', float32ToFloat16Bits(Float32Array.from({ length: D }, (_, i) => i * step * 0.01)), [1, 1, D]) });
        const out = await runs.run(c.dims, (v: Record<string, HostTensorData>) => {
          for (const io of c.inputs) {
            const n = c.dims[io.name].reduce((a, b) => a * b, 1);
            const values = Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.7 + step) * (io.name === 'w' ? 1 : 0.5));
            if (io.dtype === 'float16') (v[io.name] as Uint16Array).set(float32ToFloat16Bits(values));
            else if (io.dtype === 'int64') (v[io.name] as BigInt64Array).fill(BigInt(3 + step * 7));
            else (v[io.name] as Float32Array).set(values);
          }
        });
        outs.push(Buffer.from((out[c.outputs[0].name] as ArrayBufferView).buffer.slice(0)).toString('base64'));
      }
      await runs.dispose();
      await other?.release();
      results.push(outs);
    }
    const bad = results[0].map((o, i) => (o === results[1][i] ? '' : String(i))).filter(Boolean);
    console.log(`${c.name}: ${bad.length === 0 ? 'captured = uncaptured in all 6 runs' : `captured differs in runs ${bad.join(',')}`}`);
  } catch (err) {
    console.log(`${c.name}: ERROR ${(err as Error).message.slice(0, 200)}`);
  }
}
