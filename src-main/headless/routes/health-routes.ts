/**
 * GET /status and GET /readyz: one readiness for both (draining, the engine host's health, and
 * whether its last status call was answered). /status adds the engine's status without local paths
 * and the supervisor's counters; neither waits on the host longer than STATUS_CALL_TIMEOUT_MS, and
 * /readyz never waits on it at all.
 */
import { clientModelInfo } from '../../access/client-view';
import { sendJson } from '../http-errors';
import type { HttpApiOptions, Route } from './api-route';

/** How long /status waits for the engine host's own answer before it reports the last known one. */
export const STATUS_CALL_TIMEOUT_MS = 2_000;

/** The engine state /status reports when the host cannot say (not started, restarting, failed, or not answering). */
function stateWithoutHost(hostState: string): string {
  return hostState === 'ready' ? 'unresponsive' : hostState === 'disposed' ? 'failed' : hostState;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      () => (clearTimeout(timer), resolve(null)),
    );
  });
}

export function createHealthRoutes({ stack, lifecycle }: Pick<HttpApiOptions, 'stack' | 'lifecycle'>): Route[] {
  // A status call the host left unanswered (a stopped or blocked host) makes /readyz and /status say
  // not ready alike, until a status call is answered again or the host changes state.
  let statusUnanswered = false;
  let recheck: Promise<unknown> | null = null;
  stack.host.onDidChangeState((): void => void (statusUnanswered = false));
  async function askStatus() {
    const live = await withTimeout(stack.host.call('status', {}), STATUS_CALL_TIMEOUT_MS);
    statusUnanswered = live === null;
    return live;
  }

  /** The one readiness /readyz and /status both report (synchronous: a stuck host cannot stall it). */
  function readiness(): { ready: boolean; state: string; detail: string } {
    const health = stack.host.health();
    if (lifecycle.draining) return { ready: false, state: 'draining', detail: 'shutting down' };
    if (!health.ready) return { ready: false, state: stateWithoutHost(health.state), detail: health.detail };
    if (statusUnanswered) return { ready: false, state: 'unresponsive', detail: `the engine host did not answer a status call within ${STATUS_CALL_TIMEOUT_MS} ms` };
    return { ready: true, state: 'ready', detail: health.detail };
  }

  /**
   * Engine status without local paths (the last known one while the host restarts, is not ready or
   * does not answer within STATUS_CALL_TIMEOUT_MS, with the state saying so), plus the supervisor's
   * cumulative counters, which survive engine restarts. Never waits on the host for longer than that.
   */
  async function status(): Promise<Record<string, unknown>> {
    const health = stack.host.health();
    const live = health.ready ? await askStatus() : null;
    const s = live ?? stack.host.lastKnownStatus;
    const { ready, state, detail } = readiness();
    const model = clientModelInfo(s?.model ?? null);
    return { ...s, state: ready && live ? live.state : state, model, hostState: health.state, ready, readyDetail: detail, totals: stack.host.requestCounters(), engines: stack.host.engineEntries() };
  }

  return [
    {
      pattern: /^\/status$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, await status()) },
    },
    {
      pattern: /^\/readyz$/,
      methods: {
        GET: async (_req, res) => {
          // Synchronous: a stuck engine host cannot stall the probe; one unanswered status call is asked again in the background.
          const { ready, state, detail } = readiness();
          if (statusUnanswered && !recheck && stack.host.health().ready) recheck = askStatus().finally(() => (recheck = null));
          sendJson(res, ready ? 200 : 503, ready ? { ready, state } : { ready, state, detail }, ready ? {} : { 'retry-after': '2' });
        },
      },
    },
  ];
}
