/**
 * The headless server on a real loopback port over a fake engine host: /healthz and /readyz, the
 * WebSocket bridge (calls, unknown channel, malformed messages, foreign origins refused, a flood of
 * bad calls closed with a bounded log, clip uploads up to the documented size), static files without
 * path escapes, one-time sign-in links and their redirect, bearer tokens, /status while the engine
 * host stops or restarts, no server paths in /v1/models and /v1/voices, and refusing a non-loopback
 * bind without a token.
 */
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { FakeHostProcess, type FakeHandler } from '../engine-client/testing/fake-host-process';
import type { HostMethod } from '../engine-protocol/protocol';
import { startHeadlessServer, type HeadlessServer } from './headless-server';
import { fakeHostServers } from './testing/fake-host-servers';
import { MAX_BAD_MESSAGES } from './ws-bridge';
import { decodeWire, encodeWire } from '../../src-shared/wire';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';

const servers = fakeHostServers('studio-headless-');

function start(options: { token?: string; rendererDir?: string; handlers?: Partial<Record<HostMethod, FakeHandler>>; spawnHost?: () => FakeHostProcess; logs?: string[] } = {}): Promise<HeadlessServer> {
  return servers.start({
    token: options.token,
    rendererDir: options.rendererDir,
    spawnHost: options.spawnHost ?? (() => new FakeHostProcess(1, { status: () => ({ state: 'ready', numWaiting: 0 }), ...options.handlers })),
    log: options.logs ? (m: string) => options.logs!.push(m) : undefined,
  });
}

