/**
 * The headless host's HTTP server: one access policy (access/access-policy.ts) in front of every
 * entry point — health probes, the HTTP API (http-api.ts), the contract over a WebSocket (/ws) and
 * the built renderer, which opens from a one-time sign-in link that sets a session cookie (a page
 * explains how to sign in to a browser without one). Owns the lifecycle: drain (readyz 503 at once,
 * refuse new work, finish what is in flight) and close. One access-log line per request.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { StudioError } from '../../src-shared/errors';
import type { StudioStack } from '../app/studio-stack';
import { AccessPolicy, isLoopbackBind, type EntryPoint } from '../access/access-policy';
import { serveStatic } from './static-files';
import { attachWsBridge } from './ws-bridge';
import { createHttpApi } from './http-api';
import type { ApiLifecycle } from './routes/api-route';
import { errorBody, sendJson } from './http-errors';
import { accessLogLine } from './access-log';
import { defaultOpenAiVoiceMap } from '../api/openai-voices';

export interface HeadlessServerOptions {
  stack: StudioStack;
  port: number;
  hostname: string;
  rendererDir: string | null;
  /** The user's token (--token / STUDIO_TOKEN): required beyond loopback; then it guards every entry point. */
  bearerToken?: string;
  /** More Host names to accept besides the bound address and loopback names (--allow-host). */
  allowHosts?: readonly string[];
  /** OpenAI voice → speakers; default defaultOpenAiVoiceMap(). */
  voiceMap?: Record<string, string[]>;
  log?: (m: string) => void;
  /** One line per request (default true). */
  accessLog?: boolean;
}

