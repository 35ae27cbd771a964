// Unit tests for publishDir: a fresh place, a complete copy already there (kept), a stale incomplete one (replaced).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishDir, tempSiblingOf } from './publish-dir';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-dir-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function folderWith(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
const isComplete = (dir: string) => fs.existsSync(path.join(dir, 'done'));

describe('publishDir', () => {
  it('moves the temporary folder into a free place', () => {
    const final = path.join(root, 'model');
    const tmp = folderWith(tempSiblingOf(final), { done: 'new' });
    expect(publishDir(tmp, final, isComplete)).toBe(true);
    expect(fs.readFileSync(path.join(final, 'done'), 'utf8')).toBe('new');
    expect(fs.existsSync(tmp)).toBe(false);
  });

  it('keeps a complete copy that another process published first and discards its own', () => {
    const final = folderWith(path.join(root, 'model'), { done: 'theirs' });
    const tmp = folderWith(tempSiblingOf(final), { done: 'ours' });
    expect(publishDir(tmp, final, isComplete)).toBe(false);
    expect(fs.readFileSync(path.join(final, 'done'), 'utf8')).toBe('theirs');
    expect(fs.readdirSync(root)).toEqual(['model']);
  });

  it('replaces a stale incomplete folder', () => {
    const final = folderWith(path.join(root, 'model'), { 'half.onnx': 'x' });
    const tmp = folderWith(tempSiblingOf(final), { done: 'ours' });
    expect(publishDir(tmp, final, isComplete)).toBe(true);
    expect(fs.readdirSync(final)).toEqual(['done']);
  });

  it('names temporary siblings per process and call, beside the target', () => {
    const final = path.join(root, 'model');
    const a = tempSiblingOf(final);
    expect(path.dirname(a)).toBe(root);
    expect(a).toContain(`model.tmp-${process.pid}-`);
    expect(tempSiblingOf(final)).not.toBe(a);
  });
});
