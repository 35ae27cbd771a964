/**
 * Lab: which provider runs each op the in-graph sampler could use, and what session settings do to
 * per-dispatch cost (GPU machine; not a test). Part 1 profiles one graph of small op cases (TopK,
 * int64/int32 Cast, Gather, GatherElements, Concat, CumSum, reductions, compares) and lists every
 * node's provider, with and without session `extra` entries. Part 2 times a chain of small Adds.
 * Run (bundled): node op-placement-probe.mjs --out $OUT [--loopGraph <built fp16 dir>]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GraphBuilder } from '../../src-main/model-format/onnx/graph-builder';
import { createSession, runSession, tensor, type SessionOptions } from '../../src-main/engine/runtime/ort';

const { values: args } = parseArgs({ options: { out: { type: 'string', default: '.cache/op-probe' }, provider: { type: 'string', default: 'webgpu' }, loopGraph: { type: 'string' } } });
const out = args.out!;
fs.mkdirSync(out, { recursive: true });
const results: Record<string, unknown> = { date: new Date().toISOString() };
const save = () => fs.writeFileSync(path.join(out, 'op-probe.json'), JSON.stringify(results, null, 1));
const provider = args.provider as 'webgpu' | 'cpu';
const B = 8;
const V = 2048;

/** Producer node name → op case, filled by opCases(). */
const caseOfNode: Record<string, string> = {};

/** One graph with a named output per op case. */
function opCases(): Uint8Array {
  const g = new GraphBuilder({ name: 'op_cases' });
  g.input('x', 'float32', [B, V]);
  g.input('k', 'int64', [1]);
  g.input('idx64', 'int64', [B, 1]);
  g.input('idx32', 'int32', [B, 1]);
  g.input('table', 'float16', [V, 64]);
  const cases: Record<string, [string, 'float32' | 'int64' | 'int32' | 'float16' | 'bool']> = {};
  const add = (name: string, value: string, t: 'float32' | 'int64' | 'int32' | 'float16' | 'bool') => (cases[name] = [value, t]);
  const [values, indices] = g.node('TopK', ['x', 'k'], 2, { axis: 1, largest: 1, sorted: 1 });
  add('topk_values', values, 'float32');
  add('topk_indices', indices, 'int64');
  add('cast_i64_i32', g.cast(indices, 'int32'), 'int32');
  add('cast_i64_f32', g.cast(indices, 'float32'), 'float32');
  add('cast_f32_i32', g.cast(values, 'int32'), 'int32');
  add('cast_f32_i64', g.cast(values, 'int64'), 'int64');
  add('gatherel_i64_i64', g.op('GatherElements', [indices, 'idx64'], { axis: 1 }), 'int64');
  add('gatherel_i64_i32', g.op('GatherElements', [indices, 'idx32'], { axis: 1 }), 'int64');
  add('gatherel_f32_i32', g.op('GatherElements', [values, 'idx32'], { axis: 1 }), 'float32');
  add('gather_f16_i32', g.gather('table', 'idx32', 0), 'float16');
  add('gather_f16_i64', g.gather('table', 'idx64', 0), 'float16');
  add('concat_i32', g.concat(['idx32', 'idx32'], 1), 'int32');
  add('concat_i64', g.concat(['idx64', 'idx64'], 1), 'int64');
  add('cumsum_f32', g.op('CumSum', ['x', g.constInt64([1], [])]), 'float32');
  add('cumsum_excl_f32', g.op('CumSum', ['x', g.constInt64([1], [])], { exclusive: 1 }), 'float32');
  add('reducesum_f32', g.op('ReduceSum', ['x', g.constInt64([1])], { keepdims: 1 }), 'float32');
  add('reducemin_f32', g.op('ReduceMin', ['x'], { axes: [1], keepdims: 1 }), 'float32');
  add('reducemax_i64', g.op('ReduceMax', ['k'], { keepdims: 1 }), 'int64');
  const less = g.op('Less', ['x', g.constFloat(0)]);
  add('where_f32', g.op('Where', [less, 'x', g.constFloat(0)]), 'float32');
  add('cast_bool_f32', g.cast(g.op('LessOrEqual', ['x', g.constFloat(0.5)]), 'float32'), 'float32');
  add('and_bool', g.op('And', [less, g.op('GreaterOrEqual', ['x', g.constFloat(-0.5)])]), 'bool');
  add('min_f32', g.op('Min', ['x', g.constFloat(0.25)]), 'float32');
  add('argmax_f32', g.op('ArgMax', ['x'], { axis: 1, keepdims: 1 }), 'int64');
  add('less_i64', g.op('Less', ['idx64', g.constInt64([3], [])]), 'bool');
  add('add_i32', g.add('idx32', g.op('Cast', [g.constInt64([1], [])], { to: 6 })), 'int32');
  add('softmax_f32', g.softmax('x', 1), 'float32');
  for (const [name, [value, t]] of Object.entries(cases)) {
    g.node('Identity', [value], [name]);
    g.output(name, t, [], name);
  }
  const graphNodes = (g.toModelObject() as { graph: { node: { name: string; output: string[] }[] } }).graph.node;
  for (const [name, [value]] of Object.entries(cases)) {
    const producer = graphNodes.find((n) => n.output.includes(value));
    if (producer) caseOfNode[producer.name] = name;
  }
  return g.toBytes();
}

