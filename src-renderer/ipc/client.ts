/**
 * The renderer's only door to the studio: window.studio in Electron (preload), or the same
 * contract over the headless host's WebSocket (/ws) in a plain browser. Returns typed calls that
 * throw StudioError on failure, and event subscriptions; reports the connection to connection.ts.
 */
import { StudioError } from '../../src-shared/errors';
import type { CallReply, Channel, EventName, RequestOf, ResponseOf, StudioBridge, StudioEvents } from '../../src-shared/ipc-contract';
import { decodeWire, encodeWire, type WireServerMessage } from '../../src-shared/wire';
import { SIGNED_OUT_MESSAGE, reportConnection, type ConnectionState } from './connection';

declare global {
  interface Window {
    studio?: StudioBridge;
  }
}

/** Waits between attempts to reopen a closed socket; the last one repeats while the host stays away. */
export const RECONNECT_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 5_000];

/** What an HTTP request to the page's own host says about this browser: why a socket would not open. */
export type HostProbe = 'signed-in' | 'signed-out' | 'unreachable';

/**
 * Asks the host for its page (HEAD /, no cache): 401 means it runs but does not know this browser's
 * session cookie (it restarted); no answer means it is away.
 */
export async function probeHost(origin: string): Promise<HostProbe> {
  try {
    const res = await fetch(new URL('/', origin), { method: 'HEAD', cache: 'no-store', credentials: 'same-origin', redirect: 'manual' });
    return res.status === 401 ? 'signed-out' : 'signed-in';
  } catch {
    return 'unreachable';
  }
}

export interface WebSocketBridgeOptions {
  /** Told each time the connection changes (connected, disconnected, signed out). */
  onDidChangeConnection?(connection: ConnectionState): void;
  /** Why a socket could not open; default probeHost on the socket URL's host. */
  probe?(): Promise<HostProbe>;
  reconnectDelaysMs?: readonly number[];
}

/**
 * A StudioBridge over a WebSocket. A socket that closes fails the calls in flight and is reopened by
 * itself (RECONNECT_DELAYS_MS); a socket that cannot open is explained by a probe, so a restarted
 * host (which forgot this browser's session) reads as signed out, not as unreachable.
 */
export function createWebSocketBridge(url: string, options: WebSocketBridgeOptions = {}): StudioBridge {
  const delaysMs = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
  const probe = options.probe ?? (() => probeHost(url.replace(/^ws/, 'http')));
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  let nextId = 1;
  let numFailures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const pending = new Map<number, (reply: CallReply<unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const scheduleReconnect = (): void => {
    if (retryTimer) return;
    const delayMs = delaysMs[Math.min(numFailures, delaysMs.length - 1)];
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect().catch(() => {});
    }, delayMs);
  };

  const failPending = (): void => {
    for (const [id, done] of pending) {
      pending.delete(id);
      done({ ok: false, error: { code: 'engine-crashed', message: 'the connection to the studio host closed; retry', details: {} } });
    }
  };

  const connect = (): Promise<WebSocket> => {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      let didOpen = false;
      ws.onmessage = onMessage;
      ws.onopen = () => {
        didOpen = true;
        socket = ws;
        numFailures = 0;
        options.onDidChangeConnection?.({ state: 'connected' });
        resolve(ws);
      };
      ws.onclose = () => {
        socket = null;
        failPending();
        if (didOpen) {
          opened = null;
          options.onDidChangeConnection?.({ state: 'disconnected', reason: 'the connection to the studio host closed' });
          scheduleReconnect();
          return;
        }
        // The upgrade failed; a browser does not say why, so ask over HTTP. `opened` stays set
        // meanwhile: calls made during the probe get its answer.
        void probe().then((found) => {
          opened = null;
          numFailures += 1;
          const why: ConnectionState =
            found === 'signed-out'
              ? { state: 'signed-out', reason: SIGNED_OUT_MESSAGE }
              : { state: 'disconnected', reason: found === 'unreachable' ? `the studio host at ${url} does not answer; is 'studio serve' running?` : 'the studio host refused the connection' };
          options.onDidChangeConnection?.(why);
          scheduleReconnect();
          reject(new StudioError(why.state === 'signed-out' ? 'unauthorized' : 'network', why.reason));
        });
      };
    });
    return opened;
  };

  return {
    async invoke(channel, request) {
      const ws = socket ?? (await connect());
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: CallReply<unknown>) => void);
        ws.send(encodeWire({ kind: 'call', id, channel, payload: request }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      void connect().catch(() => {});
      return () => set.delete(listener as (p: unknown) => void);
    },
  };

  function onMessage(e: MessageEvent): void {
    const m = decodeWire(String(e.data)) as WireServerMessage;
    if (m.kind === 'reply') {
      pending.get(m.id)?.(m.reply as CallReply<unknown>);
      pending.delete(m.id);
    } else {
      for (const l of listeners.get(m.event) ?? []) l(m.payload);
    }
  }
}

let bridge: StudioBridge | null = null;

export function getBridge(): StudioBridge {
  if (bridge) return bridge;
  if (typeof window !== 'undefined' && window.studio) {
    bridge = window.studio; // the app's own IPC: no session to lose, the window lives and dies with main
    reportConnection({ state: 'connected' });
  } else {
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    bridge = createWebSocketBridge(`${proto}//${window.location.host}/ws`, { onDidChangeConnection: reportConnection });
  }
  return bridge;
}

/** For tests: replace the bridge (e.g. with an in-memory one, which counts as connected). */
export function setBridge(b: StudioBridge | null): void {
  bridge = b;
  reportConnection(b ? { state: 'connected' } : { state: 'connecting' });
}

export async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const reply = await getBridge().invoke(channel, request);
  if (!reply.ok) throw StudioError.fromSerialized(reply.error);
  return reply.value;
}

export function subscribe<E extends EventName>(event: E, listener: (payload: StudioEvents[E]) => void): () => void {
  return getBridge().on(event, listener);
}

/** True in the Electron window (the preload's window.studio), false in a browser on the headless host. */
export function isDesktopApp(): boolean {
  return typeof window !== 'undefined' && window.studio !== undefined;
}
