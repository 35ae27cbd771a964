// The C-API adapter on the CPU provider against the onnxruntime-node adapter: the same bytes for a
// small MatMul/Softmax graph (fp32, fp16 weights, int64 and bool outputs), IoBinding buffers reused
// across 10,000 runs with a bound on RSS growth, run options, errors as StudioErrors, and no leaks.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../../../src-shared/errors';
import { GraphBuilder } from '../../../model-format/onnx/graph-builder';
import { buildCopyGraph, copyInputName, copyOutputName } from '../../../model-format/copy-graph';
import { nodeRuntime } from '../node-runtime';
import { tensor, type OrtTensor } from '../ort';
import { liveHandleCounts, openCapiRuntime, sessionLogLevel, type CapiRuntime } from './capi-runtime';

const ROWS = 3;
const K = 16;
const N = 8;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** y = softmax(x·W + b), argmax as int64, a bool mask of y > 1/N; W stored as fp32 or fp16. */
function mlpGraph(storage: 'float32' | 'float16'): Uint8Array {
  const rand = lcg(7);
  const g = new GraphBuilder({ name: 'adapter_check' });
  const x = g.input('x', 'float32', ['rows', K]);
  let w = g.initializer('w', Float32Array.from({ length: K * N }, rand), [K, N], storage);
  if (storage === 'float16') w = g.cast(w, 'float32');
  const b = g.initializer('b', Float32Array.from({ length: N }, rand), [N]);
  const y = g.softmax(g.add(g.matmul(x, w), b));
  g.output(y, 'float32', ['rows', N], 'y');
  g.output(g.op('ArgMax', [y], { axis: -1, keepdims: 0 }), 'int64', ['rows'], 'pick');
  g.output(g.op('Greater', [y, g.constFloat(1 / N)]), 'bool', ['rows', N], 'mask');
  return g.toBytes();
}

const bytesOf = (t: OrtTensor) => {
  const d = t.data as ArrayBufferView;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
};

let capi: CapiRuntime;
const baseline = { ...liveHandleCounts() };

beforeAll(() => {
  capi = openCapiRuntime();
});

afterAll(() => {
  // every session, value, binding and run option the tests made was released
  const now = liveHandleCounts();
  expect({ session: now.session, value: now.value, ioBinding: now.ioBinding, runOptions: now.runOptions, allocator: now.allocator }).toEqual({
    session: baseline.session, value: baseline.value, ioBinding: baseline.ioBinding, runOptions: baseline.runOptions, allocator: baseline.allocator,
  });
});

describe('C-API adapter vs onnxruntime-node adapter (CPU)', () => {
  it('loads the very core onnxruntime-node ships and lists the CPU provider', () => {
    expect(capi.version()).toBe(nodeRuntime.version());
    expect(capi.availableProviders()).toContain('CPUExecutionProvider');
  });

  for (const storage of ['float32', 'float16'] as const) {
    it(`gives byte-identical outputs (${storage} weights), one row and batched`, async () => {
      const model = mlpGraph(storage);
      const options = { provider: 'cpu' as const, intraOpNumThreads: 1 };
      const a = await nodeRuntime.createSession(model, options);
      const c = await capi.createSession(model, options);
      expect(c.inputNames).toEqual(a.inputNames);
      expect(c.outputNames).toEqual(a.outputNames);
      const rand = lcg(11);
      for (const rows of [1, ROWS]) {
        const feeds = { x: tensor('float32', Float32Array.from({ length: rows * K }, rand), [rows, K]) };
        const [ra, rc] = [await a.run(feeds), await c.run(feeds)];
        for (const name of a.outputNames) {
          expect(rc[name].type).toBe(ra[name].type);
          expect(rc[name].dims).toEqual(ra[name].dims);
          expect(bytesOf(rc[name])).toBe(bytesOf(ra[name]));
        }
      }
      const only = await c.run({ x: tensor('float32', new Float32Array(K), [1, K]) }, ['pick']);
      expect(Object.keys(only)).toEqual(['pick']);
      await a.release();
      await c.release();
    });
  }
});

