// Model-tier tests: graphs written by GraphBuilder load and run in onnxruntime-node (CPU) and match
// plain-loop references; inline, fp16 and external-data initializers all give the same numbers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, disposeSession, runSession, tensor } from '../../engine/runtime/ort';
import { float16BitsToFloat32, float32ToFloat16Bits } from '../float-bits';
import { linear, rmsNorm, silu } from './composite-ops';
import { GraphBuilder } from './graph-builder';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-builder-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const IN = 8;
const OUT = 600; // a 8x600 fp32 weight is 19 KB: above the external-data threshold

function values(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => Math.sin((i + 1) * 12.9898 + seed) * 0.7);
}

/** y = silu(rmsNorm(x) @ W + b), rows of x independent. */
function reference(x: Float32Array, normWeight: Float32Array, wT: Float32Array, bias: Float32Array, eps: number): Float32Array {
  const numRows = x.length / IN;
  const y = new Float32Array(numRows * OUT);
  for (let r = 0; r < numRows; r++) {
    let ss = 0;
    for (let i = 0; i < IN; i++) ss += x[r * IN + i] ** 2;
    const inv = 1 / Math.sqrt(ss / IN + eps);
    for (let o = 0; o < OUT; o++) {
      let acc = bias[o];
      for (let i = 0; i < IN; i++) acc += x[r * IN + i] * inv * normWeight[i] * wT[i * OUT + o];
      y[r * OUT + o] = acc / (1 + Math.exp(-acc));
    }
  }
  return y;
}

function build(storage: 'float32' | 'float16', external: boolean): string {
  const file = path.join(dir, `m-${storage}-${external}.onnx`);
  const g = new GraphBuilder({
    name: 'test',
    externalData: external ? { dataPath: `${file}.data`, location: path.basename(`${file}.data`) } : undefined,
  });
  const x = g.input('x', 'float32', ['batch', 'seq', IN]);
  const w = g.initializer('norm.weight', values(IN, 1).map((v) => 1 + v), [IN]);
  let wT = g.initializer('fc.weightT', values(IN * OUT, 2), [IN, OUT], storage);
  let b = g.initializer('fc.bias', values(OUT, 3), [OUT], storage);
  if (storage === 'float16') {
    wT = g.cast(wT, 'float32');
    b = g.cast(b, 'float32');
  }
  const y = silu(g, linear(g, rmsNorm(g, x, w, 1e-6, 'float32'), wT, b));
  g.output(y, 'float32', ['batch', 'seq', OUT], 'y');
  g.save(file);
  return file;
}

describe('GraphBuilder', () => {
  const x = values(2 * 3 * IN, 7);
  const normWeight = values(IN, 1).map((v) => 1 + v);

  for (const [storage, external] of [['float32', false], ['float32', true], ['float16', true]] as const) {
    it(`runs rmsNorm → linear → silu with ${storage} weights ${external ? 'in an external data file' : 'inline'} and matches the loop reference`, async () => {
      const file = build(storage, external);
      expect(fs.existsSync(`${file}.data`)).toBe(external);
      const round = (a: Float32Array) => (storage === 'float16' ? float16BitsToFloat32(float32ToFloat16Bits(a)) : a);
      const expected = reference(x, normWeight, round(values(IN * OUT, 2)), round(values(OUT, 3)), 1e-6);
      const session = await createSession(file, { provider: 'cpu', intraOpNumThreads: 1 });
      const out = await runSession(session, { x: tensor('float32', x, [2, 3, IN]) });
      const got = out.y.data as Float32Array;
      expect(out.y.dims).toEqual([2, 3, OUT]);
      let maxDiff = 0;
      for (let i = 0; i < got.length; i++) maxDiff = Math.max(maxDiff, Math.abs(got[i] - expected[i]));
      expect(maxDiff).toBeLessThan(1e-5);
      await disposeSession(session);
    });
  }

  it('outputsByKernels: outputs a copying op would fill get an exact Max(x, x) (same bytes), others stay as they are', async () => {
    const g = new GraphBuilder({ name: 'written', outputsByKernels: true });
    g.input('x', 'float32', [2, 3]);
    const sum = g.add('x', g.constFloat(0.5));
    g.output(sum, 'float32', [2, 3]);
    g.output(g.reshape(sum, [3, 2]), 'float32', [3, 2], 'reshaped');
    g.output('x', 'float32', [2, 3], 'passed');
    const graph = (g.toGraphObject() as unknown as { node: { opType: string; output: string[] }[] }).node;
    expect(graph.filter((n) => n.opType === 'Max').map((n) => n.output[0])).toEqual(['reshaped', 'passed']);
    expect(graph.some((n) => n.opType === 'Identity')).toBe(false);
    const x = Float32Array.from([-0, 1.5, -2.25, 3e-39, -1e30, 7]);
    const session = await createSession(g.toBytes(), { provider: 'cpu' });
    const out = await runSession(session, { x: tensor('float32', x, [2, 3]) });
    // bit-exact, -0 and the subnormal included
    expect(Buffer.from((out.passed.data as Float32Array).buffer).equals(Buffer.from(x.buffer))).toBe(true);
    expect(Array.from(out.reshaped.data as Float32Array)).toEqual(Array.from(x, (v) => Math.fround(v + 0.5)));
    await disposeSession(session);
    const reshapeOnly = new GraphBuilder({ name: 'bad', outputsByKernels: true });
    reshapeOnly.input('x', 'float32', [2, 3]);
    expect(() => reshapeOnly.output(reshapeOnly.reshape('x', [3, 2]), 'float32', [3, 2])).toThrow(/copied by Reshape; give it a new name/);
  });

  it('refuses two values with the same name', () => {
    const g = new GraphBuilder({ name: 'dup' });
    g.input('a', 'float32', [1]);
    expect(() => g.input('a', 'float32', [1])).toThrow(/already has a value named 'a'/);
  });

  it('shares small constants between uses', () => {
    const g = new GraphBuilder({ name: 'consts' });
    expect(g.constInt64([0, -1])).toBe(g.constInt64([0, -1]));
    expect(g.constFloat(0.5)).not.toBe(g.constFloat(0.5, 'float16'));
  });
});
