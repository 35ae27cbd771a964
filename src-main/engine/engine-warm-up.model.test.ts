// The start-up warm-up (warm-up.ts) on the tiny model, CPU, graphCapture 'bound' (the capture-ready graphs,
// run uncaptured on the CPU): it opens the planned buckets of every bound stage (talker decode, code
// predictor, streaming codec with both state sets), leaves no KV row or codec state behind, a request that
// stays inside the warmed buckets opens none, and every request's codes and PCM bytes equal those of an
// engine that did not warm up. 'auto' does not warm where nothing is captured (the CPU).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { BoundCodePredictorLoop } from './stages/code-predictor-bound-loop';
import { BoundCodecStream } from './stages/codec-bound-stream';
import type { OrtTalker } from './stages/talker';
import { runAndCollect, type RequestOutputs } from './testing/run-and-collect';

const CONFIG = { provider: 'cpu', maxRunningSequences: 8, maxPrefillSequences: 8, graphCapture: { mode: 'bound' } };

const REQUESTS: SynthesisRequest[] = Array.from({ length: 4 }, (_, i) => ({
  requestId: `w${i}`,
  input: i % 2 ? 'Words of a different length here.' : 'Short one.',
  inputFormat: 'text',
  voice: ['ryan', 'dylan', 'sohee', 'vivian'][i],
  language: 'english',
  seed: 5 + 11 * i,
  params: i === 0 ? { maxNewTokens: 9, doSample: false } : { maxNewTokens: 8 + i, temperature: 0.9 },
}));

const talker = (e: Engine) => e.parts.stages.talker as unknown as OrtTalker;
const codec = (e: Engine) => e.parts.stages.codec as unknown as BoundCodecStream;
const predictor = (e: Engine) => e.parts.stages.codePredictor as unknown as BoundCodePredictorLoop;
/** gpu_graph_ids handed out per bound stage: a new bucket takes one (two for the codec), a bucket run again none. */
const graphIds = (e: Engine) => [talker(e).boundDecodeStats()!.numGraphIds, predictor(e).stats().numGraphIds, codec(e).stats().numGraphIds];

let builtDir: string;
let cold: Engine;
let warm: Engine;
const logs: string[] = [];
let coldSolo: RequestOutputs;

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  cold = await createEngine({ modelDir: builtDir, config: { ...CONFIG, warmUp: 'off' }, log: () => {} });
  warm = await createEngine({ modelDir: builtDir, config: { ...CONFIG, warmUp: 'on' }, log: (l) => logs.push(l) });
  coldSolo = new Map();
  for (const r of REQUESTS) for (const [k, v] of await runAndCollect(cold, [r])) coldSolo.set(k, v);
}, 180_000);

afterAll(async () => {
  await cold?.dispose();
  await warm?.dispose();
});

describe('engine warm-up (tiny, CPU, graphCapture bound)', () => {
  it('ran through the bound stages and reports its buckets and time in the status and the log', () => {
    expect(predictor(warm)).toBeInstanceOf(BoundCodePredictorLoop);
    expect(codec(warm)).toBeInstanceOf(BoundCodecStream);
    // shape buckets off on the CPU, maxBuckets 16 per stage: talker decode rows 1..8 at capacities 64 and 128 (16),
    // one prefill per (rows, capacity) (16), code-predictor rows 1..8 × (sampled top_k, greedy) (16),
    // codec rows 1 and 2 × frames 1..8 (16): 64 buckets
    const status = warm.status();
    expect(status.warmUp?.numBuckets).toBe(64);
    // left cold: talker 7 capacities (64, 128, … 4,096) × 8 rows − 16 = 40; codec 8 rows × 8 frame counts − 16 = 48
    expect(status.warmUp?.numBucketsLeftOut).toBe(40 + 48);
    expect(status.warmUp?.durationMs).toBeGreaterThan(0);
    expect(status.state).toBe('ready');
    expect(cold.status().warmUp).toBeUndefined();
    expect(logs.some((l) => /^engine: warm-up 64 buckets in \d+ ms \(talker decode 16 holding [\d.]+ GiB of KV buffers, prefill 16, code predictor 16, codec 16 .*left cold; their first use costs ~\d+ ms each/.test(l))).toBe(true);
    expect(logs.findIndex((l) => l.startsWith('engine: warm-up'))).toBeGreaterThan(logs.findIndex((l) => l.startsWith('engine: provider')));
  });

  it('opened each planned bucket once (codec: two graph ids a bucket, one per state set, each run) and left no state', () => {
    const t = talker(warm).boundDecodeStats()!;
    expect([t.numBuckets, t.numGraphIds, t.numRuns]).toEqual([16, 16, 16]);
    const p = predictor(warm).stats();
    expect([p.numBuckets, p.numRuns]).toEqual([16, 16]);
    const c = codec(warm).stats();
    // 16 buckets × 2 state sets, each bucket run twice (from zero state, then continuing without staging), and the
    // 8 two-row buckets a third time with the rows reversed (gathered on the device: the gather session opens in warm-up)
    expect([c.numBuckets, c.numGraphIds, c.numRuns, c.numRunsStaged, c.numSequences]).toEqual([16, 32, 40, 24, 0]);
    expect(c.numGatherSessions).toBe(1);
    const kv = talker(warm).kvStats();
    expect(kv.numSequences).toBe(0);
    expect(kv.numBlocksFree).toBe(kv.numBlocksAllocated);
    expect(warm.hasWork()).toBe(false);
  });

  it('a request inside the warmed buckets opens none, and every request gives the cold engine\'s bytes alone and together', { timeout: 180_000 }, async () => {
    const before = graphIds(warm);
    // request 0: 1 row, greedy, 9 frames: its talker capacity stays 64, codec chunks 1, 2, 4, 2 frames of 1 row
    expect(await runAndCollect(warm, [REQUESTS[0]])).toEqual(new Map([[REQUESTS[0].requestId, coldSolo.get(REQUESTS[0].requestId)]]));
    expect(graphIds(warm)).toEqual(before);
    for (const r of REQUESTS.slice(1)) expect((await runAndCollect(warm, [r])).get(r.requestId), r.requestId).toEqual(coldSolo.get(r.requestId));
    const together = await runAndCollect(warm, REQUESTS, REQUESTS.map((_, i) => i));
    for (const r of REQUESTS) expect(together.get(r.requestId), r.requestId).toEqual(coldSolo.get(r.requestId));
  });

  it("'auto' warms nothing on the CPU, where no stage is captured", async () => {
    const engine = await createEngine({ modelDir: builtDir, config: { ...CONFIG, graphCapture: { mode: 'on' }, warmUp: 'auto' }, log: () => {} });
    try {
      expect(engine.status().warmUp).toBeUndefined();
      expect(talker(engine).boundDecodeStats()!.numBuckets).toBe(0);
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});