export interface HeadlessServer {
  /** The base URL to reach the server from this machine (a wildcard bind is reached on loopback). */
  url: string;
  /** The sign-in link to open in a browser now: its one-time code is traded for a session cookie once. */
  readonly uiUrl: string;
  /** What programs send as Authorization: Bearer (the user's --token, or a random one for this start). */
  token: string;
  port: number;
  readonly numInFlight: number;
  /** readyz turns 503 at once, new requests are refused with 503, then in-flight responses finish (up to graceMs). */
  drain(graceMs: number): Promise<{ numUnfinished: number }>;
  close(): Promise<void>;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What a browser without a session (or with a used-up link) sees: why, and how to sign in. */
export function signInPage(reason: string): string {
  return [
    '<!doctype html><meta charset="utf-8"><title>Sign in – Qwen3-TTS Studio</title>',
    '<h1>Sign in to Qwen3-TTS Studio</h1>',
    `<p>${escapeHtml(reason)}</p>`,
    '<p>The terminal that runs <code>studio serve</code> (or <code>npm start</code>) prints a sign-in link,',
    '<code>http://…/?token=…</code>. Open that link in this browser. Each link signs in one browser;',
    'after it is used the terminal prints a new one for the next browser.</p>',
    '<p>Programs do not need the page: they call the HTTP API or the WebSocket with the header',
    '<code>Authorization: Bearer &lt;token&gt;</code>.</p>\n',
  ].join('\n');
}

/**
 * Where to send a browser after sign-in: the same path on this server. A path that a browser would
 * read as another host ('//evil.example/', '/\\evil.example') goes to '/' instead.
 */
export function sameOriginPath(pathname: string, search: string): string {
  const safe = pathname.startsWith('/') && !pathname.startsWith('//') && !pathname.includes('\\');
  return safe ? `${pathname}${search}` : '/';
}

/** The host part of a URL that reaches this server from this machine (a wildcard bind listens on loopback too). */
function reachableHost(hostname: string): string {
  if (hostname === '0.0.0.0') return '127.0.0.1';
  if (hostname === '::' || hostname === '[::]') return '[::1]';
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}

function entryPointOf(pathname: string, api: { owns(p: string): boolean }): EntryPoint {
  if (pathname === '/healthz' || pathname === '/readyz') return 'health';
  return api.owns(pathname) ? 'api' : 'ui';
}

export async function startHeadlessServer(options: HeadlessServerOptions): Promise<HeadlessServer> {
  const log = options.log ?? ((m: string) => console.log(m));
  if (!isLoopbackBind(options.hostname) && !options.bearerToken) {
    throw new StudioError(
      'invalid-argument',
      `binding to ${options.hostname} exposes the studio beyond this machine; set a token with --token or STUDIO_TOKEN, or bind to 127.0.0.1`,
      { field: 'host', value: options.hostname },
    );
  }
  const policy = new AccessPolicy({ boundHost: options.hostname, port: options.port, userToken: options.bearerToken, extraHosts: options.allowHosts });
  let baseUrl = ''; // set once listen() says which port
  const signInUrl = (): string => `${baseUrl}/?token=${encodeURIComponent(policy.signInCode)}`;
  const inFlight = new Set<ServerResponse>();
  const idleWaiters: (() => void)[] = [];
  let draining = false;
  const lifecycle: ApiLifecycle = {
    get draining() {
      return draining;
    },
    track(res) {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (inFlight.size === 0) for (const w of idleWaiters.splice(0)) w();
      });
    },
  };
  const api = createHttpApi({ stack: options.stack, lifecycle, voiceMap: options.voiceMap ?? defaultOpenAiVoiceMap(), log });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '';
    // Concatenate instead of resolving against a base, so '//host/x' cannot become another origin.
    let url: URL | null = null;
    let pathname: string | null = null;
    try {
      url = rawUrl.startsWith('/') ? new URL(`http://server${rawUrl}`) : null;
      pathname = url ? decodeURIComponent(url.pathname) : null;
    } catch {
      pathname = null;
    }
    if (!url || pathname === null) {
      sendJson(res, 400, errorBody(new StudioError('invalid-argument', 'the request path is not a valid URL path (bad percent-encoding?)', { field: 'path' }), 400));
      return;
    }
    const entry = entryPointOf(pathname, api);
    const access = {
      host: req.headers.host,
      origin: req.headers.origin,
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
      remoteAddress: req.socket.remoteAddress,
    };
    // The sign-in link: trade ?token= for a session cookie and drop the token from the address bar.
    const token = url.searchParams.get('token');
    // decide('health') passes the Host, Origin and loopback checks only: no sign-in gets past them.
    if (entry === 'ui' && token !== null && (req.method === 'GET' || req.method === 'HEAD') && policy.decide('health', access).ok) {
      const signIn = policy.signIn(token, access.cookie);
      if (!signIn.ok) {
        res.writeHead(signIn.reason === 'wrong-token' ? 401 : 403, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(signInPage(signIn.message));
        return;
      }
      url.searchParams.delete('token');
      res.writeHead(303, { location: sameOriginPath(url.pathname, url.search), 'set-cookie': policy.sessionCookie(signIn.sessionId), 'cache-control': 'no-store' });
      res.end();
      if (signIn.usedOneTimeCode) log(`[http] a browser signed in with the sign-in link; to sign in another browser open ${signInUrl()}`);
      return;
    }
    const decision = policy.decide(entry, access);
    if (!decision.ok) {
      const err = new StudioError(decision.code, decision.message);
      if (entry === 'ui') {
        res.writeHead(decision.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(decision.status === 401 ? signInPage('This browser is not signed in.') : signInPage(decision.message));
      } else {
        sendJson(res, decision.status, errorBody(err, decision.status), decision.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
      }
      return;
    }
    if (pathname === '/healthz') {
      if (req.method === 'GET' || req.method === 'HEAD') sendJson(res, 200, { ok: true });
      else sendJson(res, 405, errorBody(new StudioError('method-not-allowed', `${req.method} is not allowed on /healthz; use GET or HEAD`, { allow: 'GET, HEAD' }), 405), { allow: 'GET, HEAD' });
      return;
    }
    if (entry === 'health' || entry === 'api') {
      await api.handle(req, res, pathname);
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && options.rendererDir && (await serveStatic(options.rendererDir, pathname, res, req.headers['accept-encoding']))) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, errorBody(new StudioError('method-not-allowed', `${req.method} is not allowed here; the studio UI answers GET`), 405), { allow: 'GET, HEAD' });
      return;
    }
    sendJson(res, 404, errorBody(new StudioError('not-found', `nothing at ${pathname.slice(0, 200)}`), 404));
  }

  const server = http.createServer((req, res) => {
    const startedMs = performance.now();
    const id = randomBytes(4).toString('hex');
    if (options.accessLog !== false) {
      res.once('close', () => {
        const requestId = String(res.getHeader('x-request-id') ?? id);
        const path = (req.url ?? '').split('?')[0].slice(0, 200);
        const facts = { requestId, method: req.method ?? '?', path, statusCode: res.statusCode, headersSent: res.headersSent, finished: res.writableFinished };
        log(accessLogLine({ ...facts, requestComplete: req.complete, elapsedMs: performance.now() - startedMs, requestTimeoutMs: server.requestTimeout }));
      });
    }
    handle(req, res).catch((err: unknown) => {
      log(`[http] ${id} handler failed: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) sendJson(res, 500, errorBody(new StudioError('internal', 'internal error; see the server log'), 500));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
  const ws = attachWsBridge(server, { dispatcher: options.stack.dispatcher, services: options.stack.services, policy, log });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new StudioError('invalid-argument', `port ${options.port} on ${options.hostname} is in use; pick another with --port`, { field: 'port', value: options.port })
          : err,
      ),
    );
    server.listen(options.port, options.hostname, resolve);
  });
  const bound = server.address() as AddressInfo;
  const port = bound.port;
  policy.setBound(bound.address, port);
  if (!policy.loopbackOnly && !options.bearerToken) {
    // The name looked local but resolved elsewhere: refuse to run open to the network.
    await new Promise((resolve) => server.close(resolve));
    throw new StudioError('invalid-argument', `${options.hostname} resolved to ${bound.address}, which is reachable beyond this machine; set a token with --token or bind to 127.0.0.1`, { field: 'host', value: options.hostname });
  }
  const url = `http://${reachableHost(options.hostname)}:${port}`;
  baseUrl = url;

  const waitIdle = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      if (inFlight.size === 0) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      idleWaiters.push(() => (clearTimeout(timer), resolve()));
    });

  let closing: Promise<void> | null = null;
  return {
    url,
    get uiUrl() {
      return signInUrl();
    },
    token: policy.bearerToken,
    port,
    get numInFlight() {
      return inFlight.size;
    },
    async drain(graceMs) {
      draining = true;
      // The engine finishes (or, past graceMs, cancels) its work; then the last bytes are written.
      await Promise.all([options.stack.host.call('drain', { graceMs }).catch(() => null), waitIdle(graceMs)]);
      await waitIdle(2_000);
      return { numUnfinished: inFlight.size };
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        draining = true;
        ws.closeAll();
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      return closing;
    },
  };
}
