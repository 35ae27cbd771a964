/**
 * Bridges the studio contract over a WebSocket (path /ws): one caller per socket, calls go to the
 * dispatcher with the caller's role, events come back as they happen. The upgrade passes the same
 * access policy as every HTTP request (Host, Origin, token or session cookie); a closed socket
 * cancels what it had in flight. Malformed messages are answered, logged at a bounded rate, and a
 * socket that keeps sending them is closed.
 */
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeWire, encodeWire, type WireClientMessage, type WireServerMessage } from '../../src-shared/wire';
import { StudioError } from '../../src-shared/errors';
import type { Dispatcher, CallContext } from '../api/dispatcher';
import type { StudioServices } from '../services/studio-services';
import type { AccessPolicy } from '../access/access-policy';

const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
/** Malformed messages a socket may send before it is closed (policy violation, 1008). */
export const MAX_BAD_MESSAGES = 20;

export interface WsBridgeOptions {
  dispatcher: Dispatcher;
  services: StudioServices;
  policy: AccessPolicy;
  log: (m: string) => void;
}

export interface WsBridge {
  readonly numClients: number;
  /** Closes every socket (going away, 1001) and stops accepting upgrades. */
  closeAll(): void;
}

/** Logs the first few lines of a kind, then one line per `every` (a flood of bad messages is one line a while). */
export function rateLimitedLog(log: (m: string) => void, firstN = 5, every = 100): (m: string) => void {
  let count = 0;
  return (m) => {
    count++;
    if (count <= firstN) log(m);
    else if (count % every === 0) log(`${m} (${count} such messages so far)`);
  };
}

export function attachWsBridge(server: Server, options: WsBridgeOptions): WsBridge {
  const { dispatcher, services, policy } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const logBad = rateLimitedLog(options.log);
  const logRefused = rateLimitedLog(options.log);
  let nextCaller = 1;
  let closed = false;

  server.on('upgrade', (req, socket, head) => {
    const pathname = (req.url ?? '').split('?')[0];
    const decision = closed
      ? ({ ok: false, status: 403, message: 'the studio is shutting down' } as const)
      : pathname !== '/ws'
        ? ({ ok: false, status: 403, message: 'WebSocket only at /ws' } as const)
        : policy.decide('ws', {
            host: req.headers.host,
            origin: req.headers.origin,
            authorization: req.headers.authorization,
            cookie: req.headers.cookie,
            remoteAddress: req.socket.remoteAddress,
          });
    if (!decision.ok) {
      logRefused(`[ws] refused upgrade for ${pathname.slice(0, 100)} from ${req.socket.remoteAddress ?? '?'} (origin ${req.headers.origin ?? 'none'}): ${decision.message}`);
      const reason = decision.status === 401 ? 'Unauthorized' : 'Forbidden';
      socket.end(`HTTP/1.1 ${decision.status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${decision.message}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, `ws-${nextCaller++}`, decision.role));
  });

  function serveSocket(ws: WebSocket, callerId: string, role: CallContext['role']): void {
    const send = (m: WireServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(encodeWire(m));
    };
    const ctx: CallContext = { callerId, role, emit: (event, payload) => send({ kind: 'event', event, payload }) };
    const detach = services.attach(ctx);
    let numBad = 0;
    const bad = (id: number, why: string): void => {
      numBad++;
      logBad(`[ws] ${callerId} sent a malformed message: ${why}`);
      const error = new StudioError('invalid-argument', `malformed bridge message (${why}); expected {"kind":"call","id":number,"channel":string,"payload":object}`);
      send({ kind: 'reply', id, reply: { ok: false, error: error.toJSON() } });
      if (numBad >= MAX_BAD_MESSAGES) ws.close(1008, 'too many malformed messages');
    };
    ws.on('message', (data) => {
      let msg: WireClientMessage;
      try {
        msg = decodeWire(data.toString()) as WireClientMessage;
      } catch {
        bad(-1, 'not JSON');
        return;
      }
      if (!msg || msg.kind !== 'call' || typeof msg.id !== 'number') {
        bad(typeof msg?.id === 'number' ? msg.id : -1, 'not a call');
        return;
      }
      void dispatcher.dispatch(msg.channel, msg.payload, ctx).then((reply) => send({ kind: 'reply', id: msg.id, reply }));
    });
    ws.on('close', detach);
    ws.on('error', detach);
  }

  return {
    get numClients() {
      return wss.clients.size;
    },
    closeAll() {
      closed = true;
      for (const ws of wss.clients) {
        ws.close(1001, 'the studio is shutting down');
        // A client that does not answer the close handshake is cut shortly after.
        setTimeout(() => ws.terminate(), 500).unref();
      }
      wss.close();
    },
  };
}
