// The streaming codec's carried state kept by the device store (codec-state-device.ts), run on ORT
// CPU with the tiny model: the same codes and PCM bytes as the host store, for requests started
// together and staggered, with the store's three paths taken (fed back as it is, gathered, fresh),
// and nothing left behind once requests finish or are cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import type { CodecStateStats } from './stages/codec-state';
import { openCodecDecoder } from './stages/codec-decoder';
import { loadModelManifest } from './stages/model-manifest';
import type { CodecStage } from './stages/stages';
import { runAndCollect } from './testing/run-and-collect';

const text = 'Hello world, this is the studio.';
const REQUESTS: SynthesisRequest[] = [
  { requestId: 'a', input: text, inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 14 } },
  { requestId: 'b', input: text, inputFormat: 'text', voice: 'dylan', language: 'english', seed: 7, params: { maxNewTokens: 9 } },
  { requestId: 'c', input: text, inputFormat: 'text', voice: 'sohee', language: 'auto', seed: 123, params: { maxNewTokens: 12, subtalkerTopK: 5 } },
  { requestId: 'd', input: text, inputFormat: 'text', voice: 'ryan', language: 'english', seed: 9, params: { maxNewTokens: 11 } },
];
const STAGGER = [0, 1, 3, 4];

let builtDir: string;
let host: Engine;
let device: Engine;
let deviceBucketed: Engine;

/** The stats of the OrtCodecDecoder under an optional BucketedCodec. */
function stateStats(engine: Engine): CodecStateStats & { numResidentBatches?: number } {
  let codec = engine.parts.stages.codec as CodecStage & { inner?: CodecStage; stateStats?: () => CodecStateStats | null };
  while (!codec.stateStats && codec.inner) codec = codec.inner as typeof codec;
  const stats = codec.stateStats?.();
  if (!stats) throw new Error('the engine has no streaming codec state store');
  return stats;
}

beforeAll(async () => {
  builtDir = (await ensureTinyModel()).builtDir;
  const open = (extra: object) => createEngine({ modelDir: builtDir, config: { provider: 'cpu', codec: { mode: 'stream', ...extra } }, log: () => {} });
  host = await open({});
  device = await open({ stateStore: 'device' });
  deviceBucketed = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codec: { mode: 'stream', stateStore: 'device' }, shapeBuckets: { mode: 'on', talkerRows: 2, codePredictorRows: 2, codecMinRows: 2, codecMaxRowFrames: 12 } }, log: () => {} });
});

afterAll(async () => {
  await host?.dispose();
  await device?.dispose();
  await deviceBucketed?.dispose();
});

describe('streaming codec state on the device (tiny, CPU)', () => {
  it("keeps the state on the host by default on CPU, and on the device when asked", () => {
    expect(stateStats(host).strategy).toBe('host');
    expect(stateStats(device).strategy).toBe('device');
  });

  it('gives the bytes of the host store for requests started together and staggered, reusing, gathering and starting states', async () => {
    for (const arrivals of [undefined, STAGGER]) {
      const want = await runAndCollect(host, REQUESTS, arrivals);
      for (const engine of [device, deviceBucketed]) {
        const got = await runAndCollect(engine, REQUESTS, arrivals);
        for (const r of REQUESTS) expect(got.get(r.requestId), `${r.requestId}, arrivals ${arrivals ?? 'together'}`).toEqual(want.get(r.requestId));
      }
    }
    for (const engine of [device, deviceBucketed]) {
      const s = stateStats(engine);
      expect(s.numCallsFresh).toBeGreaterThan(0);
      expect(s.numCallsReused).toBeGreaterThan(0);
      expect(s.numCallsGathered).toBeGreaterThan(0);
      expect(s.numSequences).toBe(0);
      expect(s.numResidentBatches).toBe(0);
    }
    expect(stateStats(host).numSequences).toBe(0);
  });

  it('regathers rows from several earlier calls, reordered and beside a starting row, as the host store does', async () => {
    const manifest = loadModelManifest(builtDir);
    const numQ = manifest.codec.numQuantizers;
    const frames = (id: number, start: number, n: number) => Array.from({ length: n }, (_, t) => Array.from({ length: numQ }, (_, q) => (id * 31 + (start + t) * 7 + q) % 2048));
    // [sequence ids] per call, each row continuing from where its sequence left off
    const schedule = [[1], [2, 3], [3, 4, 1], [3, 4, 1], [1], [2, 1, 4]];
    const run = async (stateOnDevice: boolean) => {
      const codec = await openCodecDecoder(builtDir, manifest, { provider: 'cpu', intraOpNumThreads: 1 }, 'codecStream', stateOnDevice);
      const decoded = new Map<number, number>();
      const pcms: number[][] = [];
      for (const [i, ids] of schedule.entries()) {
        const n = 1 + (i % 3);
        const out = await codec.decodeStreamBatch(ids.map((id) => ({ sequenceId: id, window: frames(id, decoded.get(id) ?? 0, n), numDecodedFrames: decoded.get(id) ?? 0 })));
        ids.forEach((id) => decoded.set(id, (decoded.get(id) ?? 0) + n));
        pcms.push(...out.map((pcm) => Array.from(pcm)));
      }
      const stats = codec.stateStats()!;
      for (const id of decoded.keys()) codec.releaseStream(id);
      const after = codec.stateStats()!;
      await codec.dispose();
      return { pcms, stats, after };
    };
    const onHost = await run(false);
    const onDevice = await run(true);
    expect(onDevice.pcms).toEqual(onHost.pcms);
    expect(onDevice.stats).toMatchObject({ strategy: 'device', numCallsFresh: 2, numCallsGathered: 3, numCallsReused: 1, numSequences: 4 });
    expect(onDevice.after).toMatchObject({ numSequences: 0, numResidentBatches: 0 });
  });

  it('frees the state of a cancelled request', async () => {
    device.addRequest(REQUESTS[0]);
    device.addRequest(REQUESTS[1]);
    for (let i = 0; i < 4; i++) await device.step();
    expect(stateStats(device).numSequences).toBe(2);
    device.cancel('a');
    await device.step();
    expect(stateStats(device).numSequences).toBeLessThanOrEqual(1);
    await device.run();
    expect(stateStats(device)).toMatchObject({ numSequences: 0, numResidentBatches: 0 });
  });
});
