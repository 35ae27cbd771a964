// Dialog-granted paths honoured and others refused, end to end through the services: the desktop's
// dialogs and the project service share one FileGrants (as main.ts wires them through the stack),
// so a project the user picked outside the data folder opens and saves, and its neighbour does not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { Dispatcher } from '../api/dispatcher';
import { createInMemoryBridge } from '../api/testing/in-memory-bridge';
import { FileGrants } from '../access/file-grants';
import { StudioServices } from '../services/studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { DesktopService } from './desktop-service';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const project = {
  schemaVersion: 1 as const, id: '0123456789abcdef', name: 'Outside', editor: { text: 'hi', inputFormat: 'text' as const },
  voice: { modelId: null, voice: 'ryan', language: 'english', seed: 1, params: null, instruct: '', voiceDescription: '' },
  baseClipId: null, turns: [],
};

describe('dialog grants through the services', () => {
  it('opens and saves the project picked in the dialog, refuses the one beside it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'dialog-grants-'));
    roots.push(root);
    const data = path.join(root, 'data');
    const home = path.join(root, 'home');
    mkdirSync(home, { recursive: true });
    const picked = path.join(home, 'show.studio.json');
    const beside = path.join(home, 'other.studio.json');
    writeFileSync(picked, JSON.stringify(project));
    writeFileSync(beside, JSON.stringify(project));

    const answers: string[][] = [];
    const grants = new FileGrants([{ path: path.join(data, 'projects'), scope: 'folder', access: 'write' }]);
    const desktop = new DesktopService({ dialogs: { showOpen: async () => answers.shift() ?? [], showSave: async () => null }, grants, dataDir: data });
    const host: EngineHostApi = { onEvent: () => () => {}, call: (async () => ({})) as EngineHostApi['call'] };
    const services = new StudioServices({ host, grants, desktop, appInfo: () => ({ version: 't', hostKind: 'electron', platform: 'linux', userDataDir: data, syntheticModel: true }) });
    const bridge = createInMemoryBridge(new Dispatcher(services.handlers, { warn: () => {} }), services);

    const before = await bridge.invoke(CHANNELS.openProject, { path: picked });
    expect(before.ok ? 'ok' : before.error.code).toBe('forbidden');

    answers.push([picked]);
    expect(await bridge.invoke(CHANNELS.showOpenProject, {})).toEqual({ ok: true, value: { path: picked } });
    const opened = await bridge.invoke(CHANNELS.openProject, { path: picked });
    expect(opened.ok && opened.value.project.name).toBe('Outside');
    const saved = await bridge.invoke(CHANNELS.saveProject, { project: { ...project, name: 'Saved back' }, path: picked });
    expect(saved.ok).toBe(true);

    for (const [channel, request] of [[CHANNELS.openProject, { path: beside }], [CHANNELS.saveProject, { project, path: beside }]] as const) {
      const refused = await bridge.invoke(channel, request as never);
      expect(refused.ok ? 'ok' : refused.error.code, channel).toBe('forbidden');
    }
  });
});
