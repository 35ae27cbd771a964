/**
 * Render records on disk: a record is written whole (no temporary file left), read back newest
 * first, a 'running' one comes back 'interrupted' (nothing runs it after a restart), and a folder
 * that is not a render or holds a cut-off record is skipped rather than failing the list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RenderJob } from '../../src-shared/contract/render';
import { RenderJobStore, type RenderRecord } from './render-job-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function record(id: string, createdAtMs: number, state: RenderJob['state']): RenderRecord {
  const job = { id, title: id, state, createdAtMs } as RenderJob;
  return { job, documentPath: `/d/${id}.txt`, settings: { voice: 'ryan', language: 'auto', seed: 1, model: 'm' }, queueUrl: null };
}

describe('RenderJobStore', () => {
  it('reads records back newest first, a running one as interrupted, skipping what is not a record', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-render-store-'));
    dirs.push(dataDir);
    const store = new RenderJobStore(dataDir);
    store.save(record('old', 1, 'done'));
    store.save(record('new', 2, 'running'));
    fs.mkdirSync(path.join(store.rootDir, 'cut-off'));
    fs.writeFileSync(path.join(store.rootDir, 'cut-off', 'render.json'), '{"job":{"id":"cut');
    fs.mkdirSync(path.join(store.rootDir, 'moved'));
    fs.writeFileSync(path.join(store.rootDir, 'moved', 'render.json'), JSON.stringify(record('elsewhere', 3, 'done')));
    fs.writeFileSync(path.join(store.rootDir, 'queue.json'), '{"queueUrl":null}');
    expect(store.loadAll().map((r) => [r.job.id, r.job.state])).toEqual([['new', 'interrupted'], ['old', 'done']]);
    expect(fs.readdirSync(store.jobDir('new'))).toEqual(['render.json']);
  });

  it('lists nothing before the first render', () => {
    expect(new RenderJobStore(path.join(os.tmpdir(), 'studio-no-such-dir-xyz')).loadAll()).toEqual([]);
  });
});
