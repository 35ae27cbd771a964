/**
 * The render channels through the contract: a remote client (role 'client') may not start, list or
 * cancel renders, nor set the queue; the studio's own window (admin) renders a document end to end
 * and gets its change events, which never reach a client connected at the same time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import type { RenderJob } from '../../src-shared/contract/render';
import { Dispatcher } from '../api/dispatcher';
import { createInMemoryBridge } from '../api/testing/in-memory-bridge';
import { fakeRenderHost } from '../render/testing/fake-render-host';
import { StudioServices } from './studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-render-channels-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const fake = fakeRenderHost();
const host: EngineHostApi = { onEvent: () => () => {}, call: fake.call as EngineHostApi['call'] };
const services = new StudioServices({ host, appInfo: () => ({ version: 't', hostKind: 'headless', platform: 'linux', userDataDir: dataDir, syntheticModel: true }) });
const dispatcher = new Dispatcher(services.handlers, { warn: () => {} });

describe('render channels', () => {
  it('refuse remote clients', async () => {
    const client = createInMemoryBridge(dispatcher, services, 'remote', 'client');
    const start = { source: { kind: 'text' as const, text: 'Hi.', inputFormat: 'text' as const, title: 't' }, voice: 'ryan', language: 'auto', seed: 1 };
    for (const [channel, request] of [[CHANNELS.startRender, start], [CHANNELS.listRenders, {}], [CHANNELS.cancelRender, { jobId: 'x' }], [CHANNELS.setRenderQueue, { queueUrl: 'redis://evil:6379' }]] as const) {
      const reply = await client.invoke(channel, request as never);
      expect(reply.ok ? 'ok' : reply.error.code, channel).toBe('forbidden');
    }
    client.close();
  });

  it('render for the admin window, with events for admin windows only', async () => {
    const admin = createInMemoryBridge(dispatcher, services, 'window', 'admin');
    const client = createInMemoryBridge(dispatcher, services, 'remote', 'client');
    const adminEvents: RenderJob[] = [];
    const clientEvents: unknown[] = [];
    admin.on(EVENTS.onDidChangeRender, (j) => adminEvents.push(j));
    client.on(EVENTS.onDidChangeRender, (j) => clientEvents.push(j));
    const reply = await admin.invoke(CHANNELS.startRender, { source: { kind: 'text', text: 'One.\n\nTwo.', inputFormat: 'text', title: 'Pair' }, voice: 'ryan', language: 'auto', seed: 1 });
    expect(reply.ok).toBe(true);
    await expect.poll(() => adminEvents.at(-1)?.state).toBe('done');
    expect(adminEvents.at(-1)).toMatchObject({ title: 'Pair', numDone: 2, numParts: 2 });
    expect(clientEvents).toEqual([]);
    const listed = await admin.invoke(CHANNELS.listRenders, {});
    expect(listed.ok && listed.value.map((j) => j.title)).toEqual(['Pair']);
    const bad = await admin.invoke(CHANNELS.setRenderQueue, { queueUrl: 'http://q' });
    expect(bad.ok ? 'ok' : bad.error.message).toMatch(/redis:\/\/ or rediss:\/\//);
    admin.close();
    client.close();
  });
});
