// The Models page's service against a hub on loopback serving a synthetic checkpoint: pull by the
// repo id the page sends (and by the installed slug), plan with size and free space, offline mode,
// importing a checkpoint folder already on disk, building what is downloaded, and cancel.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejection } from '../../src-shared/testing/thrown';
import type { PullProgress } from '../../src-shared/contract/models';
import { createModelManagerPort } from '../app/model-manager-port';
import { createManagerFixture, plentyOfSpace, recordingBuilder, TEST_REPO, type ManagerFixture } from '../models/testing/manager-fixture';
import type { StatfsLike } from '../models/disk-space';
import { FileGrants } from '../access/file-grants';
import { ModelsService } from './models-service';

const SLUG = 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice';
let fx: ManagerFixture;
let dataDir: string;

beforeEach(async () => {
  fx = await createManagerFixture(5);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'studio-models-svc-'));
});
afterEach(async () => {
  await fx.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

function service(opts: { offline?: boolean; statfs?: StatfsLike } = {}): ModelsService {
  const manager = createModelManagerPort(dataDir, { endpoint: fx.hub.endpoint, token: null, offline: opts.offline ?? false, statfs: opts.statfs ?? plentyOfSpace, builder: recordingBuilder(fx.builds), retryDelayMs: 1, env: {} });
  // The data folder stands for the granted imports folder: checkpoint folders are named inside it.
  const grants = new FileGrants([{ path: dataDir, scope: 'folder', access: 'read' }]);
  return new ModelsService({ modelsDir: path.join(dataDir, 'models'), loadedModel: async () => null, manager, grants });
}

describe('ModelsService with the model manager', () => {
  it('lists known models with the hub repo id the page must send, and pulls by it to ready', async () => {
    const svc = service();
    const known = (await svc.listModels()).find((m) => m.id === SLUG)!;
    expect(known).toMatchObject({ kind: 'known', status: 'not-installed', repo: TEST_REPO });
    const events: PullProgress[] = [];
    const entry = await svc.pullModel(known.repo!, (p) => events.push(p));
    expect(entry).toMatchObject({ id: SLUG, kind: 'installed', status: 'ready', repo: TEST_REPO, localPath: null });
    expect(fx.hub.requestsFor('/resolve/').length).toBe(Object.keys(fx.files).length);
    expect(events.map((e) => e.phase)).toContain('download');
    expect(events.map((e) => e.phase)).toContain('build');
    expect(events.at(-1)?.phase).toBe('done');
  });

  it('accepts the internal slug too (the old page sent it), mapping it to the repo', async () => {
    const entry = await service().pullModel(SLUG, () => {});
    expect(entry.status).toBe('ready');
    expect(fx.hub.requestsFor('/resolve/').length).toBeGreaterThan(0);
  });

  it('plans a pull before it starts: download size, build size, free space, and refuses a full disk', async () => {
    const plan = await service().planPull(TEST_REPO);
    expect(plan).toMatchObject({ kind: 'hub', target: TEST_REPO, id: SLUG, status: null, offline: false, blockedReason: null });
    expect(plan.downloadBytes).toBe(2_520_000_000); // known-models.json's size
    expect(plan.buildBytes).toBe(2 * 2_520_000_000);
    expect(plan.freeBytes).toBe(1_000_000_000 * 4096);

    const tiny: StatfsLike = async () => ({ bavail: 1000, bsize: 4096 });
    const full = service({ statfs: tiny });
    expect((await full.planPull(TEST_REPO)).blockedReason).toMatch(/only 4\.10 MB is free/);
    const err = await rejection(full.pullModel(TEST_REPO, () => {}));
    expect(err.code).toBe('disk-full');
    expect(fx.hub.requests).toHaveLength(0);
  });

  it('offline: reports the state, blocks the hub pull without a request and names the fix', async () => {
    const svc = service({ offline: true });
    expect((await svc.modelsState()).offline).toBe(true);
    const plan = await svc.planPull(TEST_REPO);
    expect(plan.blockedReason).toMatch(/offline mode is on \(STUDIO_OFFLINE=1/);
    const err = await rejection(svc.pullModel(TEST_REPO, () => {}));
    expect(err.message).toMatch(/import a checkpoint folder/);
    expect(fx.hub.requests).toHaveLength(0);
  });

  it('imports a checkpoint folder already on disk (offline too), and Build turns a downloaded model ready', async () => {
    const folder = path.join(dataDir, 'my-checkpoint');
    for (const [rel, bytes] of Object.entries(fx.files)) {
      await mkdir(path.dirname(path.join(folder, rel)), { recursive: true });
      await writeFile(path.join(folder, rel), bytes);
    }
    const svc = service({ offline: true });
    const plan = await svc.planPull(folder);
    expect(plan).toMatchObject({ kind: 'local', downloadBytes: 0, blockedReason: null });
    const downloaded = await svc.pullModel(folder, () => {}, { build: false });
    expect(downloaded).toMatchObject({ kind: 'installed', status: 'downloaded', localPath: folder, repo: null });
    expect(fx.builds).toHaveLength(0);
    // Build: pull the installed id again; it registers nothing new and builds the graphs.
    const built = await svc.pullModel(downloaded.id, () => {});
    expect(built.status).toBe('ready');
    expect(fx.builds).toHaveLength(1);
    expect(fx.builds[0].checkpointDir).toBe(folder);

    // the list says what the imported folder speaks, read from its config.json (tts_model_type)
    const listed = (await svc.listModels()).find((e) => e.id === downloaded.id);
    expect(listed?.modelType).toBe('custom_voice');

    const bad = await rejection(svc.pullModel(path.join(dataDir, 'nope'), () => {}));
    expect(bad.code).toBe('not-found');
  });

  it('cancels a running pull; a second pull resumes to ready', async () => {
    fx.hub.bodyPieceBytes = 1024;
    const svc = service();
    let cancelled: Promise<boolean> | null = null;
    const err = await rejection(
      svc.pullModel(TEST_REPO, (p) => {
        if (p.phase === 'download' && p.numBytesDone > 0 && !cancelled) cancelled = svc.cancelPull(SLUG);
      }),
    );
    expect(await cancelled).toBe(true);
    expect(err.code).toBe('cancelled');
    expect((await svc.modelsState()).pulling).toEqual([]);
    expect((await svc.pullModel(TEST_REPO, () => {})).status).toBe('ready');
  });
});
