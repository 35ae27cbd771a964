// The desktop channels through the contract: on the headless host (no desktop port) they answer
// 'unsupported', so no remote client can open a dialog or name a path; in the app they reach the port.
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { Dispatcher } from '../api/dispatcher';
import { createInMemoryBridge } from '../api/testing/in-memory-bridge';
import { StudioServices, type DesktopPort } from './studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';

const host: EngineHostApi = { onEvent: () => () => {}, call: (async () => ({})) as EngineHostApi['call'] };
const appInfo = () => ({ version: 't', hostKind: 'headless' as const, platform: 'linux', userDataDir: '/nonexistent', syntheticModel: true });

function bridgeWith(desktop?: DesktopPort) {
  const services = new StudioServices({ host, appInfo, desktop });
  return createInMemoryBridge(new Dispatcher(services.handlers, { warn: () => {} }), services);
}

describe('desktop channels', () => {
  it('answer unsupported without a desktop port', async () => {
    const bridge = bridgeWith();
    for (const [channel, request] of [[CHANNELS.showOpenProject, {}], [CHANNELS.showSaveProject, { suggestedName: 'x' }], [CHANNELS.showImportAudio, {}], [CHANNELS.showOpenDocument, {}]] as const) {
      const reply = await bridge.invoke(channel, request as never);
      expect(reply.ok ? 'ok' : reply.error.code, channel).toBe('unsupported');
    }
  });

  it('forward to the desktop port and validate the request', async () => {
    const calls: string[] = [];
    const bridge = bridgeWith({
      showOpenProject: async () => (calls.push('open'), { path: '/p.studio.json' }),
      showSaveProject: async (name) => (calls.push(`save ${name}`), { path: null }),
      showImportAudio: async () => (calls.push('import'), { imported: [] }),
      showOpenDocument: async () => (calls.push('document'), { path: null }),
    });
    expect(await bridge.invoke(CHANNELS.showOpenProject, {})).toEqual({ ok: true, value: { path: '/p.studio.json' } });
    expect(await bridge.invoke(CHANNELS.showSaveProject, { suggestedName: 'Talk' })).toEqual({ ok: true, value: { path: null } });
    expect(await bridge.invoke(CHANNELS.showImportAudio, {})).toEqual({ ok: true, value: { imported: [] } });
    expect(await bridge.invoke(CHANNELS.showOpenDocument, {})).toEqual({ ok: true, value: { path: null } });
    const bad = await bridge.invoke(CHANNELS.showSaveProject, { suggestedName: '', extra: 1 } as never);
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid-argument');
    expect(calls).toEqual(['open', 'save Talk', 'import', 'document']);
  });
});
