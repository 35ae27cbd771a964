/**
 * Two real CPU engine hosts (tiny model, one intra-op thread each) behind the pool serve a closed
 * loop: every response is valid audio, both engines take work, and each seed's bytes equal those of
 * the same request on one engine host. /status keeps its summed fields and lists both engines. A
 * request routed to an engine killed a moment before is served by the other one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { engineDevicesFor } from './engine-devices';
import { startHeadlessServer } from '../headless/headless-server';

const MAX_HOST_START_MS = 120_000;
const ENGINE = { minFramesCap: 6, framesPerTextToken: 1, intraOpNumThreads: 1, provider: 'cpu' };
const NUM_CLIENTS = 4;
const NUM_PER_CLIENT = 3;
let one: StudioStack;
let two: StudioStack;

const sha = (pcm: Float32Array) => createHash('sha256').update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex');
const request = (client: number, k: number): SynthesisRequest => ({
  requestId: `c${client}-${k}`,
  input: `Client ${client} says line ${k}.`,
  inputFormat: 'text',
  voice: client % 2 === 0 ? 'ryan' : 'serena',
  language: 'english',
  seed: 1000 + client * 10 + k,
  stream: false,
});

/** NUM_CLIENTS clients, each sending its next request when the last one answered. */
async function closedLoop(stack: StudioStack): Promise<Map<string, SynthesisResult>> {
  const results = new Map<string, SynthesisResult>();
  await Promise.all(
    Array.from({ length: NUM_CLIENTS }, async (_, client) => {
      for (let k = 0; k < NUM_PER_CLIENT; k++) {
        const req = request(client, k);
        results.set(req.requestId, await stack.host.call('synthesize', req));
      }
    }),
  );
  return results;
}

beforeAll(async () => {
  const { builtDir } = await ensureTinyModel();
  const make = (devices: string) =>
    createStudioStack({
      hostKind: 'headless',
      version: 'test',
      model: builtDir,
      userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-pool-')),
      engineConfig: ENGINE,
      devices: engineDevicesFor(devices, 'cpu', ENGINE),
      log: () => {},
    });
  one = make('0');
  two = make('0,1');
  await Promise.all([one.host.start(), two.host.start()]);
}, MAX_HOST_START_MS);

afterAll(async () => {
  await Promise.all([one?.dispose(), two?.dispose()]);
});

describe('engine pool of two CPU engine hosts', () => {
  it('serves a closed loop with valid responses whose bytes equal the one-engine run', async () => {
    const single = await closedLoop(one);
    const pooled = await closedLoop(two);
    expect(pooled.size).toBe(NUM_CLIENTS * NUM_PER_CLIENT);
    for (const [id, r] of pooled) {
      expect(r.sampleRateHz).toBe(24000);
      expect(r.numSamples).toBeGreaterThan(0);
      expect(r.pcm.every((x) => Number.isFinite(x))).toBe(true);
      expect(sha(r.pcm), id).toBe(sha(single.get(id)!.pcm));
    }
    const entries = two.host.engineEntries();
    expect(entries.map((e) => e.label)).toEqual(['cpu#0', 'cpu#1']);
    expect(new Set(entries.map((e) => e.pid)).size).toBe(2);
    // both engines took part of the loop
    for (const e of entries) expect(e.totals.numCompleted).toBeGreaterThan(0);
    expect(two.host.requestCounters().numCompleted).toBe(NUM_CLIENTS * NUM_PER_CLIENT);
    const status = await two.host.call('status', {});
    expect(status.engines).toHaveLength(2);
    expect(status.numCompleted).toBeGreaterThanOrEqual(NUM_CLIENTS * NUM_PER_CLIENT);
  }, 120_000);

  it('serves /status with the summed fields, the totals and one entry per engine', async () => {
    const server = await startHeadlessServer({ stack: two, port: 0, hostname: '127.0.0.1', rendererDir: null, log: () => {} });
    try {
      const body = (await (await fetch(`${server.url}/status`)).json()) as { ready: boolean; hostState: string; numCompleted: number; totals: { numCompleted: number }; engines: { label: string; ready: boolean; totals: { numCompleted: number } }[] };
      expect(body.ready).toBe(true);
      expect(body.hostState).toBe('ready');
      expect(body.engines.map((e) => [e.label, e.ready])).toEqual([['cpu#0', true], ['cpu#1', true]]);
      expect(body.engines.reduce((n, e) => n + e.totals.numCompleted, 0)).toBe(body.totals.numCompleted);
    } finally {
      await server.close();
    }
  });

  it('serves a request on the live engine when the engine it was routed to was just killed', async () => {
    const expected = await one.host.call('synthesize', request(9, 1));
    const busy = two.host.call('synthesize', request(9, 0)); // both idle: engine 0 takes it
    const victim = two.host.engineEntries()[1];
    const crashedBefore = victim.totals.numCrashed;
    process.kill(victim.pid!, 'SIGKILL');
    // engine 1 is the less loaded and its exit is not seen yet: the request goes there first
    const served = await two.host.call('synthesize', request(9, 1));
    expect(sha(served.pcm)).toBe(sha(expected.pcm));
    expect(two.host.engineEntries()[1].totals.numCrashed).toBe(crashedBefore + 1);
    await busy;
    await two.host.whenReady();
  }, 120_000);
});
