// Bad cases of a pull: checksum mismatch (quarantine), 404, token required, offline mode, disk full.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { createManagerFixture, TEST_REPO, type ManagerFixture } from './testing/manager-fixture';
import { makeSyntheticHubFiles } from './testing/synthetic-hub-files';

const MODEL_ID = 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice';
let fx: ManagerFixture;
beforeEach(async () => {
  fx = await createManagerFixture();
});
afterEach(async () => fx.dispose());

async function pullError(promise: Promise<unknown>): Promise<StudioError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StudioError);
  return err as StudioError;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

describe('ModelManager.pull when things go wrong', () => {
  it('moves an LFS file whose sha256 does not match to quarantine and re-downloads it on the next pull', async () => {
    fx.hub.corrupt('model.safetensors', 12_345);
    const manager = fx.manager();
    const err = await pullError(manager.pull(TEST_REPO));
    expect(err.code).toBe('checksum-mismatch');
    expect(err.message).toMatch(/model\.safetensors: sha256 is .* but the hub lists .*pull again to re-download/);

    const checkpointDir = path.join(fx.rootDir, MODEL_ID, 'checkpoint');
    expect(await exists(path.join(checkpointDir, 'model.safetensors'))).toBe(false);
    expect(await exists(path.join(checkpointDir, 'model.safetensors.part'))).toBe(false);
    const quarantined = await readdir(path.join(fx.rootDir, '.quarantine', MODEL_ID));
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatch(/model\.safetensors$/);
    // The quarantined copy is the corrupted one: one byte differs from the original.
    const bad = await readFile(path.join(fx.rootDir, '.quarantine', MODEL_ID, quarantined[0]));
    const numDiffering = bad.reduce((n, b, i) => n + (b !== fx.files['model.safetensors'][i] ? 1 : 0), 0);
    expect(numDiffering).toBe(1);
    // Nothing was built from a bad checkpoint.
    expect(fx.builds).toHaveLength(0);

    const entry = await manager.pull(TEST_REPO);
    expect(entry.status).toBe('ready');
    expect(Buffer.compare(await readFile(path.join(checkpointDir, 'model.safetensors')), Buffer.from(fx.files['model.safetensors']))).toBe(0);
  });

  it('checks small non-LFS files against their git blob sha1', async () => {
    fx.hub.corrupt('config.json', 3);
    const err = await pullError(fx.manager().pull(TEST_REPO));
    expect(err.code).toBe('checksum-mismatch');
    expect(err.message).toMatch(/config\.json: git blob sha1/);
  });

  it('answers not-found for an unknown repo, revision or file', async () => {
    const repoErr = await pullError(fx.manager().pull('Qwen/No-Such-Model'));
    expect(repoErr.code).toBe('not-found');
    expect(repoErr.message).toMatch(/no such repository.*RepoNotFound.*check the repo id/);
    const revErr = await pullError(fx.manager().pull(TEST_REPO, { revision: 'v9' }));
    expect(revErr.code).toBe('not-found');
    expect(revErr.message).toMatch(/no such revision/);
  });

  it('says how to set HF_TOKEN when a gated repo is pulled without a token, and never sends the token to the CDN', async () => {
    const gatedRepo = 'Qwen/Gated-TTS';
    fx.hub.addRepo(gatedRepo, { files: makeSyntheticHubFiles({ seed: 2 }), token: 'hf_right' });

    const noToken = await pullError(fx.manager().pull(gatedRepo));
    expect(noToken.code).toBe('unauthorized');
    expect(noToken.message).toMatch(/needs a token \(HTTP 401 GatedRepo\).*HF_TOKEN=/);
    const wrongToken = await pullError(fx.manager({ token: 'hf_wrong' }).pull(gatedRepo));
    expect(wrongToken.code).toBe('unauthorized');
    expect(wrongToken.message).toMatch(/refused or lacks access \(HTTP 403/);

    const fromEnv = await fx.manager({ token: undefined, env: { HF_TOKEN: 'hf_right' } }).pull(gatedRepo);
    expect(fromEnv.status).toBe('ready');
    const hubRequests = fx.hub.requests.filter((r) => r.url.includes('Gated-TTS') && !r.url.startsWith('/lfs-cdn/'));
    expect(hubRequests.filter((r) => r.authorization === 'Bearer hf_right').length).toBeGreaterThan(0);
    const cdnRequests = fx.hub.requests.filter((r) => r.url.startsWith('/lfs-cdn/') && r.url.includes('Gated-TTS'));
    expect(cdnRequests).toHaveLength(2);
    for (const r of cdnRequests) expect(r.authorization).toBeNull();
  });

  it('never reaches the server in offline mode and names what is missing', async () => {
    const offline = fx.manager({ offline: true });
    const notThere = await pullError(offline.pull(TEST_REPO));
    expect(notThere.code).toBe('model-missing');
    expect(notThere.message).toMatch(/offline mode: .* is not downloaded/);
    expect(fx.hub.requests).toHaveLength(0);

    await fx.manager().pull(TEST_REPO);
    const numRequests = fx.hub.requests.length;
    const entry = await offline.pull(TEST_REPO);
    expect(entry.status).toBe('ready');

    await rm(path.join(fx.rootDir, MODEL_ID, 'checkpoint', 'speech_tokenizer', 'model.safetensors'));
    const incomplete = await pullError(offline.pull(TEST_REPO));
    expect(incomplete.code).toBe('model-missing');
    expect(incomplete.message).toMatch(/incomplete \(files missing or incomplete: speech_tokenizer\/model\.safetensors\)/);
    const otherRevision = await pullError(offline.pull(TEST_REPO, { revision: 'v2' }));
    expect(otherRevision.message).toMatch(/v2 is not on disk, only revision main/);
    expect(fx.hub.requests.length).toBe(numRequests);
  });

  it('refuses to start when statfs reports too little space, before downloading anything', async () => {
    const statfsCalls: string[] = [];
    const manager = fx.manager({
      reserveBytes: 0,
      statfs: async (dir) => {
        statfsCalls.push(dir);
        return { bavail: 10, bsize: 4096 };
      },
    });
    const err = await pullError(manager.pull(TEST_REPO));
    expect(err.code).toBe('disk-full');
    // 40,960 bytes free; the download alone is over 420 KB.
    expect(err.details.freeBytes).toBe(40_960);
    expect(Number(err.details.neededBytes)).toBeGreaterThan(420_000);
    expect(err.message).toMatch(/needs .* but only 41.0 KB is free/);
    expect(statfsCalls).toEqual([path.join(fx.rootDir, MODEL_ID)]);
    expect(fx.hub.requestsFor('/resolve/')).toHaveLength(0);
    expect(await exists(path.join(fx.rootDir, MODEL_ID, 'checkpoint'))).toBe(false);
  });

  it('counts the built graphs in the space check (safetensors bytes × buildSizeFactor)', async () => {
    const totalBytes = Object.values(fx.files).reduce((s, f) => s + f.length, 0);
    const safetensorsBytes = fx.files['model.safetensors'].length + fx.files['speech_tokenizer/model.safetensors'].length;
    let needed = 0;
    const manager = fx.manager({ reserveBytes: 0, buildSizeFactor: 2, statfs: async () => ({ bavail: 0, bsize: 1 }) });
    const err = await pullError(manager.pull(TEST_REPO));
    needed = Number(err.details.neededBytes);
    expect(needed).toBe(totalBytes + 2 * safetensorsBytes);
  });
});