describe('C-API adapter IoBinding (CPU)', () => {
  it('reuses the same bound buffers across 10,000 runs with flat RSS', async () => {
    const session = await capi.createSession(buildCopyGraph(1, 'float32', 2), { provider: 'cpu', intraOpNumThreads: 1 });
    const binding = session.bind();
    const dims = [4, 256];
    const input = binding.input(copyInputName(0), 'float32', dims);
    const output = binding.output(copyOutputName(0), 'float32', dims);
    const inHost = input.host as Float32Array;
    const outHost = output.host as Float32Array;
    const runs = async (n: number, from: number) => {
      for (let i = from; i < from + n; i++) {
        inHost[i % inHost.length] = i;
        await binding.run({ gpuGraphId: 1 });
        if (outHost[i % inHost.length] !== i) throw new Error(`run ${i}: output ${outHost[i % inHost.length]}`);
      }
    };
    await runs(1000, 0);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    await runs(9000, 1000);
    global.gc?.();
    const growthMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    expect(growthMiB).toBeLessThan(16);
    expect(outHost[5]).toBe(inHost[5]);
    binding.release();
    await session.release();
  }, 120_000);

  it('binds an output to the device (CPU memory here) and reads it back', async () => {
    const session = await capi.createSession(buildCopyGraph(1, 'int64', 1), { provider: 'cpu' });
    const binding = session.bind();
    const input = binding.input(copyInputName(0), 'int64', [3]);
    (input.host as BigInt64Array).set([1n, 2n, 3n]);
    binding.outputToDevice(copyOutputName(0));
    await binding.run();
    const out = binding.takeOutputs([copyOutputName(0)]);
    expect(Array.from(out[copyOutputName(0)].data as BigInt64Array)).toEqual([1n, 2n, 3n]);
    await session.release(); // releases the binding too
    expect(() => binding.input('x', 'int64', [1])).toThrow(StudioError);
  });
});

describe('C-API adapter device buffers', () => {
  it('writes and reads "device" buffers through a copy (CPU here: ORT has no CPU data transfer in the env, so the Identity-graph copy runs)', async () => {
    const session = await capi.createSession(buildCopyGraph(1, 'int64', 2), { provider: 'cpu', providerOptions: { enable_cuda_graph: '1' } });
    const binding = session.bind();
    const input = binding.input(copyInputName(0), 'int64', [2, 3], 'device');
    const output = binding.output(copyOutputName(0), 'int64', [2, 3], 'device');
    expect(input.host).toBeNull();
    for (let step = 0; step < 3; step++) {
      const data = BigInt64Array.from({ length: 6 }, (_, i) => BigInt(step * 10 + i));
      await binding.write(input, data);
      await binding.run({ gpuGraphId: 1 });
      expect(Array.from((await binding.read(output)) as BigInt64Array)).toEqual(Array.from(data));
    }
    await expect(binding.write(input, new BigInt64Array(5))).rejects.toThrow(/holds 48 bytes .*got 40/);
    await session.release();
    const plain = await capi.createSession(buildCopyGraph(1, 'float32', 1), { provider: 'cpu' });
    const hostBinding = plain.bind();
    const host = hostBinding.input(copyInputName(0), 'float32', [2]);
    await hostBinding.write(host, Float32Array.of(1.5, 2.5));
    expect(Array.from((await hostBinding.read(host)) as Float32Array)).toEqual([1.5, 2.5]);
    await plain.release();
  });
});

describe('C-API adapter diagnostics', () => {
  it('logs errors only unless STUDIO_CAPI_LOG_LEVEL asks for 0..4', () => {
    expect(sessionLogLevel({})).toBe(3);
    expect(sessionLogLevel({ STUDIO_CAPI_LOG_LEVEL: '0' })).toBe(0);
    expect(sessionLogLevel({ STUDIO_CAPI_LOG_LEVEL: '7' })).toBe(3);
    expect(sessionLogLevel({ STUDIO_CAPI_LOG_LEVEL: 'verbose' })).toBe(3);
  });
});

