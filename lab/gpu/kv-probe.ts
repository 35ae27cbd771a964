/**
 * Lab: host-resident vs device-resident talker KV on a built model (GPU machine; not a test). Runs
 * the same staggered requests (one arrives every `gap` steps, as in a closed loop) on an engine with
 * kvCache 'host' and one with 'device', compares every request's codes and PCM bytes, and records
 * wall time, talker time and the KV store's counters. Exits 1 when the bytes differ or a run fails.
 * First, step by step with a log line each, the gpu-buffer tensor operations the device strategy uses
 * (gpu output, feeding it to another session, copy-session download, dispose; --getData last, as it
 * aborted the process before), so a crash names the operation.
 * Run (bundled): node kv-probe.js --model <built dir> --provider webgpu --out $OUT [--requests 8 --frames 16 --gap 2] [--getData --stepsOnly]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { buildCopyGraph } from '../../src-main/model-format/copy-graph';
import { createEngine } from '../../src-main/engine/create-engine';
import { createSession, runSession, tensor } from '../../src-main/engine/runtime/ort';
import type { OrtTalker } from '../../src-main/engine/stages/talker';
import { runAndCollect } from '../../src-main/engine/testing/run-and-collect';

const { values: args } = parseArgs({
  options: { model: { type: 'string' }, provider: { type: 'string', default: 'webgpu' }, out: { type: 'string', default: '.cache/kv-probe' }, requests: { type: 'string', default: '8' }, frames: { type: 'string', default: '16' }, gap: { type: 'string', default: '2' }, getData: { type: 'boolean', default: false }, stepsOnly: { type: 'boolean', default: false } },
});
if (!args.model) throw new Error('--model <built dir> is required');
const provider = args.provider as 'webgpu' | 'cpu';
const step = (name: string) => console.log(`gpu-tensor step: ${name}`);
const x = Float32Array.from({ length: 2 * 3 * 4 * 5 }, (_, i) => i * 0.5);
const onGpu = await createSession(buildCopyGraph(1, 'float32', 4), { provider, ...(provider === 'webgpu' ? { gpuOutputs: ['y_0'] } : {}) });
const toHost = await createSession(buildCopyGraph(1, 'float32', 4), { provider });
const y = (await runSession(onGpu, { x_0: tensor('float32', x, [2, 3, 4, 5]) })).y_0;
step(`gpu output ok, location ${y.location}`);
const back = (await runSession(toHost, { x_0: y })).y_0;
step(`copy-session download ok, location ${back.location}, equal ${(back.data as Float32Array).every((v, i) => v === x[i])}`);
const y2 = (await runSession(onGpu, { x_0: y })).y_0;
step(`gpu tensor fed to a gpu-output run ok, location ${y2.location}`);
if (y.location === 'gpu-buffer') y.dispose();
if (y2.location === 'gpu-buffer') y2.dispose();
step('dispose ok');
if (args.getData) {
  const y3 = (await runSession(onGpu, { x_0: tensor('float32', x, [2, 3, 4, 5]) })).y_0;
  const data = (await y3.getData()) as Float32Array;
  step(`getData ok, equal ${data.every((v, i) => v === x[i])}`);
}
await onGpu.release();
await toHost.release();
if (args.stepsOnly) process.exit(0);

const numRequests = Number(args.requests);
const requests: SynthesisRequest[] = Array.from({ length: numRequests }, (_, i) => ({
  requestId: `kv${i}`,
  input: i % 2 ? 'A second sentence, of another length than the first one.' : 'The lighthouse keeper climbed the stairs.',
  inputFormat: 'text',
  voice: ['ryan', 'dylan', 'sohee', 'vivian'][i % 4],
  language: 'english',
  seed: 500 + 13 * i,
  params: { maxNewTokens: Number(args.frames), temperature: 0.9 },
}));
const arrivals = requests.map((_, i) => i * Number(args.gap));
const report: Record<string, unknown> = { date: new Date().toISOString(), args };
const outputs: Record<string, Map<string, unknown>> = {};
for (const mode of ['host', 'device'] as const) {
  const engine = await createEngine({ modelDir: args.model, config: { provider: args.provider, kvCache: { mode }, minFramesCap: Number(args.frames), framesPerTextToken: 0, maxRunningSequences: 64, maxPrefillSequences: 16 }, log: () => {} });
  const talker = engine.parts.stages.talker as unknown as OrtTalker & { decode: OrtTalker['decode'] };
  let talkerMs = 0;
  const decode = talker.decode.bind(talker);
  talker.decode = async (inputs) => {
    const t = performance.now();
    try {
      return await decode(inputs);
    } finally {
      talkerMs += performance.now() - t;
    }
  };
  await runAndCollect(engine, requests.slice(0, 1)); // warm-up (shapes, buffers)
  const t0 = performance.now();
  outputs[mode] = await runAndCollect(engine, requests, arrivals);
  const wallMs = performance.now() - t0;
  report[mode] = { wallMs: Math.round(wallMs), talkerDecodeMs: Math.round(talkerMs), kv: talker.kvStats(), talkerRuns: talker.runBatchSizes.length };
  console.log(mode, JSON.stringify(report[mode]));
  await engine.dispose();
}
const same = requests.map((r) => JSON.stringify(outputs.host.get(r.requestId)) === JSON.stringify(outputs.device.get(r.requestId)));
report.identical = same;
console.log('device bytes = host bytes per request:', same.join(' '));
fs.mkdirSync(args.out!, { recursive: true });
fs.writeFileSync(path.join(args.out!, 'kv-probe.json'), JSON.stringify(report, null, 1));
process.exit(same.every(Boolean) ? 0 : 1);
