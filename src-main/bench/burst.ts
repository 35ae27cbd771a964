/**
 * Burst mode: N identical requests sent at the same instant; measures the time until the last
 * one completes (time to drain) and each request's latency. Bounded by the per-request timeout.
 */
import type { RequestSample } from './run-record';
import { sendRequest } from './send-request';
import { sendContextOf, type MeasurementParams } from './measurement';

export interface BurstParams extends MeasurementParams {
  numRequests: number;
}

export async function runBurst(p: BurstParams): Promise<{ samples: RequestSample[]; startMs: number; endMs: number }> {
  const ctx = sendContextOf(p, p.signal, () => 'burst');
  const startMs = p.clock();
  const sent = await Promise.all(Array.from({ length: p.numRequests }, (_, i) => sendRequest(ctx, i, i, startMs)));
  const samples = sent.map((s) => s.sample);
  return { samples, startMs, endMs: Math.max(startMs, ...samples.map((s) => s.endMs)) };
}
