/**
 * Lab: where does WebGPU graph capture lose time and memory? Runs the same staggered requests on the engine
 * with graphCapture 'off' (today's graphs), 'bound' (capture-ready graphs over bound buffers, uncaptured) and
 * 'on' (captured), and prints per form: wall time, steps, the talker's bound-decode counters (runs, runs whose
 * KV was staged from the host pool, buckets, sessions opened) and the GPU memory the process holds at the end.
 * Run: node capture-cost.js --model <built fp16 dir> --provider webgpu [--requests 16] [--frames 16]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { createEngine } from '../../src-main/engine/create-engine';
import type { OrtTalker } from '../../src-main/engine/stages/talker';
import { runAndCollect } from '../../src-main/engine/testing/run-and-collect';

const { values: args } = parseArgs({ options: { model: { type: 'string' }, provider: { type: 'string', default: 'webgpu' }, requests: { type: 'string', default: '16' }, frames: { type: 'string', default: '16' }, forms: { type: 'string', default: 'off,bound,on' } } });
const numRequests = Number(args.requests);
const REQUESTS: SynthesisRequest[] = Array.from({ length: numRequests }, (_, i) => ({
  requestId: `c${i}`, input: i % 2 ? 'Words of a different length here, and a few more.' : 'Short one.', inputFormat: 'text',
  voice: ['ryan', 'dylan', 'sohee', 'vivian'][i % 4], language: 'english', seed: 5 + i,
  params: { maxNewTokens: Number(args.frames), temperature: 0.9 },
}));
/** A new request every 3 steps, as a closed loop's arrivals stagger. */
const ARRIVALS = REQUESTS.map((_, i) => 3 * i);

function gpuMemoryMiB(): number | null {
  try {
    const rows = execFileSync('nvidia-smi', ['--query-compute-apps=pid,used_memory', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
    const mine = rows.split('\n').map((l) => l.split(',').map((x) => x.trim())).find(([pid]) => Number(pid) === process.pid);
    return mine ? Number(mine[1]) : null;
  } catch {
    return null;
  }
}

for (const mode of args.forms!.split(',')) {
  const t0 = performance.now();
  try {
    const engine = await createEngine({ modelDir: args.model!, config: { provider: args.provider, maxRunningSequences: 8, maxPrefillSequences: 8, graphCapture: { mode } }, log: () => {} });
    const tOpen = performance.now() - t0;
    try {
      await runAndCollect(engine, REQUESTS.slice(0, 1));
      const tWarm = performance.now();
      await runAndCollect(engine, REQUESTS, ARRIVALS);
      const tRun = performance.now() - tWarm;
      const talker = engine.parts.stages.talker as unknown as OrtTalker;
      const bound = talker.boundDecodeStats?.() ?? null;
      console.log(`${mode}: open ${tOpen.toFixed(0)} ms, ${numRequests} requests in ${tRun.toFixed(0)} ms; talker bound ${JSON.stringify(bound)}; kv ${JSON.stringify(talker.kvStats?.() ?? null)}; GPU memory ${gpuMemoryMiB() ?? '?'} MiB`);
    } finally {
      await engine.dispose();
    }
  } catch (err) {
    console.log(`${mode}: ERROR ${(err as Error).message.slice(0, 300)}`);
  }
}
