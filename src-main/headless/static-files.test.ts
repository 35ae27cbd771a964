/**
 * Static renderer serving: brotli/gzip by Accept-Encoding for text types only (with Vary), the
 * bytes decompress to the file, small and binary files go out as they are, q=0 refuses an
 * encoding, and paths outside the renderer folder are still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CONTENT_SECURITY_POLICY, pickEncoding, serveStatic } from './static-files';

const dir = mkdtempSync(path.join(os.tmpdir(), 'studio-static-'));
const js = 'export const x = "' + 'studio '.repeat(2000) + '";\n';
const png = Buffer.alloc(4096, 7);
let server: Server;
let port = 0;

beforeAll(async () => {
  writeFileSync(path.join(dir, 'index.html'), '<html>tiny</html>');
  writeFileSync(path.join(dir, 'app.js'), js);
  writeFileSync(path.join(dir, 'logo.png'), png);
  server = createServer((req, res) => {
    void serveStatic(dir, decodeURIComponent(new URL(req.url!, 'http://x').pathname), res, req.headers['accept-encoding']).then((served) => {
      if (!served) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(urlPath: string, acceptEncoding?: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('pickEncoding', () => {
  it('prefers br, falls back to gzip, honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('serveStatic', () => {
  it('sends JS brotli-compressed with Vary, CSP and a length that matches the body', async () => {
    const r = await get('/app.js', 'gzip, br');
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(js.length / 10);
    expect(brotliDecompressSync(r.body).toString()).toBe(js);
  });

  it('sends gzip when only gzip is accepted, and the plain file when nothing is', async () => {
    const gz = await get('/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(js);
    const plain = await get('/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(js);
  });

  it('leaves binary types and files under 1 KiB uncompressed', async () => {
    const image = await get('/logo.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
    expect(image.body.equals(png)).toBe(true);
    const html = await get('/', 'br');
    expect(html.headers['content-encoding']).toBeUndefined();
    expect(html.body.toString()).toBe('<html>tiny</html>');
  });

  it('still refuses paths outside the folder', async () => {
    expect((await get('/..%2f..%2fetc%2fpasswd', 'br')).status).toBe(404);
    expect((await get('/missing.js', 'br')).status).toBe(404);
  });
});
