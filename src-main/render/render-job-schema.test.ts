/**
 * Render jobs as untrusted input, without Redis: a well-formed job passes unchanged; bad fields are
 * named; output folders resolve through symlinks and refuse /proc, /sys and /dev before any mkdir;
 * a folder this machine cannot create is a retryable 'unavailable'; a part file name is never a path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkOutputDir, parseRenderJob } from './render-job-schema';
import { partFile } from './render-parts';
import type { RenderJobData } from './render-queue';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-job-schema-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const GOOD: RenderJobData = {
  part: { id: '0123456789abcdef0123456789abcdef', index: 3, chapter: 1, input: 'Hello.', inputFormat: 'text' },
  settings: { voice: 'anna', language: 'english', seed: 7, params: { temperature: 0.7 }, model: 'embedded:tiny' },
  outputDir: '/shared/book',
  savedVoices: [{ id: 'v-0123456789ab', name: 'Anna', kind: 'clone', modelKind: 'base', modelSize: '0.6b', prompt: { mode: 'xvector', embedding: [0.1, 0.2] } }],
};

describe('render job schema', () => {
  it('passes a well-formed job through unchanged', () => {
    expect(parseRenderJob(structuredClone(GOOD))).toEqual(GOOD);
  });

  it('names each bad field: path-like part ids, sizes, seeds and voices', () => {
    const bad = (patch: (j: RenderJobData) => void) => {
      const job = structuredClone(GOOD);
      patch(job);
      return () => parseRenderJob(job);
    };
    expect(bad((j) => (j.part.id = '../../etc/passwd'))).toThrow(/part\.id: must be 32 lowercase hex digits/);
    expect(bad((j) => (j.part.id = '0123456789ABCDEF0123456789ABCDEF'))).toThrow(/part\.id/);
    expect(bad((j) => (j.settings.seed = -1))).toThrow(/settings\.seed/);
    expect(bad((j) => (j.settings.params = { temperature: 1e9 }))).toThrow(/settings\.params\.temperature/);
    expect(bad((j) => (j.outputDir = 'book'))).toThrow(/outputDir: must be an absolute path/);
    expect(bad((j) => (j.outputDir = '/shared/\0x'))).toThrow(/outputDir: must not hold a NUL/);
    expect(bad((j) => (j.savedVoices![0].id = 'v-../../x'))).toThrow(/savedVoices\.0\.id/);
    expect(bad((j) => (j.part.input = 'x'.repeat(2_000_000)))).toThrow(/part\.input/);
    expect(() => parseRenderJob(null)).toThrow(/this job is not a render part \(job: /);
  });

  it('refuses system folders, directly or through a symlink, and relative folders, without creating anything', () => {
    for (const dir of ['/proc/studio-x', '/proc', '/sys/kernel/x', '/dev/shm/studio-x', '/tmp/../proc/x']) {
      expect(() => checkOutputDir(dir)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    }
    fs.symlinkSync('/proc', path.join(tmp, 'proc-link'));
    expect(() => checkOutputDir(path.join(tmp, 'proc-link', 'out'))).toThrow(/is under \/proc, a folder of kernel or device files; give a folder on a disk/);
    expect(fs.existsSync('/dev/shm/studio-x')).toBe(false);
    expect(() => checkOutputDir('relative/out')).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });

  it("makes the parts folder of a good folder, and calls one it cannot make 'unavailable' (another worker may)", () => {
    const out = path.join(tmp, 'link-to-out');
    fs.mkdirSync(path.join(tmp, 'real-out'));
    fs.symlinkSync(path.join(tmp, 'real-out'), out);
    expect(checkOutputDir(out)).toBe(path.join(fs.realpathSync(tmp), 'real-out'));
    expect(fs.statSync(path.join(tmp, 'real-out', 'parts')).isDirectory()).toBe(true);
    fs.writeFileSync(path.join(tmp, 'a-file'), 'x');
    expect(() => checkOutputDir(path.join(tmp, 'a-file', 'out'))).toThrow(expect.objectContaining({ code: 'unavailable', message: expect.stringMatching(/cannot be written on this machine \(ENOTDIR\); mount the shared folder/) }));
  });

  it('keeps a part file inside its parts folder', () => {
    expect(partFile('/out', 'abc-1_2')).toBe(path.join('/out', 'parts', 'abc-1_2.wav'));
    for (const id of ['../x', 'a/b', '', '..', 'x'.repeat(200)]) expect(() => partFile('/out', id)).toThrow(/is not a file name/);
  });
});
