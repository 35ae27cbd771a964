/**
 * A render queue URL that is not a working Redis, on real loopback listeners: an HTTP server, a TCP
 * listener that never answers, and a closed port. The submitter fails at once naming the URL and
 * the fix (or at its connect deadline for the silent one), Cancel wins over the wait, the Render
 * page's service disposes (the server's SIGTERM path) without waiting for Redis, and `studio
 * worker` exits 1 with the reason before loading any engine.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { RenderService } from '../services/render-service';
import { asHost, fakeRenderHost } from './testing/fake-render-host';
import { defaultQueueConfig, submitRender } from './render-queue';
import type { RenderPlan } from './render-plan';
import { runCli } from '../cli/cli';

/** Long enough that only a cancel (or the test's own timeout) can end a wait on the silent listener. */
const LONG_CONNECT_MS = 600_000;

let httpServer: http.Server;
let silent: net.Server;
const silentSockets = new Set<net.Socket>();
let closedPort = 0;
const dirs: string[] = [];

const urlOf = (server: net.Server | http.Server) => `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
const listen = (server: net.Server | http.Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-unreachable-'));
  dirs.push(d);
  return d;
};

const PLAN: RenderPlan = {
  settings: { voice: 'ryan', language: 'english', seed: 1, model: 'embedded:tiny' },
  chapters: [{ title: 'one', numParts: 1 }],
  parts: [{ id: '0123456789abcdef0123456789abcdef', index: 0, chapter: 0, chapterTitle: 'one', input: 'Hello.', inputFormat: 'text' }],
};

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as StudioError);

beforeAll(async () => {
  httpServer = http.createServer((_req, res) => res.end('not redis'));
  silent = net.createServer((socket) => {
    silentSockets.add(socket); // reads everything, answers nothing
    socket.on('close', () => silentSockets.delete(socket));
  });
  await Promise.all([listen(httpServer), listen(silent)]);
  const probe = net.createServer();
  await listen(probe);
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
});

afterAll(async () => {
  for (const s of silentSockets) s.destroy();
  await Promise.all([new Promise((r) => httpServer.close(r)), new Promise((r) => silent.close(r))]);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('a render queue URL that is not Redis', () => {
  it('fails at once on an HTTP server or a closed port, naming the URL, what is there and the fix', async () => {
    for (const [url, what] of [[urlOf(httpServer), /does not speak the Redis protocol/], [`redis://127.0.0.1:${closedPort}`, /nothing listens on that port/]] as const) {
      const err = await failure(submitRender(url, PLAN, tmpDir(), () => {}, { ...defaultQueueConfig(), connectTimeoutMs: LONG_CONNECT_MS }));
      expect(err.code).toBe('network');
      expect(err.message).toContain(`the render queue at ${url} is not a reachable Redis`);
      expect(err.message).toMatch(what);
      expect(err.message).toMatch(/start redis-server there, or correct the queue URL/);
    }
  });

  it('gives up on a listener that never answers at the connect deadline, saying so', async () => {
    const err = await failure(submitRender(urlOf(silent), PLAN, tmpDir(), () => {}, { ...defaultQueueConfig(), connectTimeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toContain(`the render queue at ${urlOf(silent)} did not answer as Redis within 300 ms`);
  });

  it('lets cancel win over the wait for a listener that never answers', async () => {
    const abort = new AbortController();
    const result = submitRender(urlOf(silent), PLAN, tmpDir(), () => {}, { ...defaultQueueConfig(), connectTimeoutMs: LONG_CONNECT_MS }, { signal: abort.signal });
    await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    expect(await result).toEqual({ failures: [], numQueued: 0, cancelled: true });
  });

  it('the Render page: the render fails with the reason, Cancel stops a waiting one, and dispose returns', async () => {
    const dataDir = tmpDir();
    const service = new RenderService({ dataDir, host: asHost(fakeRenderHost()), queueConfig: { connectTimeoutMs: LONG_CONNECT_MS }, openProject: async () => ({}) as never, onDidChange: () => {} });
    const start = (title: string) => service.start({ source: { kind: 'text', text: 'One.\n\nTwo.', inputFormat: 'text', title }, voice: 'ryan', language: 'auto', seed: 1 });
    service.setQueueUrl(urlOf(httpServer));
    const web = await start('web');
    await service.settled(web.id);
    const failed = service.list().find((j) => j.id === web.id)!;
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(new RegExp(`^network: the render queue at ${urlOf(httpServer)} is not a reachable Redis`));
    service.setQueueUrl(urlOf(silent));
    const waiting = await start('waiting');
    await new Promise((r) => setTimeout(r, 50));
    expect(service.list().find((j) => j.id === waiting.id)!.state).toBe('running');
    expect(service.cancel(waiting.id)).toBe(true);
    await service.settled(waiting.id);
    expect(service.list().find((j) => j.id === waiting.id)!.state).toBe('cancelled');
    // the quit/SIGTERM path: every render stops and is left resumable
    const another = await start('another');
    await new Promise((r) => setTimeout(r, 50));
    await service.dispose();
    expect(service.list().find((j) => j.id === another.id)!.state).toBe('interrupted');
  });

  it('studio worker exits 1 naming the URL and the fix, before any engine starts', async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    try {
      expect(await runCli(['worker', '--queue', urlOf(httpServer), '--model', '/no/such/model'])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(err.join('')).toMatch(new RegExp(`^error: the render queue at ${urlOf(httpServer)} is not a reachable Redis: .*\nfix: start redis-server there`));
  });
});
