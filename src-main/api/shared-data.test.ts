/**
 * Who may change what every client shares, over the in-memory contract: a remote (client-role)
 * caller may read the library and add to it, but not delete, rename or overwrite clips and projects;
 * a request's audio is saved by id only by the caller that made it; planning a model pull is admin
 * only and names folders inside the file grants only. The local (admin) session keeps every power.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import { StudioError } from '../../src-shared/errors';
import type { ClipRecord } from '../../src-shared/contract/library';
import { newClip } from '../library/testing/new-clip';
import type { ProjectDocument } from '../../src-shared/contract/projects';
import type { PullPlan } from '../../src-shared/contract/models';
import type { EngineStatus, ModelInfo, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { FileGrants } from '../access/file-grants';
import type { ModelManagerPort } from '../services/models-service';
import { StudioServices } from '../services/studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { Dispatcher } from './dispatcher';
import { createInMemoryBridge } from './testing/in-memory-bridge';

const FORBIDDEN = /studio's own window on this machine only/;

/** A model started from a folder (`--model <folder>`): its id and path are that folder. */
const MODEL_DIR = path.join(os.tmpdir(), 'secret-place', 'my-checkpoint');
const MODEL = { id: MODEL_DIR, displayName: 'my-checkpoint', path: MODEL_DIR, kind: 'custom_voice', size: '0.6B', synthetic: false, voices: [], languages: [], sampleRateHz: 24000, modelHash: 'h' } as unknown as ModelInfo;

/** A fake engine host that answers synthesize with 4 samples, and status and modelInfo with MODEL. */
let statusListener: ((event: string, payload: unknown) => void) | null = null;
const host: EngineHostApi = {
  onEvent: (l) => ((statusListener = l), () => {}),
  call: (async (method: string, args: unknown) => {
    if (method === 'modelInfo') return MODEL;
    if (method === 'status') return { state: 'ready', model: MODEL } as unknown as EngineStatus;
    if (method !== 'synthesize') throw new StudioError('unsupported', `fake host has no ${method}`);
    const req = args as SynthesisRequest;
    return { requestId: req.requestId, sampleRateHz: 24000, numSamples: 4, pcm: new Float32Array([0.1, 0.2, 0.3, 0.4]) } as unknown as SynthesisResult;
  }) as EngineHostApi['call'],
};

function setup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-shared-'));
  const importsDir = path.join(dataDir, 'imports');
  mkdirSync(path.join(importsDir, 'granted-ckpt'), { recursive: true });
  const planned: string[] = [];
  const manager: ModelManagerPort = {
    plan: async (target) => {
      planned.push(target);
      return { target, kind: 'local', id: 'local--x', status: null, downloadBytes: 0, buildBytes: 0, freeBytes: null, offline: false, blockedReason: null } satisfies PullPlan;
    },
    pull: async () => ({ id: 'local--x' }),
    state: async () => ({ offline: false, endpoint: '', modelsDir: '', freeBytes: null }),
    verify: async () => ({ ok: true, problems: [] }),
    remove: async () => {},
  };
  const grants = new FileGrants([
    { path: path.join(dataDir, 'projects'), scope: 'folder', access: 'write' },
    { path: importsDir, scope: 'folder', access: 'read' },
  ]);
  const services = new StudioServices({
    host,
    grants,
    modelManager: manager,
    appInfo: () => ({ version: 't', hostKind: 'headless', platform: 'linux', userDataDir: dataDir, syntheticModel: true }),
  });
  const dispatcher = new Dispatcher(services.handlers, { warn: () => {} });
  return {
    dataDir,
    importsDir,
    planned,
    local: createInMemoryBridge(dispatcher, services, 'local-window', 'admin'),
    otherLocal: createInMemoryBridge(dispatcher, services, 'other-window', 'admin'),
    remote: createInMemoryBridge(dispatcher, services, 'remote-socket', 'client'),
  };
}


function project(name: string): ProjectDocument {
  return {
    schemaVersion: 1,
    id: '0123456789abcdef',
    name,
    editor: { text: 'hi', inputFormat: 'text' },
    voice: { modelId: null, voice: 'ryan', language: 'auto', seed: 7, params: null, instruct: '', voiceDescription: '' },
    baseClipId: null,
    turns: [],
  };
}

function valueOf<T>(reply: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value;
}

const synth = (requestId: string): SynthesisRequest => ({ requestId, input: 'hello', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 1 });

