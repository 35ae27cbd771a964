// When no SQLite backend loads (here: an injected better-sqlite3 that throws Node's ABI-mismatch error
// and no node:sqlite), library calls fail with 'unavailable' and the fix, while the rest of the
// studio — ping, projects, the benchmark list — keeps answering through the same contract.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { Dispatcher } from '../api/dispatcher';
import { createInMemoryBridge } from '../api/testing/in-memory-bridge';
import { nodeSqliteLoader } from '../library/open-sqlite';
import { StudioServices } from './studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { tempDirs } from '../platform/testing/temp-dirs';

const ABI_MISMATCH =
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 140.";

const host: EngineHostApi = { onEvent: () => () => {}, call: (async () => ({})) as EngineHostApi['call'] };
const tempDir = tempDirs('lib-unavailable-');

describe('library unavailable', () => {
  it('answers library calls with unavailable + fix and serves everything else', async () => {
    const dataDir = tempDir();
    const services = new StudioServices({
      host,
      appInfo: () => ({ version: 't', hostKind: 'electron', platform: 'linux', userDataDir: dataDir, syntheticModel: true }),
      sqliteLoaders: [
        { name: 'better-sqlite3', load: () => { throw new Error(ABI_MISMATCH); } },
        nodeSqliteLoader(() => undefined),
      ],
    });
    const bridge = createInMemoryBridge(new Dispatcher(services.handlers, { warn: () => {} }), services);

    const clips = await bridge.invoke(CHANNELS.listClips, {});
    expect(clips.ok).toBe(false);
    if (!clips.ok) {
      expect(clips.error.code).toBe('unavailable');
      expect(clips.error.message).toMatch(/better-sqlite3 was compiled against a different Node\.js version \(built for NODE_MODULE_VERSION 115, this runtime needs 140\)/);
      expect(clips.error.message).toMatch(/Fix: /);
    }

    expect((await bridge.invoke(CHANNELS.ping, { message: 'still here' })).ok).toBe(true);
    const runs = await bridge.invoke(CHANNELS.listRuns, {});
    expect(runs).toEqual({ ok: true, value: [] });
    const project = {
      schemaVersion: 1 as const, id: '0123456789abcdef', name: 'Still works', editor: { text: 'hi', inputFormat: 'text' as const },
      voice: { modelId: null, voice: 'ryan', language: 'english', seed: 1, params: null, instruct: '', voiceDescription: '' },
      baseClipId: null, turns: [],
    };
    const saved = await bridge.invoke(CHANNELS.saveProject, { project });
    expect(saved.ok).toBe(true);
    if (saved.ok) expect(saved.value.path.startsWith(path.join(dataDir, 'projects'))).toBe(true);
    bridge.close();
  });
});
