// Installed models: list with sizes, remove, verify (re-hash), half-built models, local folders.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StudioModelManifest } from './model-types';
import { createManagerFixture, TEST_REPO, type ManagerFixture } from './testing/manager-fixture';
import { makeSyntheticHubFiles } from './testing/synthetic-hub-files';

const MODEL_ID = 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice';
let fx: ManagerFixture;
beforeEach(async () => {
  fx = await createManagerFixture();
});
afterEach(async () => fx.dispose());

const manifestPath = () => path.join(fx.rootDir, MODEL_ID, 'studio-model.json');
const readManifest = async (): Promise<StudioModelManifest> => JSON.parse(await readFile(manifestPath(), 'utf8'));

describe('ModelManager on installed models', () => {
  it('lists installed models with their size on disk and the known models with their status', async () => {
    const manager = fx.manager();
    expect(await manager.list()).toEqual([]);
    await manager.pull(TEST_REPO);
    const [entry] = await manager.list();
    const checkpointBytes = Object.values(fx.files).reduce((s, f) => s + f.length, 0);
    const manifestBytes = (await stat(manifestPath())).size;
    const builtBytes = (await readManifest()).build!.files.reduce((s, f) => s + f.sizeBytes, 0);
    expect(entry.diskSizeBytes).toBe(checkpointBytes + builtBytes + manifestBytes);
    expect(entry.numFiles).toBe(Object.keys(fx.files).length);

    const known = await manager.listKnown();
    expect(known.map((k) => k.alias)).toEqual(['0.6b-customvoice', '1.7b-customvoice', '1.7b-voicedesign', '0.6b-base', '1.7b-base']);
    expect(known.every((k) => k.license === 'Apache-2.0')).toBe(true);
    expect(known.map((k) => k.status)).toEqual(['ready', null, null, null, null]);
  });

  it('removes a model by repo id, alias or id, and says not-found afterwards', async () => {
    const manager = fx.manager();
    await manager.pull(TEST_REPO);
    await manager.remove('0.6b-customvoice');
    await expect(stat(path.join(fx.rootDir, MODEL_ID))).rejects.toThrow();
    expect(await manager.list()).toEqual([]);
    await expect(manager.remove(MODEL_ID)).rejects.toMatchObject({ code: 'not-found' });
    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('verifies every checkpoint and build file, and quarantines one that changed on disk', async () => {
    const manager = fx.manager();
    await manager.pull(TEST_REPO);
    const good = await manager.verify(TEST_REPO);
    expect(good.ok).toBe(true);
    expect(good.numFilesChecked).toBe(Object.keys(fx.files).length + 2);

    const tampered = path.join(fx.rootDir, MODEL_ID, 'checkpoint', 'vocab.json');
    await writeFile(tampered, '{"a":1,"b":0}'); // same length as the original {"a":0,"b":1}, different bytes
    expect((await stat(tampered)).size).toBe(fx.files['vocab.json'].length);
    const bad = await manager.verify(MODEL_ID);
    expect(bad.ok).toBe(false);
    const row = bad.files.find((f) => f.path === 'vocab.json')!;
    expect(row.status).toBe('checksum-mismatch');
    expect(row.quarantinedTo).toContain(path.join('.quarantine', MODEL_ID));
    expect(bad.files.filter((f) => f.status !== 'ok')).toHaveLength(1);
    expect((await readManifest()).status).toBe('downloading');
    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'model-missing' });

    const numResolves = fx.hub.requestsFor('/resolve/').length;
    await manager.pull(TEST_REPO);
    expect(fx.hub.requestsFor('/resolve/').length - numResolves).toBe(1);
    expect((await manager.verify(TEST_REPO)).ok).toBe(true);
  });

  it('reports a missing build file and rebuilds on the next pull', async () => {
    const manager = fx.manager();
    const entry = await manager.pull(TEST_REPO);
    await rm(path.join(entry.buildDir, 'talker.onnx'));
    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'model-invalid' });
    const report = await manager.verify(TEST_REPO);
    expect(report.files.find((f) => f.path === 'talker.onnx')?.status).toBe('missing');
    await manager.pull(TEST_REPO);
    expect(fx.builds).toHaveLength(2);
    expect(await manager.resolve(TEST_REPO)).toBe(entry.buildDir);
  });

  it('never uses a half-built model: a build left at "building" is refused and rebuilt from scratch', async () => {
    const manager = fx.manager();
    await manager.pull(TEST_REPO);
    // What a crash during the build leaves behind: status 'building' and a partial output folder.
    const manifest = await readManifest();
    await writeFile(manifestPath(), JSON.stringify({ ...manifest, status: 'building', build: null }));
    const partialDir = path.join(fx.rootDir, MODEL_ID, 'onnx.partial');
    await mkdir(partialDir, { recursive: true });
    await writeFile(path.join(partialDir, 'junk.onnx'), 'half');

    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'model-invalid', message: expect.stringMatching(/half-built/) });
    await manager.pull(TEST_REPO);
    expect(fx.builds).toHaveLength(2);
    const rebuilt = await readManifest();
    expect(rebuilt.status).toBe('ready');
    expect(rebuilt.build?.files.map((f) => f.path)).toEqual(['manifest.json', 'talker.onnx']);
    await expect(stat(partialDir)).rejects.toThrow();
  });

  it('leaves the model at "downloaded" with no build output when the builder fails', async () => {
    const manager = fx.manager({
      builder: async (req) => {
        await mkdir(req.outDir, { recursive: true });
        await writeFile(path.join(req.outDir, 'half.onnx'), 'x');
        throw new Error('tensor talker.codec_head.weight is missing');
      },
    });
    await expect(manager.pull(TEST_REPO)).rejects.toMatchObject({ message: expect.stringMatching(/building .* failed: tensor talker.codec_head.weight is missing/) });
    expect((await readManifest()).status).toBe('downloaded');
    await expect(stat(path.join(fx.rootDir, MODEL_ID, 'onnx.partial'))).rejects.toThrow();
    await expect(manager.resolve(TEST_REPO)).rejects.toMatchObject({ code: 'model-missing' });
  });

  it('registers a local checkpoint folder in place, builds it and reports a file that changed there', async () => {
    const localDir = await mkdtemp(path.join(os.tmpdir(), 'studio-local-ckpt-'));
    try {
      for (const [rel, content] of Object.entries(makeSyntheticHubFiles({ seed: 3 }))) {
        await mkdir(path.dirname(path.join(localDir, rel)), { recursive: true });
        await writeFile(path.join(localDir, rel), content);
      }
      const manager = fx.manager({ offline: true });
      const entry = await manager.pull(localDir);
      expect(entry.id).toMatch(/^local--studio-local-ckpt-/);
      expect(entry.checkpointDir).toBe(localDir);
      expect(entry.source).toEqual({ kind: 'local', path: localDir });
      expect(fx.builds[0].checkpointDir).toBe(localDir);
      expect(fx.hub.requests).toHaveLength(0);

      await writeFile(path.join(localDir, 'config.json'), '{}');
      const report = await manager.verify(localDir);
      expect(report.files.find((f) => f.path === 'config.json')).toMatchObject({ status: 'size-mismatch', quarantinedTo: null });
      // The user's own folder is reported on, never changed.
      expect(await readFile(path.join(localDir, 'config.json'), 'utf8')).toBe('{}');
    } finally {
      await rm(localDir, { recursive: true, force: true });
    }
  });

  it('rejects a local folder that is not a checkpoint, naming what is missing', async () => {
    const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'studio-empty-'));
    try {
      await expect(fx.manager().pull(emptyDir)).rejects.toMatchObject({
        code: 'model-invalid',
        message: expect.stringMatching(/missing config\.json, model\.safetensors, speech_tokenizer\//),
      });
      await expect(fx.manager().pull('not a repo')).rejects.toMatchObject({ code: 'invalid-argument' });
    } finally {
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});
