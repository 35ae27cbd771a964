// WebGPU graph capture end to end, on whatever WebGPU adapter this machine has (CI: Mesa's lavapipe, a
// Vulkan driver on the CPU, installed by .ci/run): with graphCapture 'on' (talker decode, the
// plain-attention code-predictor loop and the streaming codec replayed) every request's codes and PCM
// equal 'bound' (the same graphs uncaptured), alone and staggered, and buckets that capture run in
// sessions of their own.
// Without an adapter the suite is skipped and says why.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { GraphBuilder } from '../model-format/onnx/graph-builder';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { BoundCodePredictorLoop } from './stages/code-predictor-bound-loop';
import { BoundCodecStream } from './stages/codec-bound-stream';
import type { OrtTalker } from './stages/talker';
import { createSession } from './runtime/ort';
import { runAndCollect, type RequestOutputs } from './testing/run-and-collect';

/** Why WebGPU cannot run here, or null when a session opens on it. */
async function webgpuProblem(): Promise<string | null> {
  const g = new GraphBuilder({ name: 'probe' });
  g.input('x', 'float32', [2]);
  g.output(g.add('x', 'x'), 'float32', [2], 'y');
  try {
    const s = await createSession(g.toBytes(), { provider: 'webgpu', runtime: 'c-api' });
    await s.release();
    return null;
  } catch (err) {
    return (err as Error).message.slice(0, 200);
  }
}

const problem = await webgpuProblem();
if (problem) console.warn(`engine-webgpu-capture: skipped, no WebGPU adapter here (${problem}); .ci/run installs Mesa's lavapipe`);

const REQUESTS: SynthesisRequest[] = Array.from({ length: 4 }, (_, i) => ({
  requestId: `w${i}`, input: i % 2 ? 'Words of a different length here.' : 'Short one.', inputFormat: 'text',
  voice: ['ryan', 'dylan', 'sohee', 'vivian'][i], language: 'english', seed: 91 + 7 * i,
  params: i % 3 === 0 ? { maxNewTokens: 8 + i, doSample: false } : { maxNewTokens: 8 + i, temperature: 0.9 },
}));
const ARRIVALS = REQUESTS.map((_, i) => 2 * i);
const CONFIG = { provider: 'webgpu', maxRunningSequences: 4, maxPrefillSequences: 4 };

describe.skipIf(problem !== null)('WebGPU graph capture (tiny fp16)', () => {
  let modelDir: string;
  let bound: Engine;
  let captured: Engine;
  let expected: RequestOutputs;

  beforeAll(async () => {
    // a lone fp16 build (a symlink with no fp32 sibling), so the engine opens exactly that build
    const built = (await ensureTinyModel('fp16')).builtDir;
    modelDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'webgpu-capture-')), path.basename(built));
    fs.symlinkSync(built, modelDir);
    bound = await createEngine({ modelDir, config: { ...CONFIG, graphCapture: { mode: 'bound' } }, log: () => {} });
    captured = await createEngine({ modelDir, config: { ...CONFIG, graphCapture: { mode: 'on' } }, log: () => {} });
    expected = await runAndCollect(bound, REQUESTS, ARRIVALS);
  }, 600_000);

  afterAll(async () => {
    await bound?.dispose();
    await captured?.dispose();
  });

  it("captured replays give the bound bytes, staggered and alone", { timeout: 600_000 }, async () => {
    const staggered = await runAndCollect(captured, REQUESTS, ARRIVALS);
    for (const r of REQUESTS) expect(staggered.get(r.requestId), r.requestId).toEqual(expected.get(r.requestId));
    for (const r of REQUESTS.slice(0, 2)) expect((await runAndCollect(captured, [r])).get(r.requestId), r.requestId).toEqual(expected.get(r.requestId));
    for (const r of REQUESTS) expect(expected.get(r.requestId)!.codes.length, r.requestId).toBeGreaterThan(0);
  });

  it('captured buckets ran in sessions of their own (one captured graph per WebGPU session), replayed more often than captured', () => {
    const talker = (captured.parts.stages.talker as unknown as OrtTalker).boundDecodeStats()!;
    expect(talker.numRuns).toBeGreaterThan(talker.numGraphIds);
    expect(talker.numSessions).toBe(talker.numBuckets);
    const codecStage = captured.parts.stages.codec as unknown as { inner?: unknown };
    const codec = (codecStage instanceof BoundCodecStream ? codecStage : codecStage.inner) as BoundCodecStream;
    const stats = codec.stats();
    expect(stats.numSessions).toBe(2 * stats.numBuckets);
    const predictor = captured.parts.stages.codePredictor as unknown as { inner?: unknown };
    const loop = (predictor instanceof BoundCodePredictorLoop ? predictor : predictor.inner as BoundCodePredictorLoop).stats();
    expect(loop.numRuns).toBeGreaterThan(loop.numGraphIds);
    expect(loop.numSessions).toBe(loop.numBuckets);
    const boundTalker = (bound.parts.stages.talker as unknown as OrtTalker).boundDecodeStats()!;
    expect(boundTalker.numSessions).toBe(1);
  });
});
