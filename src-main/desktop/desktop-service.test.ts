// Desktop file affordances over a scripted dialog: what the user picks in an open/save dialog (or
// drops on the window) is granted in FileGrants and nothing else is; imported audio is copied into
// <data>/imports (readable through the grants), with size and type limits; dropped text and SSML
// come back for the editor, and a cancelled dialog grants nothing.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileGrants } from '../access/file-grants';
import { DesktopService, parseDropMessage, safeFileName, type DialogPort } from './desktop-service';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function fixture(answers: { open: string[][]; save: (string | null)[] } = { open: [], save: [] }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'desktop-'));
  roots.push(root);
  const data = path.join(root, 'data');
  const home = path.join(root, 'home');
  mkdirSync(data);
  mkdirSync(home);
  const asked: string[] = [];
  const dialogs: DialogPort = {
    showOpen: async (o) => (asked.push(o.title), answers.open.shift() ?? []),
    showSave: async (o) => (asked.push(`${o.title} @ ${o.defaultPath}`), answers.save.shift() ?? null),
  };
  const grants = new FileGrants();
  const desktop = new DesktopService({ dialogs, grants, dataDir: data, maxImportBytes: 1000, maxTextBytes: 100 });
  return { root, data, home, grants, desktop, asked, answers };
}

