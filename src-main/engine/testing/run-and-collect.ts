/**
 * Test helper: runs requests through an engine until it is idle and collects, per request, its
 * codes and the sha256 of its PCM bytes — the two things batch-invariance and golden tests compare —
 * or its whole result (runTogether), or every outcome, failures included (collectOutcomes).
 */
import { createHash } from 'node:crypto';
import type { SerializedStudioError } from '../../../src-shared/errors';
import type { SynthesisRequest, SynthesisResult } from '../../../src-shared/synthesis';
import type { Engine } from '../engine';

export type RequestOutputs = Map<string, { codes: number[][]; pcmSha256: string }>;

/** A finished request: its result and the codes it was decoded from. */
export interface FinishedRun {
  result: SynthesisResult;
  codes: number[][];
}

export interface RunOutcomes {
  done: Map<string, FinishedRun>;
  failed: Map<string, SerializedStudioError>;
}

/** Every outcome while `drive` runs the engine: finished requests with their codes, failed ones with their error. */
export async function collectOutcomes(engine: Engine, drive: () => Promise<void>): Promise<RunOutcomes> {
  const out: RunOutcomes = { done: new Map(), failed: new Map() };
  const codes = new Map<string, number[][]>();
  const offCodes = engine.onDidFinishCodes((c) => codes.set(c.requestId, c.codes));
  const offFinish = engine.onDidFinish((o) => {
    if (o.status === 'done') out.done.set(o.result.requestId, { result: o.result, codes: codes.get(o.result.requestId)! });
    if (o.status === 'failed') out.failed.set(o.requestId, o.error);
  });
  try {
    await drive();
  } finally {
    offCodes();
    offFinish();
  }
  return out;
}

/** Adds every request at once and runs the engine until idle; each must finish. */
export async function runTogether(engine: Engine, requests: readonly SynthesisRequest[]): Promise<Map<string, FinishedRun>> {
  const { done, failed } = await collectOutcomes(engine, async () => {
    for (const r of requests) engine.addRequest(r);
    await engine.run();
  });
  for (const [requestId, error] of failed) throw new Error(`request ${requestId} failed: ${JSON.stringify(error)}`);
  return done;
}

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
