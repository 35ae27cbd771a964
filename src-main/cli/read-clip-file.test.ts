/**
 * `studio voice clone <clip>` checks the clip's size on disk before reading it: a 1.5 GB file (sparse,
 * so it costs no disk) is refused with the limit and the fix and is never read; a folder or a missing
 * path is refused too; a small file is read once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli';
import { UsageError } from './cli-errors';
import { readClipFile } from './read-clip-file';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-clip-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A 1.5 GB file of holes: its size is 1.5 GB, its blocks on disk none. */
function hugeSparseFile(): string {
  const file = path.join(dir, 'huge.wav');
  fs.writeFileSync(file, '');
  fs.truncateSync(file, 1.5 * 1024 ** 3);
  return file;
}

describe('readClipFile', () => {
  it('refuses a 1.5 GB clip by its size, naming the 64 MB limit and the fix, without reading it', () => {
    const read = vi.fn((_file: string) => new Uint8Array(0));
    expect(() => readClipFile(hugeSparseFile(), read)).toThrow(UsageError);
    expect(() => readClipFile(hugeSparseFile(), read)).toThrow(/huge\.wav is 1536 MB but a reference clip may be at most 64 MB/);
    expect(read).not.toHaveBeenCalled();
  });

  it('refuses a folder and a missing path, and reads a small file once', () => {
    const read = vi.fn((_file: string) => Uint8Array.of(1, 2, 3));
    expect(() => readClipFile(dir, read)).toThrow(/is not a regular file/);
    expect(() => readClipFile(path.join(dir, 'none.wav'), read)).toThrow(/no file at/);
    expect(read).not.toHaveBeenCalled();
    const small = path.join(dir, 'small.wav');
    fs.writeFileSync(small, Uint8Array.of(1, 2, 3));
    expect(readClipFile(small, read)).toEqual(Uint8Array.of(1, 2, 3));
    expect(read).toHaveBeenCalledTimes(1);
    expect(readClipFile(small)).toEqual(Uint8Array.of(1, 2, 3)); // the default read
  });

  it('makes `studio voice clone` exit 2 on the huge clip before any library or model opens', async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    const readFile = vi.spyOn(fs, 'readFileSync');
    expect(await runCli(['voice', 'clone', hugeSparseFile(), '--name', 'Anna'])).toBe(2);
    expect(err.join('')).toMatch(/error: .*huge\.wav is 1536 MB but a reference clip may be at most 64 MB\nfix: cut it to 5–15 s/);
    expect(readFile.mock.calls.filter(([p]) => String(p).endsWith('huge.wav'))).toEqual([]);
  });
});
