/**
 * A remote client's share of the engine's queue: synthesize calls in flight over all its connections
 * (WebSocket sockets and HTTP requests from one peer address count together), so one client cannot
 * fill the queue that every other client waits in. This machine's session and local programs are
 * not held to a share (the bench drives hundreds of clients from loopback). Pure.
 */
import { StudioError } from '../../src-shared/errors';
import type { CallContext } from '../api/dispatcher';

export interface ClientShareLimits {
  /** Synthesize calls one remote client may have in flight: one full running batch (16) of the queue's 256. */
  maxSynthesesPerClient: number;
  /** Seconds a refused client should wait (429 Retry-After). */
  retryAfterS: number;
}

export function defaultClientShareLimits(): ClientShareLimits {
  return { maxSynthesesPerClient: 16, retryAfterS: 2 };
}

/** Refuses `ctx` a synthesize call when its client already has its share in flight (`inFlight`: the callers of the calls in flight). */
export function checkSynthesisShare(inFlight: Iterable<CallContext>, ctx: CallContext, limits: ClientShareLimits = defaultClientShareLimits()): void {
  if (ctx.role !== 'client' || ctx.clientId === undefined || ctx.clientId === 'local') return;
  let numInFlight = 0;
  for (const other of inFlight) if (other.clientId === ctx.clientId) numInFlight++;
  if (numInFlight < limits.maxSynthesesPerClient) return;
  throw new StudioError('busy', `this client already has ${numInFlight} requests in flight (its share is ${limits.maxSynthesesPerClient}, over all its connections); wait for one to finish`, { numInFlight, limit: limits.maxSynthesesPerClient, retryAfterS: limits.retryAfterS });
}
