/**
 * The headless host's HTTP server: the built renderer, the contract over a WebSocket (/ws),
 * /healthz, and the HTTP API routes (http-api.ts). Bound to loopback unless told otherwise;
 * a non-loopback bind requires a bearer token for the API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StudioError } from '../../src-shared/errors';
import type { StudioRuntime } from '../runtime/studio-runtime';
import { serveStatic } from './static-files';
import { attachWsBridge } from './ws-bridge';
import { createHttpApi } from './http-api';

export interface HeadlessServerOptions {
  runtime: StudioRuntime;
  port: number;
  hostname: string;
  rendererDir: string | null;
  /** Required when hostname is not a loopback address. */
  bearerToken?: string;
  log?: (m: string) => void;
}

export interface HeadlessServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '::1' || hostname.startsWith('127.');
}

export async function startHeadlessServer(options: HeadlessServerOptions): Promise<HeadlessServer> {
  const log = options.log ?? ((m: string) => console.log(m));
  if (!isLoopbackHost(options.hostname) && !options.bearerToken) {
    throw new StudioError(
      'invalid-argument',
      `binding to ${options.hostname} exposes the studio beyond this machine; set a token with --token or STUDIO_TOKEN, or bind to 127.0.0.1`,
      { field: 'host', value: options.hostname },
    );
  }
  const api = createHttpApi({ runtime: options.runtime, bearerToken: options.bearerToken, log });
  const server = http.createServer((req, res) => {
    void (async () => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (pathname === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true }));
        return;
      }
      if (await api.handle(req, res)) return;
      if ((req.method === 'GET' || req.method === 'HEAD') && options.rendererDir && (await serveStatic(options.rendererDir, req, res))) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not-found', message: `no route for ${req.method} ${pathname}`, details: {} } }));
    })().catch((err: unknown) => {
      log(`[http] handler failed: ${(err as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'internal', message: (err as Error).message, details: {} } }));
    });
  });
  server.keepAliveTimeout = 5_000;
  attachWsBridge(server, options.runtime.dispatcher, options.runtime.services, log);
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
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = options.hostname.includes(':') ? `[${options.hostname}]` : options.hostname;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        api.dispose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
