/**
 * Bridges the studio contract over a WebSocket (path /ws): one caller per socket, calls go to the
 * dispatcher, events come back as they happen. Only same-origin browsers (or non-browser clients
 * that send no Origin) may connect; a closed socket cancels what it had in flight.
 */
import type { IncomingMessage, Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeWire, encodeWire, type WireClientMessage, type WireServerMessage } from '../../src-shared/wire';
import { StudioError } from '../../src-shared/errors';
import type { Dispatcher, CallContext } from '../api/dispatcher';
import type { StudioServices } from '../services/studio-services';

const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export function isAllowedOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const hostHeader = req.headers.host;
  return hostHeader !== undefined && (origin === `http://${hostHeader}` || origin === `https://${hostHeader}`);
}

export function attachWsBridge(server: Server, dispatcher: Dispatcher, services: StudioServices, log: (m: string) => void): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let nextCaller = 1;
  server.on('upgrade', (req, socket, head) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== '/ws' || !isAllowedOrigin(req)) {
      log(`[ws] refused upgrade for ${pathname} from origin ${req.headers.origin ?? '(none)'}`);
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, `ws-${nextCaller++}`));
  });

  function serveSocket(ws: WebSocket, callerId: string): void {
    const send = (m: WireServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(encodeWire(m));
    };
    const ctx: CallContext = { callerId, emit: (event, payload) => send({ kind: 'event', event, payload }) };
    const detach = services.attach(ctx);
    ws.on('message', (data) => {
      let msg: WireClientMessage;
      try {
        msg = decodeWire(data.toString()) as WireClientMessage;
      } catch {
        log(`[ws] ${callerId} sent a message that is not JSON; ignored`);
        return;
      }
      if (!msg || msg.kind !== 'call' || typeof msg.id !== 'number') {
        const error = new StudioError('invalid-argument', 'malformed bridge message: expected {kind:"call", id:number, channel, payload}');
        send({ kind: 'reply', id: typeof msg?.id === 'number' ? msg.id : -1, reply: { ok: false, error: error.toJSON() } });
        return;
      }
      void dispatcher.dispatch(msg.channel, msg.payload, ctx).then((reply) => send({ kind: 'reply', id: msg.id, reply }));
    });
    ws.on('close', detach);
    ws.on('error', detach);
  }
  return wss;
}
