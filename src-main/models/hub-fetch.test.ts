// The default fetch honours HTTP(S)_PROXY and NO_PROXY (through undici's EnvHttpProxyAgent).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubFetch, proxyUrlFromEnv } from './hub-fetch';
import { FakeHub } from './testing/fake-hub';

let hub: FakeHub;
let proxy: http.Server;
let proxyUrl: string;
const proxied: string[] = [];

beforeAll(async () => {
  hub = await FakeHub.start();
  hub.addRepo('Qwen/Tiny', { files: { 'config.json': new TextEncoder().encode('{}') } });
  // A minimal forward proxy: CONNECT tunnels and absolute-form requests both count.
  proxy = http.createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await hub.dispose();
});

describe('createHubFetch', () => {
  it('goes through HTTP_PROXY when it is set', async () => {
    proxied.length = 0;
    const fetchViaProxy = createHubFetch({ HTTP_PROXY: proxyUrl });
    const res = await fetchViaProxy(`${hub.endpoint}/api/models/Qwen/Tiny/revision/main`, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe('Qwen/Tiny');
    expect(proxied.length).toBeGreaterThan(0);
    expect(proxied[0]).toContain(new URL(hub.endpoint).host);
  });

  it('skips the proxy for hosts listed in NO_PROXY', async () => {
    proxied.length = 0;
    const fetchDirect = createHubFetch({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' });
    const res = await fetchDirect(`${hub.endpoint}/api/models/Qwen/Tiny/revision/main`, {});
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(proxied).toEqual([]);
  });

  it('reads the proxy from HTTPS_PROXY first, then HTTP_PROXY, and none when unset', () => {
    expect(proxyUrlFromEnv({ HTTPS_PROXY: 'http://a:1', HTTP_PROXY: 'http://b:2' })).toBe('http://a:1');
    expect(proxyUrlFromEnv({ http_proxy: 'http://b:2' })).toBe('http://b:2');
    expect(proxyUrlFromEnv({})).toBeNull();
  });
});