/** A chain of `n` Adds on a [B, 1024] fp16 tensor: dispatch cost per node. */
function addChain(n: number): Uint8Array {
  const g = new GraphBuilder({ name: 'add_chain' });
  g.input('x', 'float16', [B, 1024]);
  let v = 'x';
  const one = g.constFloat(0.001, 'float16');
  for (let i = 0; i < n; i++) v = g.add(v, one);
  g.node('Identity', [v], ['y']);
  g.output('y', 'float16', [B, 1024]);
  return g.toBytes();
}

function summarizeProfile(file: string): Record<string, string> {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')) as { cat: string; name: string; dur: number; args?: { op_name?: string; provider?: string } }[];
  const nodes = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  const byNode: Record<string, string> = {};
  for (const n of nodes) byNode[n.name.replace(/_kernel_time$/, '')] = `${n.args?.op_name} @${(n.args?.provider ?? '?').replace('ExecutionProvider', '')}`;
  return byNode;
}

const feeds = () => ({
  x: tensor('float32', Float32Array.from({ length: B * V }, (_, i) => Math.sin(i * 0.37)), [B, V]),
  k: tensor('int64', BigInt64Array.from([50n]), [1]),
  idx64: tensor('int64', BigInt64Array.from({ length: B }, (_, i) => BigInt(i)), [B, 1]),
  idx32: tensor('int32', Int32Array.from({ length: B }, (_, i) => i), [B, 1]),
  table: tensor('float16', new Uint16Array(V * 64), [V, 64]),
});

const variants: Record<string, Partial<SessionOptions>> = {
  default: {},
  int64Extra: { extra: { 'ep.webgpuexecutionprovider.enableInt64': '1' } },
};
for (const [name, extraOptions] of Object.entries(variants)) {
  try {
    const prefix = path.join(out, `prof-${name}`);
    const session = await createSession(opCases(), { provider, enableProfiling: true, profileFilePrefix: prefix, ...extraOptions });
    await runSession(session, feeds());
    const profileFile = await session.endProfiling();
    await session.release();
    const file = fs.readdirSync(out).filter((f) => f.startsWith(`prof-${name}`)).map((f) => path.join(out, f))[0] ?? String(profileFile);
    const byNode = summarizeProfile(file);
    results[`placement_${name}`] = Object.fromEntries(Object.entries(byNode).map(([node, v]) => [caseOfNode[node] ?? node, v]));
    console.log(name, JSON.stringify(results[`placement_${name}`], null, 1));
  } catch (err) {
    results[`placement_${name}_error`] = String(err);
    console.log(name, 'failed', String(err));
  }
  save();
}

/** ms per run of an Add chain under session settings (mean of 20 after 3 warm-ups). */
async function timeChain(n: number, options: Partial<SessionOptions>): Promise<number> {
  const session = await createSession(addChain(n), { provider, ...options });
  const x = tensor('float16', new Uint16Array(B * 1024), [B, 1024]);
  for (let i = 0; i < 3; i++) await runSession(session, { x });
  const t = performance.now();
  for (let i = 0; i < 20; i++) await runSession(session, { x });
  await session.release();
  return Number(((performance.now() - t) / 20).toFixed(3));
}
const chainVariants: Record<string, Partial<SessionOptions>> = {
  default: {},
  pending128: { extra: { 'ep.webgpuexecutionprovider.maxNumPendingDispatches': '128' } },
  pending1024: { extra: { 'ep.webgpuexecutionprovider.maxNumPendingDispatches': '1024' } },
  validationDisabled: { providerOptions: { validationMode: 'disabled' } },
};
const chain: Record<string, unknown> = {};
for (const [name, options] of Object.entries(chainVariants)) {
  try {
    chain[name] = { n100: await timeChain(100, options), n1000: await timeChain(1000, options) };
  } catch (err) {
    chain[name] = String(err);
  }
  console.log('chain', name, JSON.stringify(chain[name]));
  results.addChainMsPerRun = chain;
  save();
}

/** Nodes of a built code-predictor loop graph that did not run on the GPU provider, by op type. */
if (args.loopGraph) {
  const prefix = path.join(out, 'prof-loop');
  const session = await createSession(path.join(args.loopGraph, 'code_predictor_loop.onnx'), { provider, enableProfiling: true, profileFilePrefix: prefix });
  const h = (JSON.parse(fs.readFileSync(path.join(args.loopGraph, 'manifest.json'), 'utf8')) as { talker: { hiddenSize: number } }).talker.hiddenSize;
  const f16 = (n: number) => new Uint16Array(n).fill(0x2e66); // 0.1
  const loopFeeds = {
    last_hidden: tensor('float16', f16(h), [1, 1, h]),
    first_code_embed: tensor('float16', f16(h), [1, 1, h]),
    uniforms: tensor('float32', new Float32Array(15).fill(0.5), [1, 15]),
    temperature: tensor('float32', Float32Array.from([0.9]), [1]),
    top_k: tensor('int64', BigInt64Array.from([50n]), [1]),
    top_p: tensor('float32', Float32Array.from([1]), [1]),
  };
  try {
    for (let i = 0; i < 2; i++) await runSession(session, loopFeeds);
    await session.release();
    const file = fs.readdirSync(out).filter((f) => f.startsWith('prof-loop')).map((f) => path.join(out, f))[0];
    const byNode = summarizeProfile(file);
    const offGpu: Record<string, number> = {};
    for (const v of Object.values(byNode)) if (!v.endsWith('@WebGpu')) offGpu[v] = (offGpu[v] ?? 0) + 1;
    results.loopGraphOffGpu = offGpu;
    console.log('loop graph, not on WebGPU:', JSON.stringify(offGpu, null, 1));
  } catch (err) {
    results.loopGraphError = String(err);
  }
  save();
}
console.log('done');
