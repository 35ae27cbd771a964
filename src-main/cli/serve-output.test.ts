/**
 * What `studio serve` prints at start, checked against a running headless server (fake engine
 * host): every URL printed works as printed (the sign-in link signs in; the API base answers its
 * routes), including for a --host 0.0.0.0 bind, and no bare address is offered as a link.
 */
import { describe, expect, it } from 'vitest';
import { FakeHostProcess } from '../engine-client/testing/fake-host-process';
import type { HeadlessServer } from '../headless/headless-server';
import { fakeHostServers } from '../headless/testing/fake-host-servers';
import { startupLines } from './serve-command';

const servers = fakeHostServers('studio-out-');

function serve(hostname: string, token?: string): Promise<HeadlessServer> {
  return servers.start({ hostname, token, version: 't', spawnHost: () => new FakeHostProcess(1, { modelInfo: () => ({ id: 'embedded:tiny' }) }) });
}

const urlsIn = (lines: string[]) => lines.flatMap((l) => l.match(/https?:\/\/\S+/g) ?? []);

describe('studio serve start-up output', () => {
  for (const [hostname, token] of [
    ['127.0.0.1', undefined],
    ['0.0.0.0', 'the-token'],
  ] as const) {
    it(`prints only URLs that work (--host ${hostname})`, async () => {
      const s = await serve(hostname, token);
      const lines = startupLines(s, { userToken: token, uiBuilt: true });
      const urls = urlsIn(lines);
      expect(urls.length).toBeGreaterThanOrEqual(2);
      const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      for (const url of urls) {
        if (url.includes('?token=')) {
          expect((await fetch(url, { redirect: 'manual' })).status, url).toBe(303);
        } else {
          expect(url, 'only the API base is printed besides the sign-in link').toMatch(/\/v1$/);
          expect((await fetch(`${url}/models`, { headers: auth })).status, url).toBe(200);
        }
      }
      // The listening line names the address without offering it as a link.
      expect(lines[0]).not.toMatch(/https?:\/\//);
    });
  }

  it('tells programs the Bearer token only when the studio made it up', async () => {
    const s = await serve('127.0.0.1');
    expect(startupLines(s, { uiBuilt: true }).join('\n')).toContain(`Authorization: Bearer ${s.token}`);
    expect(startupLines(s, { userToken: 'mine', uiBuilt: true }).join('\n')).not.toContain(s.token);
  });
});
