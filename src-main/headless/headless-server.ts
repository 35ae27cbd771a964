/**
 * The headless host's HTTP server: one access policy (access/access-policy.ts) in front of every
 * entry point — health probes, the HTTP API (http-api.ts), the contract over a WebSocket (/ws) and
 * the built renderer, which opens from a one-time token URL that sets a session cookie. Owns the
 * lifecycle: drain (readyz 503 at once, refuse new work, finish what is in flight) and close.
 * One access-log line per request.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { StudioError } from '../../src-shared/errors';
import type { StudioRuntime } from '../app/studio-runtime';
import { AccessPolicy, isLoopbackBind, type EntryPoint } from '../access/access-policy';
import { serveStatic } from './static-files';
import { attachWsBridge } from './ws-bridge';
import { createHttpApi, type ApiLifecycle } from './http-api';
import { errorBody, sendJson } from './http-errors';
import { defaultOpenAiVoiceMap } from './speech-routes';

export interface HeadlessServerOptions {
  runtime: StudioRuntime;
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
  url: string;
  /** The URL to open in a browser: it carries the token once and is traded for a session cookie. */
  uiUrl: string;
  port: number;
  readonly numInFlight: number;
  /** readyz turns 503 at once, new requests are refused with 503, then in-flight responses finish (up to graceMs). */
  drain(graceMs: number): Promise<{ numUnfinished: number }>;
  close(): Promise<void>;
}

const UNAUTHORIZED_PAGE = (message: string) =>
  `<!doctype html><meta charset="utf-8"><title>Qwen3-TTS Studio</title><p>${message.replace(/[<>&]/g, '')}</p>\n`;

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
  const api = createHttpApi({ runtime: options.runtime, lifecycle, voiceMap: options.voiceMap ?? defaultOpenAiVoiceMap(), log });

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
    // The one-time URL: trade ?token= for a session cookie and drop the token from the address bar.
    const token = url.searchParams.get('token');
    if (entry === 'ui' && token !== null && (req.method === 'GET' || req.method === 'HEAD') && policy.hostAllowed(access.host)) {
      const session = policy.openSession(token);
      if (session) {
        url.searchParams.delete('token');
        res.writeHead(303, { location: `${url.pathname}${url.search}`, 'set-cookie': policy.sessionCookie(session), 'cache-control': 'no-store' });
        res.end();
        return;
      }
    }
    const decision = policy.decide(entry, access);
    if (!decision.ok) {
      const err = new StudioError(decision.code, decision.message);
      if (entry === 'ui') {
        res.writeHead(decision.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(UNAUTHORIZED_PAGE(decision.message));
      } else {
        sendJson(res, decision.status, errorBody(err, decision.status), decision.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
      }
      return;
    }
    if (pathname === '/healthz') {
      sendJson(res, 200, { ok: true });
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
        const requestId = res.getHeader('x-request-id') ?? id;
        const how = res.writableFinished ? '' : ' (connection closed early)';
        log(`[http] ${requestId} ${req.method} ${(req.url ?? '').split('?')[0].slice(0, 200)} ${res.statusCode} ${Math.round(performance.now() - startedMs)} ms${how}`);
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
  const ws = attachWsBridge(server, { dispatcher: options.runtime.dispatcher, services: options.runtime.services, policy, log });
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
  const hostForUrl = options.hostname.includes(':') ? `[${options.hostname}]` : options.hostname;
  const url = `http://${hostForUrl}:${port}`;

  const waitIdle = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      if (inFlight.size === 0) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      idleWaiters.push(() => (clearTimeout(timer), resolve()));
    });

  let closing: Promise<void> | null = null;
  return {
    url,
    uiUrl: `${url}/?token=${encodeURIComponent(policy.uiToken)}`,
    port,
    get numInFlight() {
      return inFlight.size;
    },
    async drain(graceMs) {
      draining = true;
      // The engine finishes (or, past graceMs, cancels) its work; then the last bytes are written.
      await Promise.all([options.runtime.host.call('drain', { graceMs }).catch(() => null), waitIdle(graceMs)]);
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
