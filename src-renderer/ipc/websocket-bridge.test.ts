// The WebSocket bridge when the host goes away and comes back: a closed socket fails the calls in
// flight and reopens by itself; a socket the host refuses is explained by the probe, so a restarted
// host (which forgot this browser's session) reads as signed out, and signing in again reconnects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebSocketBridge, probeHost, type HostProbe } from './client';
import type { ConnectionState } from './connection';
import { hostBlockedReason } from './connection';
import { StudioError } from '../../src-shared/errors';
import { encodeWire } from '../../src-shared/wire';

/** A scripted stand-in for the browser's WebSocket: each socket opens or fails as `nextOutcome` says. */
class FakeSocket {
  static sockets: FakeSocket[] = [];
  static nextOutcome: 'open' | 'refuse' = 'open';
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  readonly sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.sockets.push(this);
    const outcome = FakeSocket.nextOutcome;
    queueMicrotask(() => (outcome === 'open' ? this.onopen?.() : (this.onerror?.(), this.onclose?.())));
  }
  send(data: string): void {
    this.sent.push(data);
  }
  /** The host went away: the browser closes the socket. */
  drop(): void {
    this.onclose?.();
  }
  reply(value: unknown): void {
    const call = JSON.parse(this.sent.at(-1)!) as { id: number };
    this.onmessage?.({ data: encodeWire({ kind: 'reply', id: call.id, reply: { ok: true, value } }) });
  }
}

function setUp(probeAnswer: () => HostProbe) {
  FakeSocket.sockets = [];
  FakeSocket.nextOutcome = 'open';
  vi.stubGlobal('WebSocket', FakeSocket);
  const states: ConnectionState[] = [];
  const bridge = createWebSocketBridge('ws://127.0.0.1:7871/ws', {
    onDidChangeConnection: (c) => states.push(c),
    probe: async () => probeAnswer(),
    reconnectDelaysMs: [10],
  });
  return { bridge, states };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('WebSocket bridge connection state', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fails the calls in flight when the socket closes, says disconnected, and reopens by itself', async () => {
    const { bridge, states } = setUp(() => 'signed-in');
    const first = bridge.invoke('studio:app.info', {});
    await until(() => FakeSocket.sockets[0]?.sent.length === 1);
    FakeSocket.sockets[0].reply({ version: 'x' });
    expect(await first).toEqual({ ok: true, value: { version: 'x' } });
    expect(states.at(-1)).toEqual({ state: 'connected' });

    const inFlight = bridge.invoke('studio:app.info', {});
    await until(() => FakeSocket.sockets[0].sent.length === 2);
    FakeSocket.sockets[0].drop();
    const failed = await inFlight;
    expect(failed.ok).toBe(false);
    expect(states.at(-1)?.state).toBe('disconnected');
    expect(hostBlockedReason(states.at(-1)!)).toContain('reconnecting by itself');

    // No call needed: the bridge opens a new socket after reconnectDelaysMs.
    await until(() => FakeSocket.sockets.length === 2 && states.at(-1)?.state === 'connected');
  });

  it('reads a refused socket on a host that answers 401 as signed out, and reconnects once signed in again', async () => {
    let probe: HostProbe = 'signed-out';
    const { bridge, states } = setUp(() => probe);
    FakeSocket.nextOutcome = 'refuse';
    const refused = await bridge.invoke('studio:app.info', {}).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StudioError);
    expect((refused as StudioError).code).toBe('unauthorized');
    expect((refused as StudioError).message).toContain('open the new sign-in link printed by the terminal');
    expect(states.at(-1)?.state).toBe('signed-out');
    expect(hostBlockedReason(states.at(-1)!)).toContain('sign-in link');

    // The user opened the new link (in another tab): the next attempt's socket opens.
    probe = 'signed-in';
    FakeSocket.nextOutcome = 'open';
    await until(() => states.at(-1)?.state === 'connected');
    expect(FakeSocket.sockets.length).toBeGreaterThanOrEqual(2);
  });

  it('reads a host that does not answer at all as disconnected, naming the host', async () => {
    const { bridge, states } = setUp(() => 'unreachable');
    FakeSocket.nextOutcome = 'refuse';
    const err = (await bridge.invoke('studio:app.info', {}).catch((e: unknown) => e)) as StudioError;
    expect(err.code).toBe('network');
    expect(states.at(-1)).toEqual({ state: 'disconnected', reason: "the studio host at ws://127.0.0.1:7871/ws does not answer; is 'studio serve' running?" });
  });

  it('probes the page itself: 401 is signed out, any other answer signed in, no answer unreachable', async () => {
    const asked: { url: string; method?: string }[] = [];
    const answer = (status: number | null) =>
      vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
        asked.push({ url: String(url), method: init.method });
        if (status === null) throw new TypeError('Failed to fetch');
        return new Response(null, { status });
      });
    answer(401);
    expect(await probeHost('http://127.0.0.1:7871/ws')).toBe('signed-out');
    answer(200);
    expect(await probeHost('http://127.0.0.1:7871/ws')).toBe('signed-in');
    answer(null);
    expect(await probeHost('http://127.0.0.1:7871/ws')).toBe('unreachable');
    expect(asked[0]).toEqual({ url: 'http://127.0.0.1:7871/', method: 'HEAD' });
  });
});