describe('DesktopService', () => {
  it('grants the project the user opened (read and write) and nothing beside it', async () => {
    const { home, grants, desktop, answers } = fixture();
    const picked = path.join(home, 'talk.studio.json');
    writeFileSync(picked, '{}');
    writeFileSync(path.join(home, 'other.studio.json'), '{}');
    expect(grants.isGranted(picked, 'read')).toBe(false);
    answers.open.push([]);
    expect(await desktop.showOpenProject()).toEqual({ path: null }); // cancelled: nothing granted
    expect(grants.isGranted(picked, 'read')).toBe(false);

    answers.open.push([picked]);
    expect(await desktop.showOpenProject()).toEqual({ path: picked });
    expect(grants.check(picked, 'read')).toBe(picked);
    expect(grants.isGranted(picked, 'write')).toBe(true);
    expect(grants.isGranted(path.join(home, 'other.studio.json'), 'read')).toBe(false);
    expect(grants.isGranted(`${picked}.bak`, 'read')).toBe(false);
  });

  it('grants a document picked to render for reading only, and nothing when cancelled', async () => {
    const { home, grants, desktop, answers } = fixture();
    const picked = path.join(home, 'book.txt');
    writeFileSync(picked, 'Chapter one.');
    answers.open.push([]);
    expect(await desktop.showOpenDocument()).toEqual({ path: null });
    expect(grants.isGranted(picked, 'read')).toBe(false);
    answers.open.push([picked]);
    expect(await desktop.showOpenDocument()).toEqual({ path: picked });
    expect(grants.check(picked, 'read')).toBe(picked);
    expect(grants.isGranted(picked, 'write')).toBe(false);
    expect(grants.isGranted(path.join(home, 'other.txt'), 'read')).toBe(false);
  });

  it('saves a project where the user chose, adding .studio.json when the name has no .json', async () => {
    const { home, data, grants, desktop, asked, answers } = fixture();
    answers.save.push(path.join(home, 'Talk'));
    expect(await desktop.showSaveProject('My talk: take 2')).toEqual({ path: path.join(home, 'Talk.studio.json') });
    expect(asked[0]).toBe(`Save project as @ ${path.join(data, 'projects', 'My-talk-take-2.studio.json')}`);
    expect(grants.isGranted(path.join(home, 'Talk.studio.json'), 'write')).toBe(true);
    expect(grants.isGranted(path.join(home, 'Talk'), 'write')).toBe(false);
  });

  it('copies imported audio into <data>/imports, readable there, and leaves the original ungranted', async () => {
    const { home, data, grants, desktop } = fixture();
    const source = path.join(home, 'my voice (final).WAV');
    writeFileSync(source, Buffer.from('RIFF....WAVEdata'));
    const imported = await desktop.importAudio(source);
    expect(imported.originalName).toBe('my voice (final).WAV');
    expect(path.dirname(imported.path)).toBe(path.join(data, 'imports'));
    expect(path.basename(imported.path)).toMatch(/^[0-9a-f]{8}-my-voice-final\.wav$/);
    expect(readFileSync(imported.path, 'utf8')).toBe('RIFF....WAVEdata');
    expect(imported.sizeBytes).toBe(16);
    expect(grants.isGranted(imported.path, 'read')).toBe(true);
    expect(grants.isGranted(imported.path, 'write')).toBe(false);
    expect(grants.isGranted(source, 'read')).toBe(false);
    expect(readdirSync(path.join(data, 'imports')).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses imports that are too large, not audio, or not regular files', async () => {
    const { home, desktop } = fixture();
    writeFileSync(path.join(home, 'big.wav'), Buffer.alloc(1001));
    await expect(desktop.importAudio(path.join(home, 'big.wav'))).rejects.toMatchObject({ code: 'payload-too-large' });
    writeFileSync(path.join(home, 'notes.pdf'), 'x');
    await expect(desktop.importAudio(path.join(home, 'notes.pdf'))).rejects.toMatchObject({ code: 'invalid-argument' });
    mkdirSync(path.join(home, 'folder.wav'));
    await expect(desktop.importAudio(path.join(home, 'folder.wav'))).rejects.toThrow(/not a regular file/);
  });

  it('imports several files from the import dialog', async () => {
    const { home, desktop, answers } = fixture();
    writeFileSync(path.join(home, 'a.wav'), 'a');
    writeFileSync(path.join(home, 'b.flac'), 'bb');
    answers.open.push([path.join(home, 'a.wav'), path.join(home, 'b.flac')]);
    const { imported } = await desktop.showImportAudio();
    expect(imported.map((i) => [i.originalName, i.sizeBytes])).toEqual([['a.wav', 1], ['b.flac', 2]]);
  });

  it('sorts dropped files: audio imported, SSML and text read, projects granted, the rest refused', async () => {
    const { home, grants, desktop } = fixture();
    const files = {
      audio: path.join(home, 'take.mp3'),
      ssml: path.join(home, 'scene.ssml'),
      text: path.join(home, 'notes.txt'),
      project: path.join(home, 'show.studio.json'),
      other: path.join(home, 'photo.png'),
      long: path.join(home, 'long.txt'),
      fifo: path.join(home, 'pipe.txt'),
    };
    writeFileSync(files.audio, 'ID3');
    writeFileSync(files.ssml, '\uFEFF<speak>Hi</speak>');
    writeFileSync(files.text, 'Hello there.');
    writeFileSync(files.project, '{}');
    writeFileSync(files.other, 'png');
    writeFileSync(files.long, 'x'.repeat(101));
    execFileSync('mkfifo', [files.fifo]);
    const dropped = await desktop.acceptDroppedPaths(Object.values(files));
    expect(dropped.map((d) => d.kind)).toEqual(['audio', 'ssml', 'text', 'project', 'refused', 'refused', 'refused']);
    expect(dropped[1]).toEqual({ kind: 'ssml', name: 'scene.ssml', text: '<speak>Hi</speak>' });
    expect(dropped[2]).toEqual({ kind: 'text', name: 'notes.txt', text: 'Hello there.' });
    expect(grants.isGranted(files.project, 'write')).toBe(true);
    expect(grants.isGranted(files.text, 'read')).toBe(false);
    expect(dropped[4]).toMatchObject({ reason: expect.stringMatching(/drop audio/) });
    expect(dropped[5]).toMatchObject({ reason: expect.stringMatching(/larger than 100 bytes/) });
    expect(dropped[6]).toMatchObject({ reason: expect.stringMatching(/not a regular file/) });
  });

  it('grants a dropped project by its real path, so a symlink does not grant its own name', async () => {
    const { home, root, grants, desktop } = fixture();
    const real = path.join(root, 'real.studio.json');
    writeFileSync(real, '{}');
    symlinkSync(real, path.join(home, 'link.studio.json'));
    await desktop.acceptDroppedPaths([path.join(home, 'link.studio.json')]);
    expect(grants.isGranted(real, 'write')).toBe(true);
  });

  it('accepts only well-formed drop messages from the preload', () => {
    expect(parseDropMessage(['/a/b.wav'])).toEqual(['/a/b.wav']);
    for (const bad of [[], 'x', [1], ['relative.wav'], ['/a\0b'], Array.from({ length: 33 }, () => '/x.wav')]) expect(parseDropMessage(bad)).toBeNull();
  });

  it('makes safe file names', () => {
    expect(safeFileName('../../etc/passwd.wav')).toBe('passwd.wav');
    expect(safeFileName('Ärger & Co.FLAC')).toBe('Arger-Co.flac');
    expect(safeFileName('.wav')).toBe('audio.wav');
  });
});
