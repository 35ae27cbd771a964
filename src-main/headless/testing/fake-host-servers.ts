/**
 * Test harness: the headless server on a port over a fake engine host (FakeHostProcess), for tests of
 * the server itself and of what `studio serve` prints. Every runtime and server a test starts here is
 * closed after that test. For a real engine host with the tiny model, see serve-tiny.ts.
 */
import { afterEach } from 'vitest';
import { createStudioRuntime, type StudioRuntime } from '../../app/studio-runtime';
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

export function fakeHostServers(dataDirPrefix: string): { runtime(options?: FakeHostServerOptions): StudioRuntime; start(options?: FakeHostServerOptions): Promise<HeadlessServer> } {
  const dataDir = tempDirs(dataDirPrefix);
  let runtime: StudioRuntime | null = null;
  let server: HeadlessServer | null = null;
  afterEach(async () => {
    await server?.close();
    await runtime?.dispose();
    server = null;
    runtime = null;
  });
  const newRuntime = (o: FakeHostServerOptions = {}) =>
    (runtime = createStudioRuntime({ hostKind: 'headless', version: o.version ?? 'test', userDataDir: dataDir(), spawnHost: o.spawnHost ?? (() => new FakeHostProcess(1)), log: o.log ?? (() => {}) }));
  return {
    runtime: newRuntime,
    async start(o = {}) {
      const r = newRuntime(o);
      await r.host.start();
      server = await startHeadlessServer({ runtime: r, port: 0, hostname: o.hostname ?? '127.0.0.1', rendererDir: o.rendererDir ?? null, bearerToken: o.token, log: o.log ?? (() => {}) });
      return server;
    },
  };
}
