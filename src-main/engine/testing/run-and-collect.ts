/**
 * Test helper: runs requests through an engine until it is idle and collects, per request, its
 * codes and the sha256 of its PCM bytes — the two things batch-invariance and golden tests compare.
 */
import { createHash } from 'node:crypto';
import type { SynthesisRequest } from '../../../src-shared/synthesis';
import type { Engine } from '../engine';

export type RequestOutputs = Map<string, { codes: number[][]; pcmSha256: string }>;

/**
 * Runs `requests` to completion. With arrivalSteps, request i is added just before step
 * arrivalSteps[i] (staggered arrivals, as in a closed loop); otherwise all are added at once.
 */
export async function runAndCollect(engine: Engine, requests: readonly SynthesisRequest[], arrivalSteps?: readonly number[]): Promise<RequestOutputs> {
  const out: RequestOutputs = new Map();
  const codes = new Map<string, number[][]>();
  const offCodes = engine.onDidFinishCodes((c) => codes.set(c.requestId, c.codes));
  const offFinish = engine.onDidFinish((o) => {
    if (o.status !== 'done') throw new Error(`request failed: ${JSON.stringify(o)}`);
    const pcm = o.result.pcm;
    out.set(o.result.requestId, { codes: codes.get(o.result.requestId)!, pcmSha256: createHash('sha256').update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex') });
  });
  try {
    if (!arrivalSteps) {
      for (const r of requests) engine.addRequest(r);
      await engine.run();
    } else {
      const lastArrival = Math.max(...arrivalSteps);
      for (let step = 0; step <= lastArrival || engine.hasWork(); step++) {
        if (step > lastArrival + 100_000) throw new Error('runAndCollect: the engine did not finish');
        requests.forEach((r, i) => arrivalSteps[i] === step && engine.addRequest(r));
        await engine.step();
      }
    }
  } finally {
    offCodes();
    offFinish();
  }
  return out;
}