describe('C-API adapter errors', () => {
  it('turns a bad feed shape into an invalid-argument StudioError', async () => {
    const session = await capi.createSession(mlpGraph('float32'), { provider: 'cpu' });
    const err = await session.run({ x: tensor('float32', new Float32Array(K + 1), [1, K + 1]) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).code).toBe('invalid-argument');
    expect((err as StudioError).message).toMatch(/running <.*model> failed .*check the feed dtypes and shapes/s);
    await session.release();
  });

  it('refuses a released session and a released binding', async () => {
    const session = await capi.createSession(buildCopyGraph(1, 'float32', 1), { provider: 'cpu' });
    const binding = session.bind();
    binding.release();
    await expect(binding.run()).rejects.toThrow(/IoBinding .* was released/);
    await session.release();
    await expect(session.run({ [copyInputName(0)]: tensor('float32', new Float32Array(1), [1]) })).rejects.toThrow(/was released; open it again/);
    await session.release(); // twice is harmless
  });

  it('turns a corrupt model into a model-invalid StudioError', async () => {
    const err = await capi.createSession(new Uint8Array([1, 2, 3, 4]), { provider: 'cpu' }).catch((e: unknown) => e);
    expect((err as StudioError).code).toBe('model-invalid');
  });

  it.skipIf(fs.existsSync('/dev/nvidiactl'))('turns a CUDA provider that cannot load (no GPU, or no provider installed) into a StudioError naming setup:cuda', async () => {
    const err = await capi.createSession(buildCopyGraph(1, 'float32', 1), { provider: 'cuda', providerOptions: { enable_cuda_graph: '1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).message).toMatch(/npm run setup:cuda/);
    expect((err as StudioError).code).toBe('unsupported');
  });

  it('refuses plain runs on a session that captures its graph (fresh per-run values would be replayed after they are freed)', async () => {
    // the CPU provider ignores the capture option, so the guard is the adapter's own
    const session = await capi.createSession(buildCopyGraph(1, 'float32', 1), { provider: 'cpu', providerOptions: { enable_cuda_graph: '1' } });
    const err = await session.run({ [copyInputName(0)]: tensor('float32', new Float32Array(1), [1]) }).catch((e: unknown) => e);
    expect((err as StudioError).code).toBe('invalid-argument');
    expect((err as StudioError).message).toMatch(/use session\.bind\(\)/);
    const binding = session.bind();
    (binding.input(copyInputName(0), 'float32', [2]).host as Float32Array).set([3, 4]);
    const out = binding.output(copyOutputName(0), 'float32', [2]);
    await binding.run({ gpuGraphId: 1 });
    expect(Array.from(out.host as Float32Array)).toEqual([3, 4]);
    await session.release();
  });

  it('refuses a bad run config value', async () => {
    const session = await capi.createSession(buildCopyGraph(1, 'float32', 1), { provider: 'cpu' });
    const feeds = { [copyInputName(0)]: tensor('float32', new Float32Array(1), [1]) };
    const err = await session.run(feeds, undefined, { config: { '': 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    await session.release();
  });
});

describe('koffi stacks', () => {
  it('gives native calls 8 MiB stacks on the main thread and on the async workers (128 KiB overflowed in the CUDA and WebGPU providers)', async () => {
    const { configuredKoffi, NATIVE_STACK_BYTES } = await import('./koffi-config');
    const { koffi, asyncSafe } = configuredKoffi();
    expect(asyncSafe).toBe(true);
    expect(koffi.config().async_stack_size).toBe(NATIVE_STACK_BYTES);
    expect(koffi.config().sync_stack_size).toBe(NATIVE_STACK_BYTES);
  });
});
