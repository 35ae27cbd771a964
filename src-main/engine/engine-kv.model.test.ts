// The talker KV store on the tiny model (CPU): sequences that arrive at different steps share one
// talker run (rows of different lengths in one KV-capacity bucket) and still give their solo bytes,
// with the host strategy and with the device strategy (present outputs fed straight back; regrouped
// runs gathered from resident groups, or, with regroupOnDevice false, through the host pool; on CPU
// the "device" tensors are host tensors, so the same code path runs); 1,000 requests leave the block
// pool exactly as large as after the first round, with every block free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import { kvBytesPerPosition } from './kv/kv-capacity';
import type { Engine } from './engine';
import type { OrtTalker } from './stages/talker';
import { runAndCollect, type RequestOutputs } from './testing/run-and-collect';

const CONFIG = { provider: 'cpu', codePredictor: 'step', maxRunningSequences: 8, maxPrefillSequences: 8 };
const VOICES = ['ryan', 'dylan', 'sohee', 'vivian'];

function requests(count: number, prefix: string, maxNewTokens: number): SynthesisRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    requestId: `${prefix}${i}`,
    input: 'The same words for every request.',
    inputFormat: 'text',
    voice: VOICES[i % VOICES.length],
    language: 'english',
    seed: 1000 + 17 * i,
    params: { maxNewTokens: maxNewTokens + (i % 3), temperature: 0.9 },
  }));
}

const kvStats = (engine: Engine) => (engine.parts.stages.talker as unknown as OrtTalker).kvStats();
const runSizes = (engine: Engine) => (engine.parts.stages.talker as unknown as OrtTalker).runBatchSizes;

let builtDir: string;
let host: Engine;
let device: Engine;
let deviceViaHost: Engine;
let solo: RequestOutputs;
const STAGGERED = requests(6, 's', 10);

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  host = await createEngine({ modelDir: builtDir, config: CONFIG, log: () => {} });
  device = await createEngine({ modelDir: builtDir, config: { ...CONFIG, kvCache: { mode: 'device' } }, log: () => {} });
  deviceViaHost = await createEngine({ modelDir: builtDir, config: { ...CONFIG, kvCache: { mode: 'device', regroupOnDevice: false } }, log: () => {} });
  solo = new Map();
  for (const r of STAGGERED) for (const [k, v] of await runAndCollect(host, [r])) solo.set(k, v);
});

afterAll(async () => {
  await host?.dispose();
  await device?.dispose();
  await deviceViaHost?.dispose();
});

describe('talker KV store (tiny, CPU)', () => {
  it('uses the host strategy on CPU by default and the device strategy when asked', () => {
    expect(kvStats(host).strategy).toBe('host');
    expect(kvStats(device).strategy).toBe('device');
  });

  for (const which of ['host', 'device', 'device, regroup via host'] as const) {
    it(`${which} strategy: staggered arrivals share talker runs and give each request its solo codes and PCM bytes`, async () => {
      const engine = which === 'host' ? host : which === 'device' ? device : deviceViaHost;
      const runsBefore = runSizes(engine).length;
      const before = kvStats(engine);
      const together = await runAndCollect(engine, STAGGERED, STAGGERED.map((_, i) => 2 * i));
      for (const r of STAGGERED) expect(together.get(r.requestId), r.requestId).toEqual(solo.get(r.requestId));
      // arrivals two steps apart give every sequence its own past length, so a multi-row run mixes lengths
      expect(Math.max(...runSizes(engine).slice(runsBefore))).toBeGreaterThanOrEqual(4);
      const after = kvStats(engine);
      if (which === 'device') {
        // every decode regroup stays on the device: nothing goes back to the pool
        expect(after.numRunsReused - before.numRunsReused).toBeGreaterThan(0);
        expect(after.numRunsRegrouped - before.numRunsRegrouped).toBeGreaterThan(0);
        expect(after.numGroupsDownloaded - before.numGroupsDownloaded).toBe(0);
      }
      if (which === 'device, regroup via host') {
        expect(after.numRunsReused - before.numRunsReused).toBeGreaterThan(0);
        expect(after.numRunsRegrouped - before.numRunsRegrouped).toBe(0);
        expect(after.numGroupsDownloaded - before.numGroupsDownloaded).toBeGreaterThan(0);
      }
      expect(after).toMatchObject({ numSequences: 0, numBlocksFree: after.numBlocksAllocated });
    });
  }

  it('sizes its KV pool once: the pool and the scheduler count the same blocks, and a memory bound shrinks both', async () => {
    expect(host.scheduler.kvPool.numBlocks).toBe(kvStats(host).maxBlocks);
    // maxRunningSequences 8 × ceil(maxSequenceTokens 4,096 / 64) = 512 blocks
    expect(kvStats(host).maxBlocks).toBe(512);
    const bytesPerBlock = kvBytesPerPosition(host.parts.manifest) * 64;
    const bounded = await createEngine({ modelDir: builtDir, config: CONFIG, kvMemoryBytes: bytesPerBlock * 20, log: () => {} });
    try {
      expect(kvStats(bounded).maxBlocks).toBe(20);
      expect(bounded.scheduler.kvPool.numBlocks).toBe(20);
    } finally {
      await bounded.dispose();
    }
  });

  it('does not grow the block pool over 1,000 requests and frees every block (regroups through the pool)', { timeout: 240_000 }, async () => {
    const engine = await createEngine({ modelDir: builtDir, config: { ...CONFIG, kvCache: { mode: 'device', initialBlocks: 1, regroupOnDevice: false } }, log: () => {} });
    try {
      const round = (n: number) => requests(25, `r${n}-`, 1);
      await runAndCollect(engine, round(0), round(0).map((_, i) => i % 8));
      const first = kvStats(engine);
      expect(first.numBlocksAllocated).toBeGreaterThan(1);
      let numDone = 25;
      for (let n = 1; numDone < 1000; n++, numDone += 25) {
        const outputs = await runAndCollect(engine, round(n), round(n).map((_, i) => i % 8));
        expect(outputs.size).toBe(25);
      }
      const last = kvStats(engine);
      expect(numDone).toBe(1000);
      expect(last.numBlocksAllocated).toBe(first.numBlocksAllocated);
      expect(last.numStagingElements).toBe(first.numStagingElements);
      expect(last).toMatchObject({ numSequences: 0, numBlocksFree: last.numBlocksAllocated, numResidentGroups: 0 });
    } finally {
      await engine.dispose();
    }
  });

  it('leaves no resident group behind after 200 staggered requests regrouped on the device', { timeout: 120_000 }, async () => {
    const engine = await createEngine({ modelDir: builtDir, config: { ...CONFIG, kvCache: { mode: 'device' } }, log: () => {} });
    try {
      for (let n = 0; n < 8; n++) {
        const round = requests(25, `d${n}-`, 1);
        expect((await runAndCollect(engine, round, round.map((_, i) => i % 8))).size).toBe(25);
      }
      const stats = kvStats(engine);
      expect(stats.numRunsRegrouped).toBeGreaterThan(0);
      expect(stats).toMatchObject({ numSequences: 0, numResidentGroups: 0, numGroupsDownloaded: 0 });
    } finally {
      await engine.dispose();
    }
  });
});
