/**
 * What `studio serve` prints at start, checked against a running headless server (fake engine
 * host): every URL printed works as printed (the sign-in link signs in; the API base answers its
 * routes), including for a --host 0.0.0.0 bind, and no bare address is offered as a link.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStudioRuntime, type StudioRuntime } from '../app/studio-runtime';
import { FakeHostProcess } from '../engine-client/testing/fake-host-process';
import { startHeadlessServer, type HeadlessServer } from '../headless/headless-server';
import { startupLines } from './serve-command';

let runtime: StudioRuntime | null = null;
let server: HeadlessServer | null = null;

afterEach(async () => {
  await server?.close();
  await runtime?.dispose();
  server = null;
  runtime = null;
});

async function serve(hostname: string, token?: string): Promise<HeadlessServer> {
  runtime = createStudioRuntime({
    hostKind: 'headless',
    version: 't',
    userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-out-')),
    spawnHost: () => new FakeHostProcess(1, { modelInfo: () => ({ id: 'embedded:tiny' }) }),
    log: () => {},
  });
  await runtime.host.start();
  server = await startHeadlessServer({ runtime, port: 0, hostname, rendererDir: null, bearerToken: token, log: () => {} });
  return server;
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
