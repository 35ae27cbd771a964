// Sessions for captured graphs (graph-sessions.ts) through BoundRuns on the CPU provider and the C-API
// adapter: shared mode runs every bucket in one session; per-graph mode (WebGPU's one captured graph per
// session) opens a session per bucket, closes it when the LRU evicts the bucket, and gives the same outputs;
// per-bucket mode (an uncaptured codec whose Conv plans follow the last shape) gives all a bucket's graph ids one.
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../../model-format/onnx/graph-builder';
import { createSession } from '../runtime/ort';
import { BoundRuns } from './bound-runs';
import { capturePerGraph } from '../engine-plan';
import { PROVIDERS } from '../runtime/providers';
import { GraphSessions, type BindableSession } from './graph-sessions';

/** y = 2x + table[pos] for x of any length. */
function model(): Uint8Array {
  const g = new GraphBuilder({ name: 'sessions_probe' });
  g.input('x', 'float32', ['n']);
  g.input('pos', 'int64', [1]);
  const table = g.constFloat([10, 20, 30, 40, 50, 60, 70, 80], 'float32', [8]);
  g.output(g.add(g.mul('x', g.constFloat(2)), g.gather(table, 'pos', 0)), 'float32', ['n'], 'y');
  return g.toBytes();
}

const open = (m: string | Uint8Array, o: object) => createSession(m, { provider: 'cpu', runtime: 'c-api', ...o });

async function runShapes(sharing: 'shared' | 'graph' | 'bucket', maxBuckets: number): Promise<{ outputs: number[][]; sessions: number[] }> {
  const bytes = model();
  const file = `${process.env.TMPDIR ?? '/tmp'}/sessions-probe-${process.pid}.onnx`;
  (await import('node:fs')).writeFileSync(file, bytes);
  const runs = await BoundRuns.open(file, [{ name: 'x', dtype: 'float32', rank: 1 }, { name: 'pos', dtype: 'int64', rank: 1 }], [{ name: 'y', dtype: 'float32', rank: 1 }], { open, captureOptions: {}, location: 'cpu', maxBuckets, perGraph: sharing === 'graph', perBucket: sharing === 'bucket' });
  const outputs: number[][] = [];
  const sessions: number[] = [];
  try {
    for (const [n, pos] of [[2, 1], [3, 2], [2, 3], [4, 0], [3, 5], [2, 7]]) {
      const out = await runs.run({ x: [n], pos: [1], y: [n] }, (v) => {
        (v.x as Float32Array).set(Array.from({ length: n }, (_, i) => i + pos));
        (v.pos as BigInt64Array)[0] = BigInt(pos);
      });
      outputs.push(Array.from(out.y as Float32Array));
      sessions.push(runs.stats().numSessions);
    }
  } finally {
    await runs.dispose();
  }
  return { outputs, sessions };
}

describe('graph sessions', () => {
  it('keeps one captured graph per session on WebGPU (ORT 1.29) and many by gpu_graph_id on CUDA', () => {
    expect(PROVIDERS.webgpu.graphCapture.graphsPerSession).toBe('one');
    expect(PROVIDERS.cuda.graphCapture.graphsPerSession).toBe('many');
    expect(capturePerGraph('webgpu', { enableGraphCapture: '1' })).toBe(true);
    expect(capturePerGraph('webgpu', {})).toBe(false);
    expect(capturePerGraph('cuda', { enable_cuda_graph: '1' })).toBe(false);
  });

  it('per-graph mode opens a session per bucket, closes evicted ones, and gives the shared mode\'s outputs', async () => {
    const shared = await runShapes('shared', 2);
    const perGraph = await runShapes('graph', 2);
    expect(perGraph.outputs).toEqual(shared.outputs);
    expect(shared.outputs[0]).toEqual([2 * 1 + 20, 2 * 2 + 20]);
    expect(shared.sessions.every((n) => n === 1)).toBe(true);
    // buckets n=2, n=3 → two sessions; n=4 evicts one (LRU of 2), so it never exceeds 2
    expect(perGraph.sessions).toEqual([1, 2, 2, 2, 2, 2]);
  });

  it('drops a session taken for a bucket that failed to open, and releases every session on dispose', async () => {
    const released: string[] = [];
    let made = 0;
    const fake = (): BindableSession => {
      const id = `s${made++}`;
      return { runtime: 'c-api', inputNames: [], outputNames: [], run: async () => ({}), bind: () => { throw new Error('no binding'); }, endProfiling: async () => '', release: async () => void released.push(id) } as BindableSession;
    };
    const sessions = await GraphSessions.open(async () => fake(), 'm.onnx', { enableGraphCapture: '1' }, 'graph');
    const a = await sessions.forGraph();
    const b = await sessions.forGraph();
    expect(sessions.numOpen).toBe(2);
    await sessions.drop(b);
    expect(released).toEqual(['s1']);
    await sessions.dispose();
    expect(released).toEqual(['s1', 's0']);
    expect(a).not.toBe(b);
  });
  it('per-bucket mode gives each bucket one session for all its graph ids, closes it once on eviction, and gives the shared outputs', async () => {
    const shared = await runShapes('shared', 2);
    const perBucket = await runShapes('bucket', 2);
    expect(perBucket.outputs).toEqual(shared.outputs);
    expect(perBucket.sessions).toEqual([1, 2, 2, 2, 2, 2]);
    const released: string[] = [];
    let made = 0;
    const fake = (): BindableSession => {
      const id = `s${made++}`;
      return { runtime: 'c-api', inputNames: [], outputNames: [], run: async () => ({}), bind: () => { throw new Error('no binding'); }, endProfiling: async () => '', release: async () => void released.push(id) } as BindableSession;
    };
    const sessions = await GraphSessions.open(async () => fake(), 'm.onnx', {}, 'bucket');
    const [a0, a1] = await sessions.forBucket(2);
    const [b0, b1] = await sessions.forBucket(2);
    expect(a0).toBe(a1);
    expect(b0).toBe(b1);
    expect(a0).not.toBe(b0);
    expect(sessions.numOpen).toBe(2);
    for (const s of [b0, b1]) await sessions.drop(s);
    expect(released).toEqual(['s1']);
    const shared2 = await GraphSessions.open(async () => fake(), 'm.onnx', {}, 'shared');
    const [c0, c1] = await shared2.forBucket(2);
    expect(c0).toBe(c1);
    await shared2.drop(c0);
    expect(shared2.numOpen).toBe(1);
  });

  it('the plan gives CUDA\'s uncaptured streaming codec a session per bucket, and no other provider or form', () => {
    expect(PROVIDERS.cuda.graphCapture.planPerShape).toBe(true);
    expect(PROVIDERS.webgpu.graphCapture.planPerShape).toBe(false);
  });
});
