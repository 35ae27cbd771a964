/**
 * The main-side services behind the contract: each handler forwards to the engine host and routes
 * host events back to the caller that owns the request (or to every caller for status events).
 * Transport-neutral: Electron IPC, the WebSocket bridge and the HTTP API all use these handlers.
 */
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { StudioError } from '../../src-shared/errors';
import type { AppInfo } from '../../src-shared/contract/app';
import type { CallContext, Handlers } from '../api/dispatcher';
import type { HostMethod, HostMethods } from '../engine-host/protocol';

/** What the services need of the engine host (HostClient implements it; tests fake it). */
export interface EngineHostApi {
  call<M extends HostMethod>(method: M, args: HostMethods[M]['args']): Promise<HostMethods[M]['result']>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
}

export interface StudioServicesOptions {
  host: EngineHostApi;
  appInfo: () => AppInfo;
}

/** Events that belong to one request carry its requestId (directly or in the outcome). */
function requestIdOf(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as { requestId?: unknown; result?: { requestId?: unknown } };
  if (typeof p.requestId === 'string') return p.requestId;
  if (p.result && typeof p.result.requestId === 'string') return p.result.requestId;
  return null;
}

export class StudioServices {
  readonly handlers: Handlers;
  private readonly owners = new Map<string, CallContext>();
  private readonly subscribers = new Map<string, CallContext>();

  constructor(private readonly options: StudioServicesOptions) {
    options.host.onEvent((event, payload) => this.route(event, payload));
    this.handlers = {
      [CHANNELS.info]: async () => options.appInfo(),
      [CHANNELS.ping]: async (req) => ({ message: req.message, receivedAtMs: Date.now() }),
      [CHANNELS.synthesize]: async (req, ctx) => {
        if (this.owners.has(req.requestId)) {
          throw new StudioError('invalid-argument', `requestId '${req.requestId}' is already in flight; use a unique id per request`, { field: 'requestId' });
        }
        this.owners.set(req.requestId, ctx);
        try {
          return await options.host.call('synthesize', req);
        } finally {
          this.owners.delete(req.requestId);
        }
      },
      [CHANNELS.cancel]: async (req) => options.host.call('cancel', req),
      [CHANNELS.listVoices]: async () => options.host.call('listVoices', {}),
      [CHANNELS.engineStatus]: async () => options.host.call('status', {}),
      [CHANNELS.modelInfo]: async () => options.host.call('modelInfo', {}),
    };
  }

  /** A caller (window, socket) that wants broadcast events such as engine status. */
  attach(ctx: CallContext): () => void {
    this.subscribers.set(ctx.callerId, ctx);
    return () => this.detach(ctx.callerId);
  }

  /** A caller went away: forget it and cancel what it still had in flight. */
  detach(callerId: string): void {
    this.subscribers.delete(callerId);
    for (const [requestId, ctx] of this.owners) {
      if (ctx.callerId === callerId) void this.options.host.call('cancel', { requestId }).catch(() => {});
    }
  }

  private route(event: string, payload: unknown): void {
    const requestId = requestIdOf(payload);
    if (requestId !== null && event !== EVENTS.onDidChangeEngineStatus) {
      this.owners.get(requestId)?.emit(event, payload);
      return;
    }
    for (const ctx of this.subscribers.values()) ctx.emit(event, payload);
  }
}
