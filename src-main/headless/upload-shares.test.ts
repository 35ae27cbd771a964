/**
 * The uploads pool: a remote client's calls awaiting replies are held to its share over all its
 * sockets (refused 'busy' with a retry hint past it, never dispatched), and the share comes back with
 * the replies; the local session is not held to one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { decodeWire, encodeWire } from '../../src-shared/wire';
import type { CallReply } from '../../src-shared/ipc-contract';
import type { Dispatcher } from '../api/dispatcher';
import { clientIdOf, type AccessPolicy } from '../access/access-policy';
import type { StudioServices } from '../services/studio-services';
import { UploadShares } from './upload-shares';
import { attachWsBridge } from './ws-bridge';

describe('UploadShares', () => {
  it('holds each client to its share, lets one call through for an idle client, and gives bytes back', () => {
    const shares = new UploadShares(100);
    expect(shares.tryTake('a', 60)).toBe(true);
    expect(shares.tryTake('a', 50)).toBe(false); // 110 > 100: nothing taken
    expect(shares.held('a')).toBe(60);
    expect(shares.tryTake('b', 100)).toBe(true); // another client has its own share
    shares.release('a', 60);
    expect(shares.tryTake('a', 150)).toBe(true); // an idle client may always send one call
    expect(shares.tryTake('a', 1)).toBe(false);
  });
});

describe('the WebSocket bridge and the uploads pool', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** A bridge whose calls wait until released, behind a policy that takes every socket with `role`. */
  async function bridge(role: 'admin' | 'client', shareBytes: number) {
    const waiting: (() => void)[] = [];
    const dispatcher = { dispatch: () => new Promise<CallReply<unknown>>((resolve) => waiting.push(() => resolve({ ok: true, value: 'done' }))) } as unknown as Dispatcher;
    const services = { attach: () => () => {} } as unknown as StudioServices;
    const policy = { decide: () => ({ ok: true, role }) } as unknown as AccessPolicy;
    const server = http.createServer();
    const ws = attachWsBridge(server, { dispatcher, services, policy, log: () => {}, clientMaxUploadBytesInFlight: shareBytes });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => (ws.closeAll(), new Promise<void>((r) => server.close(() => r()))));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    return { url, numWaiting: () => waiting.length, release: () => waiting.splice(0).forEach((w) => w()) };
  }

  async function socket(url: string) {
    const ws = new WebSocket(url);
    const replies: { id: number; reply: CallReply<unknown> }[] = [];
    ws.on('message', (data) => replies.push(decodeWire(data.toString()) as { id: number; reply: CallReply<unknown> }));
    await new Promise((r) => ws.once('open', r));
    const call = (id: number, numChars: number) => ws.send(encodeWire({ kind: 'call', id, channel: 'studio:app.ping', payload: { message: 'x'.repeat(numChars) } }));
    return { ws, replies, call };
  }

  const until = async (predicate: () => boolean) => {
    for (let i = 0; i < 300 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(predicate()).toBe(true);
  };

  it("refuses a remote client's call past its share over all its sockets, then takes it once replies went out", async () => {
    const { url, release, numWaiting } = await bridge('client', 2_500);
    const [a, b] = [await socket(url), await socket(url)];
    a.call(1, 1_000);
    await until(() => numWaiting() === 1);
    b.call(2, 1_000); // ≈2,100 bytes held by the client over its two sockets
    await until(() => numWaiting() === 2);
    b.call(3, 1_000); // past 2,500
    await until(() => b.replies.length === 1);
    expect(b.replies[0]).toMatchObject({ id: 3, reply: { ok: false, error: { code: 'busy', details: { limitBytes: 2_500, retryAfterS: 1 } } } });
    release();
    await until(() => a.replies.length === 1 && b.replies.length === 2);
    b.call(4, 1_000);
    await until(() => numWaiting() === 1);
    release();
    await until(() => b.replies.length === 3);
    expect(b.replies[2]).toMatchObject({ id: 4, reply: { ok: true } });
    for (const s of [a, b]) s.ws.close();
  });

  it('does not hold the local session to a share', async () => {
    const { url, release, numWaiting } = await bridge('admin', 2_500);
    const s = await socket(url);
    for (let id = 1; id <= 4; id++) s.call(id, 1_000);
    await until(() => numWaiting() === 4); // all dispatched, none refused
    expect(s.replies).toEqual([]);
    release();
    await until(() => s.replies.length === 4);
    expect(s.replies.every((r) => r.reply.ok)).toBe(true);
    s.ws.close();
  });

  it('counts every connection of a remote address as one client, and this machine as another', () => {
    expect(clientIdOf('10.0.0.9')).toBe('remote 10.0.0.9');
    expect(clientIdOf('::ffff:10.0.0.9')).toBe('remote 10.0.0.9');
    expect(clientIdOf('10.0.0.7')).not.toBe(clientIdOf('10.0.0.9'));
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(clientIdOf(local)).toBe('local');
  });
});
