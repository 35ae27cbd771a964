/**
 * Serves the built renderer (out/renderer) over HTTP: index.html for '/', files by path with a
 * content type, no directory escapes, and the same strict Content-Security-Policy as the app.
 * Text-like files (html, js, css, svg, json, wasm) go out brotli- or gzip-compressed when the
 * client accepts it (Vary: Accept-Encoding); compressed bodies are cached by path, size and mtime.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
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

/** Extensions worth compressing; images and woff2 are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.wasm']);
/** Below this a compressed body saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;
/** Brotli quality 9: within a few % of 11 on the renderer's chunks at a fraction of the CPU. */
const BROTLI_QUALITY = 9;

export type StaticEncoding = 'br' | 'gzip';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob: data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const compressedCache = new Map<string, Promise<Buffer>>();

/** The encoding to answer with for an Accept-Encoding header value: br before gzip, q=0 refuses. */
export function pickEncoding(acceptEncoding: string | undefined): StaticEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (enc: string) => accepted.get(enc) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (weightOf('br') > 0) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return null;
}

function compressFile(filePath: string, size: number, mtimeMs: number, encoding: StaticEncoding): Promise<Buffer> {
  const key = `${encoding}:${filePath}:${size}:${mtimeMs}`;
  let body = compressedCache.get(key);
  if (!body) {
    body = fs.readFile(filePath).then((raw) =>
      encoding === 'br'
        ? brotliAsync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
        : gzipAsync(raw, { level: 9 }),
    );
    body.catch(() => compressedCache.delete(key));
    compressedCache.set(key, body);
  }
  return body;
}

/**
 * Answers a GET/HEAD for a renderer file at the decoded `urlPath`; returns false when it is not a
 * file (caller 404s). `acceptEncoding` is the request's Accept-Encoding header.
 */
export async function serveStatic(rootDir: string, urlPath: string, res: ServerResponse, acceptEncoding?: string): Promise<boolean> {
  const relative = urlPath === '/' ? 'index.html' : urlPath.replace(/^\/+/, '');
  const filePath = path.resolve(rootDir, relative);
  if (!filePath.startsWith(path.resolve(rootDir) + path.sep)) return false;
  const stat = await fs.stat(filePath).catch(() => null);
  if (!stat || !stat.isFile()) return false;
  const ext = path.extname(filePath);
  const compressible = COMPRESSIBLE.has(ext);
  const headers: Record<string, string | number> = {
    'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
  if (compressible) headers.vary = 'Accept-Encoding';
  const encoding = compressible && stat.size >= MIN_COMPRESS_BYTES ? pickEncoding(acceptEncoding) : null;
  if (encoding) {
    const body = await compressFile(filePath, stat.size, stat.mtimeMs, encoding).catch(() => null);
    if (!body) return false;
    res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': body.length });
    res.end(body);
    return true;
  }
  res.writeHead(200, { ...headers, 'content-length': stat.size });
  createReadStream(filePath).pipe(res);
  return true;
}
