// Both ONNX Runtime adapters in one process on the tiny model (CPU): the whole engine (talker, code
// predictor step and loop graphs, streaming codec, KV regroup) opened once on onnxruntime-node and
// once on the C-API adapter gives the same codes and PCM bytes, each request alone and three batched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../../src-shared/synthesis';
import { ensureTinyModel } from '../../model-builder/tiny-model';
import { createEngine } from '../create-engine';
import type { Engine } from '../engine';
import { liveHandleCounts } from './capi/capi-runtime';

const REQUESTS: SynthesisRequest[] = [
  { requestId: 'a', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 12 } },
  { requestId: 'b', input: '你好，世界。', inputFormat: 'text', voice: 'dylan', language: 'chinese', seed: 7, params: { maxNewTokens: 9 } },
  { requestId: 'c', input: 'Short.', inputFormat: 'text', voice: 'sohee', language: 'auto', seed: 123, params: { maxNewTokens: 10, doSample: false } },
];

type Out = Map<string, { codes: number[][]; pcm: string }>;

async function run(engine: Engine, requests: SynthesisRequest[]): Promise<Out> {
  const out: Out = new Map();
  const codes = new Map<string, number[][]>();
  const offCodes = engine.onDidFinishCodes((c) => codes.set(c.requestId, c.codes));
  const offFinish = engine.onDidFinish((o) => {
    if (o.status !== 'done') throw new Error(`request failed: ${JSON.stringify(o)}`);
    const pcm = o.result.pcm;
    out.set(o.result.requestId, { codes: codes.get(o.result.requestId)!, pcm: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64') });
  });
  for (const r of requests) engine.addRequest(r);
  await engine.run();
  offCodes();
  offFinish();
  return out;
}

/** Opens an engine with STUDIO_ORT_RUNTIME set for the sessions it creates. */
async function openOn(runtime: 'node' | 'c-api', modelDir: string, config: object): Promise<Engine> {
  const before = process.env.STUDIO_ORT_RUNTIME;
  process.env.STUDIO_ORT_RUNTIME = runtime;
  try {
    return await createEngine({ modelDir, config, log: () => {} });
  } finally {
    if (before === undefined) delete process.env.STUDIO_ORT_RUNTIME;
    else process.env.STUDIO_ORT_RUNTIME = before;
  }
}

let modelDir: string;
const engines: Engine[] = [];

beforeAll(async () => {
  ({ builtDir: modelDir } = await ensureTinyModel());
});

afterAll(async () => {
  for (const e of engines) await e.dispose();
  expect(liveHandleCounts().session).toBe(0);
});

const CONFIGS: [string, object][] = [
  ['step code predictor', { provider: 'cpu', codePredictor: 'step' }],
  ['loop code predictor, device-style KV regroup', { provider: 'cpu', codePredictor: 'loop', kvCache: { mode: 'device' } }],
];

describe('onnxruntime-node adapter vs C-API adapter on the tiny model (CPU)', () => {
  for (const [label, config] of CONFIGS) {
    it(`gives the same codes and PCM bytes, alone and batched (${label})`, async () => {
      const node = await openOn('node', modelDir, config);
      const sessionsBefore = liveHandleCounts().session;
      const capi = await openOn('c-api', modelDir, config);
      engines.push(node, capi);
      expect(liveHandleCounts().session).toBeGreaterThan(sessionsBefore); // the second engine really runs on the C API
      const together = [await run(node, REQUESTS), await run(capi, REQUESTS)];
      expect(together[1]).toEqual(together[0]);
      for (const r of REQUESTS) {
        const alone = [await run(node, [r]), await run(capi, [r])];
        expect(alone[1].get(r.requestId)).toEqual(alone[0].get(r.requestId));
        expect(alone[1].get(r.requestId)!.codes).toEqual(together[0].get(r.requestId)!.codes);
      }
      await node.dispose();
      await capi.dispose();
      engines.length = 0;
    }, 300_000);
  }
});
