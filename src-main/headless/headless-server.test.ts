/**
 * The headless server on a real loopback port over a fake engine host: /healthz and /readyz, the
 * WebSocket bridge (calls, unknown channel, malformed messages, foreign origins refused), static
 * files without path escapes, bearer tokens, and refusing a non-loopback bind without a token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createStudioRuntime, type StudioRuntime } from '../app/studio-runtime';
import { FakeHostProcess } from '../engine-host/testing/fake-host-process';
import { startHeadlessServer, type HeadlessServer } from './headless-server';
import { decodeWire, encodeWire } from '../../src-shared/wire';

let runtime: StudioRuntime | null = null;
let server: HeadlessServer | null = null;

afterEach(async () => {
  await server?.close();
  await runtime?.dispose();
  server = null;
  runtime = null;
});

async function start(options: { token?: string; rendererDir?: string } = {}) {
  runtime = createStudioRuntime({
    hostKind: 'headless',
    version: 'test',
    userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-headless-')),
    spawnHost: () => new FakeHostProcess(1, { status: () => ({ state: 'ready', numWaiting: 0 }) }),
    log: () => {},
  });
  await runtime.host.start();
  server = await startHeadlessServer({ runtime, port: 0, hostname: '127.0.0.1', rendererDir: options.rendererDir ?? null, bearerToken: options.token, log: () => {} });
  return server;
}

const tokenOf = (s: HeadlessServer) => new URL(s.uiUrl).searchParams.get('token')!;

function wsCall(url: string, message: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    ws.on('open', () => ws.send(typeof message === 'string' ? message : encodeWire(message)));
    ws.on('message', (data) => {
      resolve(decodeWire(data.toString()));
      ws.close();
    });
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

describe('headless server', () => {
  it('answers /healthz and /readyz', async () => {
    const s = await start();
    expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ ok: true });
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, state: 'ready' });
  });

  it('bridges contract calls over the WebSocket, including typed errors for unknown channels', async () => {
    const s = await start();
    const auth = { authorization: `Bearer ${tokenOf(s)}` };
    const ok = (await wsCall(s.url, { kind: 'call', id: 7, channel: 'studio:app.ping', payload: { message: 'hey' } }, auth)) as { id: number; reply: { ok: boolean; value: { message: string } } };
    expect(ok.id).toBe(7);
    expect(ok.reply.value.message).toBe('hey');
    const bad = (await wsCall(s.url, { kind: 'call', id: 8, channel: 'studio:nope', payload: {} }, auth)) as { reply: { ok: boolean; error: { code: string } } };
    expect(bad.reply).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    const malformed = (await wsCall(s.url, { kind: 'shout', id: 'x' }, auth)) as { reply: { error: { code: string } } };
    expect(malformed.reply.error.code).toBe('invalid-argument');
  });

  it('refuses WebSocket connections from a foreign origin', async () => {
    const s = await start();
    const auth = { authorization: `Bearer ${tokenOf(s)}` };
    await expect(wsCall(s.url, { kind: 'call', id: 1, channel: 'studio:app.ping', payload: { message: 'x' } }, { ...auth, origin: 'https://evil.example' })).rejects.toThrow(/403/);
    // The same origin as the page is fine.
    const ok = await wsCall(s.url, { kind: 'call', id: 1, channel: 'studio:app.ping', payload: { message: 'x' } }, { ...auth, origin: s.url });
    expect(ok).toMatchObject({ reply: { ok: true } });
  });

  it('serves renderer files but never outside the renderer folder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'studio-renderer-'));
    writeFileSync(path.join(dir, 'index.html'), '<html>studio</html>');
    const s = await start({ rendererDir: dir });
    // The one-time URL sets the session cookie and redirects to the page without the token.
    const login = await fetch(s.uiUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/');
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const index = await fetch(`${s.url}/`, { headers: { cookie } });
    expect(await index.text()).toBe('<html>studio</html>');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('access-control-allow-origin')).toBeNull();
    const escape = await fetch(`${s.url}/..%2f..%2fetc%2fpasswd`, { headers: { cookie } });
    expect(escape.status).toBe(404);
    expect((await fetch(`${s.url}/%E0%A4%A`, { headers: { cookie } })).status).toBe(400); // malformed percent-encoding
    expect((await fetch(`${s.url}/`)).status).toBe(401); // no session, no page
    expect((await fetch(`${s.url}/?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('requires the bearer token on API routes when one is set', async () => {
    const s = await start({ token: 'sekret' });
    expect((await fetch(`${s.url}/status`)).status).toBe(401);
    const ok = await fetch(`${s.url}/status`, { headers: { authorization: 'Bearer sekret' } });
    expect(ok.status).toBe(200);
  });

  it('refuses to bind beyond loopback without a token, naming the fix', async () => {
    runtime = createStudioRuntime({ hostKind: 'headless', version: 't', userDataDir: os.tmpdir(), spawnHost: () => new FakeHostProcess(1), log: () => {} });
    await expect(startHeadlessServer({ runtime, port: 0, hostname: '0.0.0.0', rendererDir: null, log: () => {} })).rejects.toThrow(/--token/);
  });

  it('rejects an oversized or malformed JSON body with a 4xx naming the problem', async () => {
    const s = await start();
    const json = { 'content-type': 'application/json' };
    const notJson = await fetch(`${s.url}/v1/audio/speech`, { method: 'POST', body: '{nope', headers: json });
    expect(notJson.status).toBe(400);
    const missing = await fetch(`${s.url}/v1/audio/speech`, { method: 'POST', body: JSON.stringify({ voice: 'ryan' }), headers: json });
    expect(missing.status).toBe(400);
    const missingBody = (await missing.json()) as { error: { message: string; type: string; param: string } };
    expect(missingBody.error.message).toContain('input');
    expect(missingBody.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    const huge = await fetch(`${s.url}/api/v1/tts`, { method: 'POST', body: JSON.stringify({ text: 'a'.repeat(1_200_000), voice: 'ryan' }), headers: json });
    expect(huge.status).toBe(413);
    const format = await fetch(`${s.url}/v1/audio/speech`, { method: 'POST', body: JSON.stringify({ input: 'hi', voice: 'ryan', response_format: 'ogg' }), headers: json });
    expect(format.status).toBe(400);
    expect(((await format.json()) as { error: { message: string } }).error.message).toMatch(/response_format/);
    const unknown = await fetch(`${s.url}/api/v1/tts`, { method: 'POST', body: JSON.stringify({ text: 'hi', voice: 'ryan', temprature: 0.5 }), headers: json });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string; param: string } }).error).toMatchObject({ param: 'temprature', message: expect.stringMatching(/unknown field 'temprature'/) });
  });
});
