import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../src-shared/testing/thrown';
import { FileGrants } from './file-grants';

function fixture() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'grants-'));
  const data = path.join(root, 'data');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(data, 'projects'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.json'), '{"x":1}');
  writeFileSync(path.join(data, 'projects', 'a.studio.json'), '{}');
  return { root, data, outside };
}

describe('FileGrants', () => {
  it('allows paths inside a granted folder, including files not written yet', () => {
    const { data } = fixture();
    const grants = new FileGrants([{ path: path.join(data, 'projects'), scope: 'folder', access: 'write' }]);
    expect(grants.check(path.join(data, 'projects', 'a.studio.json'), 'read')).toMatch(/a\.studio\.json$/);
    expect(grants.isGranted(path.join(data, 'projects', 'new', 'b.json'), 'write')).toBe(true);
  });

  it('refuses paths outside, .. escapes and symlinks that leave the folder, with one generic message', () => {
    const { data, outside } = fixture();
    const projects = path.join(data, 'projects');
    symlinkSync(outside, path.join(projects, 'link'));
    const grants = new FileGrants([{ path: projects, scope: 'folder', access: 'write' }]);
    const a = thrown(() => grants.check(path.join(outside, 'secret.json'), 'read'));
    const b = thrown(() => grants.check(path.join(projects, '..', '..', 'outside', 'secret.json'), 'read'));
    const c = thrown(() => grants.check(path.join(projects, 'link', 'secret.json'), 'read'));
    const d = thrown(() => grants.check(path.join(outside, 'does-not-exist.json'), 'read'));
    for (const e of [a, b, c, d]) expect(e.code).toBe('forbidden');
    // The message never tells an existing path from a missing one.
    expect(new Set([a.message, b.message, c.message, d.message]).size).toBe(1);
  });

  it('treats a read grant as read-only and a file grant as that file only', () => {
    const { outside } = fixture();
    const file = path.join(outside, 'secret.json');
    const grants = new FileGrants();
    grants.grant(file, 'read', 'file');
    expect(grants.isGranted(file, 'read')).toBe(true);
    expect(grants.isGranted(file, 'write')).toBe(false);
    expect(grants.isGranted(path.join(outside, 'other.json'), 'read')).toBe(false);
  });

  it('parses file: URLs properly and refuses relative paths, other schemes and NUL bytes', () => {
    const { data } = fixture();
    const projects = path.join(data, 'projects');
    const grants = new FileGrants([{ path: projects, scope: 'folder', access: 'read' }]);
    expect(grants.isGranted(pathToFileURL(path.join(projects, 'a.studio.json')).href, 'read')).toBe(true);
    expect(grants.isGranted('projects/a.studio.json', 'read')).toBe(false);
    expect(grants.isGranted('http://example.invalid/a.json', 'read')).toBe(false);
    expect(grants.isGranted(`${projects}/a\0.json`, 'read')).toBe(false);
  });
});
