/**
 * Serves the built renderer (out/renderer) over HTTP: index.html for '/', files by path with a
 * content type, no directory escapes, and the same strict Content-Security-Policy as the app.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob: data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Answers a GET for a renderer file at the decoded `urlPath`; returns false when it is not a file (caller 404s). */
export async function serveStatic(rootDir: string, urlPath: string, res: ServerResponse): Promise<boolean> {
  const relative = urlPath === '/' ? 'index.html' : urlPath.replace(/^\/+/, '');
  const filePath = path.resolve(rootDir, relative);
  if (!filePath.startsWith(path.resolve(rootDir) + path.sep)) return false;
  const stat = await fs.stat(filePath).catch(() => null);
  if (!stat || !stat.isFile()) return false;
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(filePath)] ?? 'application/octet-stream',
    'content-length': stat.size,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  createReadStream(filePath).pipe(res);
  return true;
}