const tokenOf = (s: HeadlessServer) => s.token;

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
    const stack = servers.stack({ version: 't' });
    await expect(startHeadlessServer({ stack, port: 0, hostname: '0.0.0.0', rendererDir: null, log: () => {} })).rejects.toThrow(/--token/);
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

  it('answers DELETE /healthz with 405 and an Allow header, GET and HEAD with 200', async () => {
    const s = await start();
    const del = await fetch(`${s.url}/healthz`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD');
    expect(((await del.json()) as { error: { code: string } }).error.code).toBe('method-not-allowed');
    expect((await fetch(`${s.url}/healthz`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${s.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('signing in a browser', () => {
  it('uses a sign-in link up at its first visit; the page then explains how to sign in, and the session stays', async () => {
    const s = await start();
    const link = s.uiUrl;
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    for (let i = 0; i < 70; i++) {
      const again = await fetch(link, { redirect: 'manual' });
      expect(again.status).toBe(401);
      expect(again.headers.get('set-cookie')).toBeNull();
      if (i === 0) expect(await again.text()).toMatch(/used up[\s\S]*sign-in link/);
      else await again.arrayBuffer();
    }
    expect(s.uiUrl).not.toBe(link); // a fresh link for the next browser
    expect((await fetch(s.uiUrl, { redirect: 'manual' })).status).toBe(303);
    // The signed-in browser opening its used link again just lands on the page.
    const revisit = await fetch(link, { redirect: 'manual', headers: { cookie } });
    expect(revisit.status).toBe(303);
    expect(revisit.headers.get('set-cookie')).toContain(cookie);
    // The first browser is still signed in after all those visits.
    const ws = await wsCall(s.url, { kind: 'call', id: 1, channel: 'studio:app.ping', payload: { message: 'still here' } }, { cookie });
    expect(ws).toMatchObject({ reply: { ok: true } });
  });

  it('answers a bare visit with a page that says how to sign in, not a bare 401', async () => {
    const s = await start();
    const bare = await fetch(`${s.url}/`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('content-type')).toMatch(/text\/html/);
    const page = await bare.text();
    expect(page).toMatch(/Sign in to Qwen3-TTS Studio/);
    expect(page).toMatch(/sign-in link/);
    expect(page).toMatch(/\?token=/);
  });

  it('redirects only to a path on this server after sign-in, never to another host', async () => {
    const s = await start();
    for (const [path, want] of [
      ['//evil.example/', '/'],
      ['//evil.example/x?y=1', '/'],
      ['/\\evil.example/', '/'],
      ['/library?tab=2', '/library?tab=2'],
    ] as const) {
      const code = new URL(s.uiUrl).searchParams.get('token')!;
      const sep = path.includes('?') ? '&' : '?';
      const r = await rawGet(s.url, `${path}${sep}token=${encodeURIComponent(code)}`);
      expect(r.status, path).toBe(303);
      expect(r.location, path).toBe(want);
    }
  });

  it('prints a link that works when bound to every address (0.0.0.0)', async () => {
    const server = await servers.start({ version: 't', hostname: '0.0.0.0', token: 'the-token' });
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect((await fetch(server.uiUrl, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

/** A GET with the path sent as is (fetch would normalise '/\\' and '//'), answering status and Location. */
function rawGet(url: string, rawPath: string): Promise<{ status: number; location: string | undefined }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, headers: { host: u.host } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the WebSocket bridge under bad input', () => {
  it('closes a socket that keeps sending bad calls, with a bounded log', async () => {
    const logs: string[] = [];
    const s = await start({ logs });
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    let numReplies = 0;
    ws.on('message', () => numReplies++);
    const numSent = 2_000;
    for (let i = 0; i < numSent; i++) {
      const bad = i % 2 === 0 ? { kind: 'call', id: i, channel: `studio:evil.${'x'.repeat(60)}${i}`, payload: {} } : { kind: 'call', id: i, channel: 'studio:app.ping', payload: { message: 42 } };
      ws.send(encodeWire(bad));
    }
    expect(await closed).toBe(1008);
    expect(numReplies).toBeGreaterThanOrEqual(MAX_BAD_MESSAGES - 1);
    expect(numReplies).toBeLessThan(numSent);
    // Every log line of the flood, dispatcher and bridge together: a handful, not one per call.
    const floodLines = logs.filter((l) => l.includes('[dispatch]') || l.includes('[ws]'));
    expect(floodLines.length).toBeLessThanOrEqual(30);
    expect(floodLines.join('\n').length).toBeLessThan(10_000);
  });

  it('takes a reference clip upload up to the documented limit from the local session', async () => {
    const received: number[] = [];
    const s = await start({
      handlers: {
        modelInfo: () => ({ id: 'base', displayName: 'Base', path: '', kind: 'base', size: '0.6B', synthetic: true, voices: [], languages: [], sampleRateHz: 24000, modelHash: 'h' }),
        makeVoice: (args) => {
          received.push((args as { audio: Uint8Array }).audio.byteLength);
          throw { code: 'invalid-argument', message: 'not audio (test host)' };
        },
      },
    });
    const audio = new Uint8Array(MAX_REFERENCE_BYTES - 64 * 1024); // just under the documented 64 MB
    audio[0] = 0x52;
    audio[audio.length - 1] = 0x7a;
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = new Promise<{ id: number; reply: { ok: boolean; error: { code: string; message: string } } }>((resolve, reject) => {
      ws.once('message', (data) => resolve(decodeWire(data.toString()) as never));
      ws.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
    });
    // The wire form of encodeWire (tagged base64), built with Buffer: encodeWire's portable loop is slow for 64 MB.
    const tagged = { __typed: 'u8', b64: Buffer.from(audio.buffer).toString('base64') };
    ws.send(JSON.stringify({ kind: 'call', id: 5, channel: 'studio:voices.clone', payload: { name: 'Big clip', audio: tagged, originalName: 'big.wav' } }));
    expect(await reply).toMatchObject({ id: 5, reply: { ok: false, error: { code: 'invalid-argument', message: expect.stringMatching(/not audio/) } } });
    expect(received).toEqual([audio.byteLength]); // every byte reached the engine host
    ws.close();
  }, 60_000);
});

describe('/status and the model routes', () => {
  it('answers /status promptly when the engine host stops answering, and does not say ready', async () => {
    let proc: FakeHostProcess | null = null;
    const s = await start({ spawnHost: () => (proc = new FakeHostProcess(1, { status: () => ({ state: 'ready', numWaiting: 0 }) })) });
    expect(await (await fetch(`${s.url}/status`)).json()).toMatchObject({ ready: true, state: 'ready' });
    proc!.hang(); // stopped, as with SIGSTOP: the supervisor has not noticed yet
    const body = (await (await fetch(`${s.url}/status`)).json()) as { ready: boolean; state: string; readyDetail: string };
    expect(body).toMatchObject({ ready: false, state: 'unresponsive' });
    expect(body.readyDetail).toMatch(/did not answer/);
  });

  it('says the same in /readyz as in /status while the engine host is stopped, and both recover when it answers again', async () => {
    let proc: FakeHostProcess | null = null;
    const s = await start({ spawnHost: () => (proc = new FakeHostProcess(1, { status: () => ({ state: 'ready', numWaiting: 0 }) })) });
    proc!.hang(); // SIGSTOP: the heartbeat has not noticed yet (it needs 5 s), the 2 s status call does
    expect(await (await fetch(`${s.url}/status`)).json()).toMatchObject({ ready: false, state: 'unresponsive' });
    const stopped = await fetch(`${s.url}/readyz`);
    expect(stopped.status).toBe(503);
    expect(await stopped.json()).toMatchObject({ ready: false, state: 'unresponsive', detail: expect.stringMatching(/did not answer a status call/) });
    proc!.resume(); // SIGCONT: the probe's own background status call is answered
    const started = Date.now();
    while ((await fetch(`${s.url}/readyz`)).status !== 200) {
      expect(Date.now() - started).toBeLessThan(3_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await (await fetch(`${s.url}/status`)).json()).toMatchObject({ ready: true, state: 'ready' });
  });

  it('says restarting, not ready, while the engine host restarts', async () => {
    let numSpawned = 0;
    let proc: FakeHostProcess | null = null;
    const s = await start({
      // The first host is ready at once; the restarted one takes far longer than the test.
      spawnHost: () => (proc = new FakeHostProcess(++numSpawned, { status: () => ({ state: 'ready', numWaiting: 0 }) }, numSpawned === 1 ? 1 : 600_000)),
    });
    expect(await (await fetch(`${s.url}/status`)).json()).toMatchObject({ state: 'ready' });
    proc!.crash(1, null);
    const body = (await (await fetch(`${s.url}/status`)).json()) as { ready: boolean; state: string; hostState: string };
    expect(body).toMatchObject({ ready: false, state: 'restarting', hostState: 'restarting' });
  });

  it('asks the engine host for the speakers once per loaded model, not on every speech request', async () => {
    const model = { id: 'm1', displayName: 'm1', path: '/m1', kind: 'custom_voice', size: '0.6B', synthetic: true, voices: [{ name: 'ryan' }], languages: [], sampleRateHz: 24000, modelHash: 'h' };
    let numListVoices = 0;
    let host: FakeHostProcess | null = null;
    const handlers = { modelInfo: () => model, listVoices: () => (numListVoices++, model.voices), status: () => ({ state: 'ready', numWaiting: 0, model }) };
    const s = await start({ spawnHost: () => (host = new FakeHostProcess(1, handlers)) });
    // as the real host does once its model is loaded: a status event naming the model
    host!.emit({ kind: 'event', event: 'studio:engine.onDidChangeStatus', payload: { state: 'ready', numWaiting: 0, model } as never });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${s.url}/v1/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${tokenOf(s)}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm1', input: 'hi', voice: 'nobody-here' }) });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("voice 'nobody-here' is not a speaker of this model");
    }
    expect(numListVoices).toBe(1);
  });

  it('names a model loaded from a folder without its path in /v1/models, /v1/voices and /status', async () => {
    const folder = path.join(os.tmpdir(), 'secret-place', 'my-checkpoint');
    const model = { id: folder, displayName: 'my-checkpoint', path: folder, kind: 'custom_voice', size: '0.6B', synthetic: false, voices: [{ name: 'ryan' }], languages: [], sampleRateHz: 24000, modelHash: 'h' };
    const s = await start({ handlers: { modelInfo: () => model, listVoices: () => model.voices, status: () => ({ state: 'ready', numWaiting: 0, model }) } });
    for (const route of ['/v1/models', '/v1/voices', '/status']) {
      const text = await (await fetch(`${s.url}${route}`)).text();
      expect(text, route).not.toContain('secret-place');
    }
    const models = (await (await fetch(`${s.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0].id).toMatch(/^local--my-checkpoint-[0-9a-f]{8}$/);
    expect((await fetch(`${s.url}/v1/models/${models.data[0].id}`)).status).toBe(200);
  });
});