describe('the shared library and projects', () => {
  it("refuses a remote client's delete, rename and project overwrite with a clear error; the local session still can", async () => {
    const { local, remote } = setup();
    const clip = valueOf(await local.invoke(CHANNELS.saveClip, { clip: newClip({ title: 'Mine', input: 'Hello there' }), pcm: new Float32Array([0.5, 0.5]) }));
    const saved = valueOf(await local.invoke(CHANNELS.saveProject, { project: project('Local show') }));

    for (const [channel, payload] of [
      [CHANNELS.deleteClip, { id: clip.id }],
      [CHANNELS.updateClip, { id: clip.id, title: 'Renamed by a stranger' }],
      [CHANNELS.saveProject, { project: project('Overwritten'), path: saved.path }],
      [CHANNELS.saveProject, { project: project('Overwritten') }], // its default path is the local project's file
      [CHANNELS.autosave, { project: project('Overwritten'), path: null }],
      [CHANNELS.discardRecovery, {}],
    ] as const) {
      const reply = await remote.invoke(channel, payload as never);
      expect(reply, channel).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(FORBIDDEN) } });
    }
    // Nothing changed, and a remote client may still read the library and add to it.
    expect(valueOf(await remote.invoke(CHANNELS.getClip, { id: clip.id })).title).toBe('Mine');
    expect(valueOf(await remote.invoke(CHANNELS.openProject, { path: saved.path })).project.name).toBe('Local show');
    expect(valueOf(await remote.invoke(CHANNELS.saveClip, { clip: newClip({ title: 'Theirs', input: 'Hello there' }), pcm: new Float32Array([0.25]) })).title).toBe('Theirs');

    // The local session keeps every power.
    expect(valueOf(await local.invoke(CHANNELS.updateClip, { id: clip.id, title: 'Renamed' })).title).toBe('Renamed');
    expect(valueOf(await local.invoke(CHANNELS.saveProject, { project: project('Local show v2'), path: saved.path })).path).toBe(saved.path);
    expect(valueOf(await local.invoke(CHANNELS.deleteClip, { id: clip.id }))).toEqual({ deleted: true });
  });

  it('saves a request’s audio by its id only for the caller that made the request', async () => {
    const { local, otherLocal, remote } = setup();
    valueOf(await local.invoke(CHANNELS.synthesize, synth('req-local')));
    for (const stranger of [otherLocal, remote]) {
      const reply = await stranger.invoke(CHANNELS.saveClip, { clip: newClip({ title: 'Copied', input: 'Hello there' }), fromRequestId: 'req-local' });
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringMatching(/'req-local' is not one/) } });
    }
    const own: ClipRecord = valueOf(await local.invoke(CHANNELS.saveClip, { clip: newClip({ title: 'Mine', input: 'Hello there' }), fromRequestId: 'req-local' }));
    expect(own.numSamples).toBe(4);
    const listed = valueOf(await local.invoke(CHANNELS.listClips, {}));
    expect(listed.map((c) => c.title)).toEqual(['Mine']);
  });
});

describe('planning a model pull', () => {
  it('is refused to a remote client before anything is looked at', async () => {
    const { remote, planned, importsDir } = setup();
    const reply = await remote.invoke(CHANNELS.planPull, { modelId: path.join(importsDir, 'granted-ckpt') });
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(FORBIDDEN) } });
    expect(planned).toEqual([]);
  });

  it('names folders inside the grants only, and refuses others alike whether or not they exist', async () => {
    const { local, planned, importsDir, dataDir } = setup();
    const refusals: string[] = [];
    for (const folder of [os.homedir(), '/etc', path.join(dataDir, 'no-such-folder'), '/definitely/not/here', 'file:///etc', '../..', '~/models']) {
      const reply = await local.invoke(CHANNELS.planPull, { modelId: folder });
      expect(reply, folder).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      if (!reply.ok) refusals.push(reply.error.message);
    }
    expect(new Set(refusals).size).toBe(1); // one message: it says nothing about the folder
    expect(refusals[0]).toMatch(/imports\//);
    expect(planned).toEqual([]);
    const granted = path.join(importsDir, 'granted-ckpt');
    expect(valueOf(await local.invoke(CHANNELS.planPull, { modelId: granted })).target).toBe(granted);
    // Hub repo ids and aliases are not folders: they go through.
    expect(valueOf(await local.invoke(CHANNELS.planPull, { modelId: 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice' })).target).toBe('Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice');
    expect(planned).toEqual([granted, 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice']);
  });
});

describe('server paths', () => {
  it('are shown to the local session and never to a remote client', async () => {
    const { local, remote, dataDir } = setup();
    const remoteEvents: unknown[] = [];
    remote.on(EVENTS.onDidChangeEngineStatus, (s) => remoteEvents.push(s));
    statusListener!(EVENTS.onDidChangeEngineStatus, { state: 'ready', model: MODEL });
    const seen = JSON.stringify([
      valueOf(await remote.invoke(CHANNELS.info, {})),
      valueOf(await remote.invoke(CHANNELS.modelInfo, {})),
      valueOf(await remote.invoke(CHANNELS.engineStatus, {})),
      valueOf(await remote.invoke(CHANNELS.listModels, {})),
      valueOf(await remote.invoke(CHANNELS.modelsState, {})),
    ]);
    await new Promise((r) => setTimeout(r, 0));
    for (const secret of [dataDir, 'secret-place']) expect(`${seen}${JSON.stringify(remoteEvents)}`).not.toContain(secret);
    expect(remoteEvents).toHaveLength(1);
    expect(valueOf(await remote.invoke(CHANNELS.modelInfo, {}))!.id).toMatch(/^local--my-checkpoint-[0-9a-f]{8}$/);
    // The local window still sees where things are.
    expect(valueOf(await local.invoke(CHANNELS.info, {})).userDataDir).toBe(dataDir);
    expect(valueOf(await local.invoke(CHANNELS.modelInfo, {}))!.path).toBe(MODEL_DIR);
  });
});
