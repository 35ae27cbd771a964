// Pulling from a hub-compatible server: full pull, pinned commit, resume after a dropped connection, progress.
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { PullProgress, StudioModelManifest } from './model-types';
import { createManagerFixture, TEST_REPO, type ManagerFixture } from './testing/manager-fixture';

let fx: ManagerFixture;
beforeEach(async () => {
  fx = await createManagerFixture();
});
afterEach(async () => fx.dispose());

async function readManifest(id: string): Promise<StudioModelManifest> {
  return JSON.parse(await readFile(path.join(fx.rootDir, id, 'studio-model.json'), 'utf8'));
}

async function expectCheckpointIdentical(checkpointDir: string): Promise<void> {
  for (const [rel, content] of Object.entries(fx.files)) {
    const onDisk = await readFile(path.join(checkpointDir, rel));
    expect(Buffer.compare(onDisk, Buffer.from(content)), rel).toBe(0);
  }
}

describe('ModelManager.pull from the hub', () => {
  it('downloads every file byte-identical, pins the commit sha in studio-model.json and builds the graphs', async () => {
    const events: PullProgress[] = [];
    const entry = await fx.manager().pull(TEST_REPO, { onProgress: (p) => events.push(p) });

    expect(entry.id).toBe('Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice');
    expect(entry.status).toBe('ready');
    expect(entry.knownName).toBe('Qwen3-TTS 0.6B CustomVoice');
    await expectCheckpointIdentical(entry.checkpointDir);

    const manifest = await readManifest(entry.id);
    expect(manifest.source).toEqual({ kind: 'hub', repo: TEST_REPO, revision: 'main', commitSha: fx.commitSha, endpoint: fx.hub.endpoint });
    expect(manifest.files.map((f) => f.path).sort()).toEqual(Object.keys(fx.files).sort());
    expect(manifest.build?.files.map((f) => f.path)).toEqual(['manifest.json', 'talker.onnx']);

    // Files are fetched by the pinned sha, not by the branch name, so a moving branch cannot mix commits.
    const resolves = fx.hub.requestsFor('/resolve/');
    expect(resolves).toHaveLength(Object.keys(fx.files).length);
    for (const r of resolves) expect(r.url).toContain(`/resolve/${fx.commitSha}/`);
    // LFS files (the two .safetensors) go through the redirect to the CDN path.
    expect(fx.hub.requestsFor('/lfs-cdn/')).toHaveLength(2);
    // 9 files at a page size of 4, plus 2 directory entries: 11 entries → 3 tree pages.
    expect(fx.hub.requestsFor('/tree/')).toHaveLength(3);

    expect(fx.builds).toHaveLength(1);
    expect(fx.builds[0].checkpointDir).toBe(entry.checkpointDir);
    expect(fx.builds[0].dtype).toBe('fp32');
    expect(await fx.manager().resolve(TEST_REPO)).toBe(entry.buildDir);

    const totalBytes = Object.values(fx.files).reduce((s, f) => s + f.length, 0);
    const lastDownload = events.filter((e) => e.phase === 'downloading').at(-1)!;
    expect(lastDownload.receivedBytes).toBe(totalBytes);
    expect(lastDownload.numFilesDone).toBe(Object.keys(fx.files).length);
    const buildFractions = events.filter((e) => e.phase === 'building').map((e) => e.buildFraction);
    expect(buildFractions).toEqual([0, 0, 0.5, 1, 1]);
    expect(events.at(-1)?.phase).toBe('done');
  });

  it('downloads nothing and does not rebuild when pulled again at the same commit', async () => {
    await fx.manager().pull(TEST_REPO);
    const numResolvesBefore = fx.hub.requestsFor('/resolve/').length;
    await fx.manager().pull(TEST_REPO);
    expect(fx.hub.requestsFor('/resolve/').length).toBe(numResolvesBefore);
    expect(fx.builds).toHaveLength(1);
  });

  it('accepts a known alias and a pinned commit sha as the revision', async () => {
    const entry = await fx.manager().pull('0.6b-customvoice', { revision: fx.commitSha, skipBuild: true });
    expect(entry.status).toBe('downloaded');
    const manifest = await readManifest(entry.id);
    expect(manifest.source.kind === 'hub' && manifest.source.revision).toBe(fx.commitSha);
    expect(fx.builds).toHaveLength(0);
  });

  it('keeps the partial file when the connection drops and resumes it later with a Range request', async () => {
    fx.hub.dropAfter('model.safetensors', 100_000);
    const manager = fx.manager({ numRetries: 0 });
    const err = await manager.pull(TEST_REPO).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).code).toBe('network');
    expect((err as StudioError).message).toMatch(/model\.safetensors.*pull again to resume/);

    const checkpointDir = path.join(fx.rootDir, 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', 'checkpoint');
    expect((await stat(path.join(checkpointDir, 'model.safetensors.part'))).size).toBe(100_000);
    const manifest = await readManifest('Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice');
    expect(manifest.status).toBe('downloading');
    expect(manifest.files.map((f) => f.path)).not.toContain('model.safetensors');
    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'model-missing' });

    const numResolvesBefore = fx.hub.requestsFor('/resolve/').length;
    await manager.pull(TEST_REPO);
    // Only the broken file is fetched again, and from where it stopped.
    expect(fx.hub.requestsFor('/resolve/').length - numResolvesBefore).toBe(1);
    const cdn = fx.hub.requestsFor('/lfs-cdn/').filter((r) => r.url.includes('model.safetensors') && !r.url.includes('speech_tokenizer'));
    expect(cdn.map((r) => r.range)).toEqual([null, 'bytes=100000-']);
    await expectCheckpointIdentical(checkpointDir);
    expect((await readdir(checkpointDir)).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('resumes a dropped file by itself within one pull when retries are allowed', async () => {
    fx.hub.dropAfter('speech_tokenizer/model.safetensors', 50_000, 2);
    const events: PullProgress[] = [];
    const entry = await fx.manager({ numRetries: 2 }).pull(TEST_REPO, { onProgress: (p) => events.push(p) });
    await expectCheckpointIdentical(entry.checkpointDir);
    const ranges = fx.hub.requestsFor('/lfs-cdn/').filter((r) => r.url.includes('speech_tokenizer')).map((r) => r.range);
    // drop at 50,000, resume drops again at 50,000 + 50,000, then the rest.
    expect(ranges).toEqual([null, 'bytes=50000-', 'bytes=100000-']);
    const resumed = events.find((e) => e.file?.path === 'speech_tokenizer/model.safetensors' && e.file.resumedFromBytes === 100_000);
    expect(resumed).toBeDefined();
  });

  it('starts over when a partial file is longer than the file on the hub', async () => {
    const manager = fx.manager({ numRetries: 0 });
    fx.hub.dropAfter('model.safetensors', 10);
    await manager.pull(TEST_REPO).catch(() => undefined);
    const partPath = path.join(fx.rootDir, 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', 'checkpoint', 'model.safetensors.part');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(partPath, Buffer.alloc(400_000));
    const entry = await manager.pull(TEST_REPO);
    await expectCheckpointIdentical(entry.checkpointDir);
  });

  it('stops with "cancelled" when the signal aborts mid-file and resumes from the partial file next time', async () => {
    const controller = new AbortController();
    const manager = fx.manager({ numParallelFiles: 1 });
    const err = await manager
      .pull(TEST_REPO, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.file?.path === 'model.safetensors' && p.file.receivedBytes > 0) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'cancelled' });
    const partPath = path.join(fx.rootDir, 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', 'checkpoint', 'model.safetensors.part');
    const partBytes = (await stat(partPath)).size;
    expect(partBytes).toBeGreaterThan(0);
    expect(partBytes).toBeLessThan(fx.files['model.safetensors'].length);

    const entry = await manager.pull(TEST_REPO);
    await expectCheckpointIdentical(entry.checkpointDir);
    const ranges = fx.hub.requestsFor('/lfs-cdn/').filter((r) => r.url.includes('path=model.safetensors')).map((r) => r.range);
    expect(ranges).toEqual([null, `bytes=${partBytes}-`]);
  });
});
