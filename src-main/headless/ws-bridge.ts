/**
 * Bridges the studio contract over a WebSocket (path /ws): one caller per socket, calls go to the
 * dispatcher with the caller's role, events come back as they happen. The upgrade passes the same
 * access policy as every HTTP request (Host, Origin, token or session cookie); a closed socket
 * cancels what it had in flight. Malformed messages and calls that break the contract (unknown
 * channel, invalid payload) are answered, logged at a bounded rate, and a socket that keeps sending
 * them is closed (1008, policy violation). The local admin session may send messages big enough for
 * a reference clip upload; other sockets are held to a small cap, and a remote client's calls awaiting
 * replies to a share of the uploads pool (upload-shares.ts). Each socket is a caller of its own;
 * quotas count by client (clientIdOf), over all of a client's sockets.
 */
import type { Server } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { decodeWire, encodeWire, type WireClientMessage, type WireServerMessage } from '../../src-shared/wire';
import { StudioError } from '../../src-shared/errors';
import type { Dispatcher, CallContext } from '../api/dispatcher';
import type { StudioServices } from '../services/studio-services';
import { clientIdOf, type AccessPolicy } from '../access/access-policy';
import { createRateLimitedLog } from '../api/rate-limited-log';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';
import { UploadShares } from './upload-shares';

/** A message of a client socket: enough for any call but a clip upload (which is an admin call). */
export const CLIENT_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
/** A message of the admin session: a reference clip of MAX_REFERENCE_BYTES as base64 (4 chars per 3 bytes) plus 1 MiB of JSON around it. */
export const ADMIN_MAX_MESSAGE_BYTES = Math.ceil(MAX_REFERENCE_BYTES / 3) * 4 + 1024 * 1024;
/** Malformed messages or contract-breaking calls a socket may send before it is closed (policy violation, 1008). */
export const MAX_BAD_MESSAGES = 20;
/** Bytes of calls one remote client may have awaiting replies, over all its sockets: eight full messages. */
export const CLIENT_MAX_UPLOAD_BYTES_IN_FLIGHT = 8 * CLIENT_MAX_MESSAGE_BYTES;
/** Seconds a client refused for its upload share should wait. */
const UPLOAD_RETRY_AFTER_S = 1;
/** A socket closed for bad messages that does not finish the close handshake is cut after this. */
const CLOSE_GRACE_MS = 1_000;

export interface WsBridgeOptions {
  dispatcher: Dispatcher;
  services: StudioServices;
  policy: AccessPolicy;
  log: (m: string) => void;
  /** Overrides CLIENT_MAX_UPLOAD_BYTES_IN_FLIGHT (tests). */
  clientMaxUploadBytesInFlight?: number;
}

export interface WsBridge {
  readonly numClients: number;
  /** Closes every socket (going away, 1001) and stops accepting upgrades. */
  closeAll(): void;
}

export function attachWsBridge(server: Server, options: WsBridgeOptions): WsBridge {
  const { dispatcher, services, policy } = options;
  const servers = {
    admin: new WebSocketServer({ noServer: true, maxPayload: ADMIN_MAX_MESSAGE_BYTES }),
    client: new WebSocketServer({ noServer: true, maxPayload: CLIENT_MAX_MESSAGE_BYTES }),
  };
  const logBad = createRateLimitedLog(options.log);
  const logRefused = createRateLimitedLog(options.log);
  const uploads = new UploadShares(options.clientMaxUploadBytesInFlight ?? CLIENT_MAX_UPLOAD_BYTES_IN_FLIGHT);
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
    const clientId = clientIdOf(req.socket.remoteAddress);
    servers[decision.role].handleUpgrade(req, socket, head, (ws) => serveSocket(ws, `ws-${nextCaller++}`, clientId, decision.role));
  });

  function serveSocket(ws: WebSocket, callerId: string, clientId: string, role: CallContext['role']): void {
    const send = (m: WireServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(encodeWire(m));
    };
    let numBad = 0;
    let closing = false;
    const noteBad = (why: string): void => {
      numBad++;
      logBad(`[ws] ${callerId} sent a bad message: ${why}`);
      if (numBad < MAX_BAD_MESSAGES || closing) return;
      closing = true;
      logBad(`[ws] ${callerId} closed after ${numBad} bad messages`);
      // After this turn, so the reply to the last bad message still goes out first.
      setImmediate(() => ws.close(1008, `closed after ${MAX_BAD_MESSAGES} malformed messages or invalid calls`));
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    };
    const ctx: CallContext = {
      callerId,
      clientId,
      role,
      emit: (event, payload) => send({ kind: 'event', event, payload }),
      onDidBreakContract: (error) => noteBad(error.code === 'unknown-channel' ? 'unknown channel' : 'invalid payload'),
    };
    const detach = services.attach(ctx);
    const bad = (id: number, why: string): void => {
      const error = new StudioError('invalid-argument', `malformed bridge message (${why}); expected {"kind":"call","id":number,"channel":string,"payload":object}`);
      send({ kind: 'reply', id, reply: { ok: false, error: error.toJSON() } });
      noteBad(why);
    };
    ws.on('message', (data) => {
      if (closing) return;
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
      // A remote client's calls awaiting replies hold its share of the uploads pool; the local session is not held to one.
      const numBytes = role === 'client' ? messageBytes(data) : 0;
      if (numBytes > 0 && !uploads.tryTake(clientId, numBytes)) {
        const error = new StudioError('busy', `this client already has ${uploads.held(clientId)} bytes of calls awaiting replies over its connections (its share is ${uploads.maxBytesPerClient}); wait for replies before sending more`, { numHeldBytes: uploads.held(clientId), limitBytes: uploads.maxBytesPerClient, retryAfterS: UPLOAD_RETRY_AFTER_S });
        send({ kind: 'reply', id: msg.id, reply: { ok: false, error: error.toJSON() } });
        return;
      }
      void dispatcher
        .dispatch(msg.channel, msg.payload, ctx)
        .then((reply) => send({ kind: 'reply', id: msg.id, reply }))
        .finally(() => uploads.release(clientId, numBytes));
    });
    ws.on('close', detach);
    ws.on('error', detach);
  }

  return {
    get numClients() {
      return servers.admin.clients.size + servers.client.clients.size;
    },
    closeAll() {
      closed = true;
      for (const wss of [servers.admin, servers.client]) {
        for (const ws of wss.clients) {
          ws.close(1001, 'the studio is shutting down');
          // A client that does not answer the close handshake is cut shortly after.
          setTimeout(() => ws.terminate(), 500).unref();
        }
        wss.close();
      }
    },
  };
}

function messageBytes(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.byteLength, 0);
  return data.byteLength;
}
