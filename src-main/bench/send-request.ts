/**
 * Sends one request to a target and turns whatever happens into a RequestSample: compared with
 * the golden byte for byte, classified (ok, mismatch, rejected 429/503, timeout, error, cancelled),
 * bounded by a per-request timeout. Never throws; used by every mode.
 */
import type { BenchSynthesisRequest, BenchTarget } from './target';
import { compareBytes } from './compare-bytes';
import type { RequestOutcome, RequestPhase, RequestSample } from './run-record';

export interface SendContext {
  measurementId: string;
  target: BenchTarget;
  request: BenchSynthesisRequest;
  /** Null while recording the golden itself. */
  golden: Uint8Array | null;
  /** ms since run start. */
  clock: () => number;
  requestTimeoutMs: number;
  /** Aborts every request of the measurement (run cancelled, drain timed out). */
  signal: AbortSignal;
  /** Decides the phase from the completion time (fill / window / drain), or a fixed phase. */
  phaseAt: (endMs: number) => RequestPhase;
}

export interface SentRequest {
  sample: RequestSample;
  bytes: Uint8Array;
}

function outcomeOfStatus(status: number): RequestOutcome {
  if (status === 200) return 'ok';
  if (status === 429 || status === 503) return 'rejected';
  if (status === 408 || status === 504) return 'timeout';
  return 'error';
}

export async function sendRequest(ctx: SendContext, requestIndex: number, clientIndex: number, scheduledMs?: number): Promise<SentRequest> {
  const timeoutSignal = AbortSignal.timeout(ctx.requestTimeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeoutSignal]);
  const sendMs = ctx.clock();
  const base = { measurementId: ctx.measurementId, requestIndex, clientIndex, scheduledMs: scheduledMs ?? sendMs, sendMs };
  try {
    const response = await ctx.target.synthesize(ctx.request, signal);
    const endMs = ctx.clock();
    let outcome = outcomeOfStatus(response.status);
    const mismatch = outcome === 'ok' && ctx.golden ? compareBytes(ctx.golden, response.bytes) : null;
    if (mismatch) outcome = 'mismatch';
    const sample: RequestSample = {
      ...base,
      phase: ctx.phaseAt(endMs),
      firstByteMs: response.firstByteMs === null ? null : sendMs + response.firstByteMs,
      endMs,
      status: response.status,
      outcome,
      numBytes: response.bytes.length,
      audioDurationMs: response.audioDurationMs,
      mismatch,
      errorMessage: outcome === 'ok' || outcome === 'mismatch' ? null : (response.errorMessage ?? `status ${response.status}`),
    };
    return { sample, bytes: response.bytes };
  } catch (err) {
    const endMs = ctx.clock();
    const outcome: RequestOutcome = ctx.signal.aborted ? 'cancelled' : timeoutSignal.aborted ? 'timeout' : 'error';
    const message =
      outcome === 'timeout' ? `no complete response within requestTimeoutMs ${ctx.requestTimeoutMs}` : err instanceof Error ? err.message : String(err);
    const sample: RequestSample = {
      ...base,
      phase: ctx.phaseAt(endMs),
      firstByteMs: null,
      endMs,
      status: 0,
      outcome,
      numBytes: 0,
      audioDurationMs: null,
      mismatch: null,
      errorMessage: message,
    };
    return { sample, bytes: new Uint8Array(0) };
  }
}
