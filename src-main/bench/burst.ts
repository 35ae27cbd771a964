/**
 * Burst mode: N identical requests sent at the same instant; measures the time until the last
 * one completes (time to drain) and each request's latency. Bounded by the per-request timeout.
 */
import type { BenchSynthesisRequest, BenchTarget } from './target';
import type { RequestSample } from './run-record';
import { sendRequest, type SendContext } from './send-request';

export interface BurstParams {
  measurementId: string;
  target: BenchTarget;
  request: BenchSynthesisRequest;
  golden: Uint8Array;
  numRequests: number;
  requestTimeoutMs: number;
  clock: () => number;
  signal: AbortSignal;
}

export async function runBurst(p: BurstParams): Promise<{ samples: RequestSample[]; startMs: number; endMs: number }> {
  const ctx: SendContext = {
    measurementId: p.measurementId,
    target: p.target,
    request: p.request,
    golden: p.golden,
    clock: p.clock,
    requestTimeoutMs: p.requestTimeoutMs,
    signal: p.signal,
    phaseAt: () => 'burst',
  };
  const startMs = p.clock();
  const sent = await Promise.all(Array.from({ length: p.numRequests }, (_, i) => sendRequest(ctx, i, i, startMs)));
  const samples = sent.map((s) => s.sample);
  return { samples, startMs, endMs: Math.max(startMs, ...samples.map((s) => s.endMs)) };
}
