/**
 * Test harness: the headless server on a port over a fake engine host (FakeHostProcess), for tests of
 * the server itself and of what `studio serve` prints. Every stack and server a test starts here is
 * closed after that test. For a real engine host with the tiny model, see serve-tiny.ts.
 */
import { afterEach } from 'vitest';
import { createStudioStack, type StudioStack } from '../../app/studio-stack';
import { FakeHostProcess } from '../../engine-client/testing/fake-host-process';
import { tempDirs } from '../../platform/testing/temp-dirs';
import { startHeadlessServer, type HeadlessServer } from '../headless-server';

export interface FakeHostServerOptions {
  /** Default: a FakeHostProcess with its default answers. */
  spawnHost?: () => FakeHostProcess;
  version?: string;
  hostname?: string;
  token?: string;
  rendererDir?: string;
  log?: (message: string) => void;
}

export function fakeHostServers(dataDirPrefix: string): { stack(options?: FakeHostServerOptions): StudioStack; start(options?: FakeHostServerOptions): Promise<HeadlessServer> } {
  const dataDir = tempDirs(dataDirPrefix);
  let stack: StudioStack | null = null;
  let server: HeadlessServer | null = null;
  afterEach(async () => {
    await server?.close();
    await stack?.dispose();
    server = null;
    stack = null;
  });
  const newStack = (o: FakeHostServerOptions = {}) =>
    (stack = createStudioStack({ hostKind: 'headless', version: o.version ?? 'test', userDataDir: dataDir(), spawnHost: o.spawnHost ?? (() => new FakeHostProcess(1)), log: o.log ?? (() => {}) }));
  return {
    stack: newStack,
    async start(o = {}) {
      const r = newStack(o);
      await r.host.start();
      server = await startHeadlessServer({ stack: r, port: 0, hostname: o.hostname ?? '127.0.0.1', rendererDir: o.rendererDir ?? null, bearerToken: o.token, log: o.log ?? (() => {}) });
      return server;
    },
  };
}
