/**
 * Lab: 1 vs 2 CPU engine hosts on the tiny model, closed loop, in one run (interleaved rounds so a
 * shared machine's load hits both alike). One engine gets all cores; two split them (engine-devices);
 * a third run, one engine on one thread, separates the thread count from the process count.
 * Usage: node --import tsx lab/render/pool-throughput.ts [clients=8] [windowS=20] [rounds=2]
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { createStudioStack, type StudioStack } from '../../src-main/app/studio-stack';
import { ensureTinyModel } from '../../src-main/model-builder/tiny-model';
import { engineDevicesFor } from '../../src-main/engine-client/engine-devices';

const [numClients, windowS, numRounds] = [Number(process.argv[2] ?? 8), Number(process.argv[3] ?? 20), Number(process.argv[4] ?? 2)];
const ENGINE = { provider: 'cpu', minFramesCap: 20, framesPerTextToken: 1 };

async function closedLoop(stack: StudioStack, ms: number): Promise<{ numRequests: number; audioS: number }> {
  const endMs = performance.now() + ms;
  let numRequests = 0;
  let audioS = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: numClients }, async (_, c) => {
      while (performance.now() < endMs) {
        const r = await stack.host.call('synthesize', { requestId: `b${c}-${n++}`, input: `Client ${c} reads sentence number ${n}.`, inputFormat: 'text', voice: 'ryan', language: 'english', seed: n, stream: false });
        if (performance.now() <= endMs) {
          numRequests++;
          audioS += r.numSamples / r.sampleRateHz;
        }
      }
    }),
  );
  return { numRequests, audioS };
}

const { builtDir } = await ensureTinyModel();
const make = (devices: string, engineConfig: Record<string, unknown> = ENGINE) =>
  createStudioStack({ hostKind: 'headless', version: 'lab', model: builtDir, userDataDir: mkdtempSync(path.join(os.tmpdir(), 'pool-bench-')), engineConfig, devices: engineDevicesFor(devices, 'cpu', engineConfig), log: () => {} });
const stacks = { one: make('0'), two: make('0,1'), oneThread: make('0', { ...ENGINE, intraOpNumThreads: 1 }) };
const LABELS = { one: '1 engine, all cores', two: '2 engines, cores split', oneThread: '1 engine, 1 thread' };
type Name = keyof typeof stacks;
await Promise.all(Object.values(stacks).map((r) => r.host.start()));
console.log(`cores ${os.availableParallelism()}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${numClients} clients, ${windowS} s windows, ${numRounds} rounds`);
for (const r of Object.values(stacks)) await closedLoop(r, 3_000); // warm-up
const totals = { one: { numRequests: 0, audioS: 0 }, two: { numRequests: 0, audioS: 0 }, oneThread: { numRequests: 0, audioS: 0 } };
const order: Name[] = ['one', 'two', 'oneThread'];
for (let round = 0; round < numRounds; round++) {
  for (const name of round % 2 === 0 ? order : [...order].reverse()) {
    const r = await closedLoop(stacks[name], windowS * 1000);
    totals[name].numRequests += r.numRequests;
    totals[name].audioS += r.audioS;
    console.log(`round ${round + 1} ${LABELS[name]}: ${(r.numRequests / windowS).toFixed(2)} req/s, ${(r.audioS / windowS).toFixed(2)} audio s/s`);
  }
}
const rate = (t: { numRequests: number }) => t.numRequests / (windowS * numRounds);
for (const name of order) console.log(`${LABELS[name]}: ${rate(totals[name]).toFixed(2)} req/s, ${(totals[name].audioS / (windowS * numRounds)).toFixed(2)} audio s/s`);
console.log(`ratio 2 engines / 1 engine (all cores): ${(rate(totals.two) / rate(totals.one)).toFixed(2)}; 2 engines / 1 engine (1 thread): ${(rate(totals.two) / rate(totals.oneThread)).toFixed(2)}`);
await Promise.all(Object.values(stacks).map((r) => r.dispose()));
process.exit(0);
