/**
 * The renderer's only door to the studio: window.studio in Electron (preload), or the same
 * contract over the headless host's WebSocket (/ws) in a plain browser. Returns typed calls that
 * throw StudioError on failure, and event subscriptions.
 */
import { StudioError } from '../../src-shared/errors';
import type { CallReply, Channel, EventName, RequestOf, ResponseOf, StudioBridge, StudioEvents } from '../../src-shared/ipc-contract';
import { decodeWire, encodeWire, type WireServerMessage } from '../../src-shared/wire';

declare global {
  interface Window {
    studio?: StudioBridge;
  }
}

/** A StudioBridge over a WebSocket; reconnects when the socket drops, failing calls in flight. */
export function createWebSocketBridge(url: string): StudioBridge {
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  let nextId = 1;
  const pending = new Map<number, (reply: CallReply<unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const connect = (): Promise<WebSocket> => {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onerror = () => reject(new StudioError('network', `cannot reach the studio host at ${url}; is 'studio serve' running?`));
      ws.onclose = () => {
        socket = null;
        opened = null;
        for (const [id, done] of pending) {
          pending.delete(id);
          done({ ok: false, error: { code: 'engine-crashed', message: 'the connection to the studio host closed; retry', details: {} } });
        }
      };
      ws.onmessage = (e) => {
        const m = decodeWire(String(e.data)) as WireServerMessage;
        if (m.kind === 'reply') {
          pending.get(m.id)?.(m.reply as CallReply<unknown>);
          pending.delete(m.id);
        } else {
          for (const l of listeners.get(m.event) ?? []) l(m.payload);
        }
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
}

let bridge: StudioBridge | null = null;

export function getBridge(): StudioBridge {
  if (bridge) return bridge;
  if (typeof window !== 'undefined' && window.studio) bridge = window.studio;
  else {
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    bridge = createWebSocketBridge(`${proto}//${window.location.host}/ws`);
  }
  return bridge;
}

/** For tests: replace the bridge (e.g. with an in-memory one). */
export function setBridge(b: StudioBridge | null): void {
  bridge = b;
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
