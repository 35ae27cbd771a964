// Project service: atomic saves, recent list, autosave slot for crash recovery, SSML fallback validation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileGrants } from '../access/file-grants';
import type { StudioError } from '../../src-shared/errors';
import { MAX_RECENT_PROJECTS, ProjectService, validateWithStudioParser } from './project-service';
import type { ProjectDocument } from '../../src-shared/contract/projects';

function project(name = 'My Show', id = '0123456789abcdef'): ProjectDocument {
  return {
    schemaVersion: 1,
    id,
    name,
    editor: { text: '<speak>hi</speak>', inputFormat: 'ssml' },
    voice: { modelId: null, voice: 'ryan', language: 'auto', seed: 7, params: null, instruct: '', voiceDescription: '' },
    baseClipId: 'clip-1',
    turns: [{ turnIndex: 0, takes: [{ takeId: 't1', clipId: 'clip-1', seed: 7, startSample: 0, endSample: 10, createdAtMs: 1 }], chosenTakeId: 't1', previousTakeId: null }],
  };
}

describe('ProjectService', () => {
  let dir: string;
  let svc: ProjectService;
  let clock = 100;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'proj-'));
    svc = new ProjectService({ dataDir: dir, nowMs: () => clock++ });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves to the default path, leaves no temp files and opens the same document', async () => {
    const { path: saved } = await svc.save(project());
    expect(path.basename(saved)).toBe('my-show-01234567.studio.json');
    expect(readdirSync(svc.projectsDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const opened = await svc.open(saved);
    expect(opened.project).toEqual(project());
  });

  it('rejects a file that is not a studio project and names the bad field', async () => {
    const bad = path.join(svc.projectsDir, 'bad.studio.json');
    writeFileSync(bad, JSON.stringify({ ...project(), schemaVersion: 2 }));
    await expect(svc.open(bad)).rejects.toThrow(/schemaVersion/);
    await expect(svc.open(path.join(svc.projectsDir, 'missing.json'))).rejects.toMatchObject({ code: 'not-found' });
  });

  it('opens and saves only inside the projects folder, and never quotes a file it refuses', async () => {
    const secret = path.join(dir, 'secret.json');
    writeFileSync(secret, 'TOPSECRET-not-json');
    const outside = (await svc.open(secret).catch((e: StudioError) => e)) as StudioError;
    const missing = (await svc.open(path.join(dir, 'nothing-here.json')).catch((e: StudioError) => e)) as StudioError;
    expect(outside).toMatchObject({ code: 'forbidden' });
    expect(missing).toMatchObject({ code: 'forbidden' });
    expect(outside.message).toBe(missing.message); // existing and missing paths read the same
    await expect(svc.save(project(), path.join(dir, 'elsewhere.json'))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(svc.save(project(), path.join(svc.projectsDir, '..', 'escape.json'))).rejects.toMatchObject({ code: 'forbidden' });
    // A broken file inside the folder: the error names it but does not quote its bytes.
    const broken = path.join(svc.projectsDir, 'broken.studio.json');
    writeFileSync(broken, 'TOPSECRET-not-json');
    const err = (await svc.open(broken).catch((e: StudioError) => e)) as StudioError;
    expect(err.code).toBe('invalid-argument');
    expect(err.message).not.toMatch(/TOPSECRET/);
  });

  it('honours paths granted by the desktop app', async () => {
    const picked = path.join(dir, 'picked');
    mkdirSync(picked);
    const grants = new FileGrants([{ path: path.join(dir, 'projects'), scope: 'folder', access: 'write' }]);
    grants.grant(picked, 'write', 'folder');
    const withGrant = new ProjectService({ dataDir: dir, grants });
    const saved = await withGrant.save(project(), path.join(picked, 'show.studio.json'));
    expect((await withGrant.open(saved.path)).project.name).toBe(project().name);
  });

  it('keeps recent projects newest first, without duplicates, capped', async () => {
    for (let i = 0; i < MAX_RECENT_PROJECTS + 2; i++) await svc.save(project(`P${i}`, `id${String(i).padStart(8, '0')}`));
    await svc.save(project('P3', 'id00000003'));
    const recent = await svc.listRecent();
    expect(recent.length).toBe(MAX_RECENT_PROJECTS);
    expect(recent[0].name).toBe('P3');
    expect(new Set(recent.map((r) => r.path)).size).toBe(recent.length);
  });

  it('offers the autosaved project for recovery until it is saved or discarded', async () => {
    expect(await svc.readRecovery()).toBeNull();
    await svc.autosave(project('Draft'), null);
    const slot = await svc.readRecovery();
    expect(slot?.project.name).toBe('Draft');
    expect(slot?.path).toBeNull();
    await svc.save(project('Draft'));
    expect(await svc.readRecovery()).toBeNull();
    await svc.autosave(project('Draft 2'), '/x/y.studio.json');
    expect(await svc.discardRecovery()).toBe(true);
    expect(await svc.readRecovery()).toBeNull();
  });

  it('drops a torn autosave file instead of failing', async () => {
    writeFileSync(path.join(svc.projectsDir, '.autosave.json'), '{"project": {');
    expect(await svc.readRecovery()).toBeNull();
    expect(readdirSync(svc.projectsDir)).not.toContain('.autosave.json');
  });

  it('writes valid JSON even when saved twice quickly', async () => {
    const a = svc.save(project('A'));
    const b = svc.save(project('A'));
    const [ra] = await Promise.all([a, b]);
    expect(JSON.parse(readFileSync(ra.path, 'utf8')).name).toBe('A');
  });
  it('lists the projects folder newest first without its own files or foreign JSON, and deletes only there', async () => {
    const a = (await svc.save(project('First', 'aaaaaaaaaaaaaaaa'))).path;
    const b = (await svc.save(project('Second', 'bbbbbbbbbbbbbbbb'))).path;
    const later = new Date(Date.now() + 60_000);
    utimesSync(a, later, later);
    writeFileSync(path.join(svc.projectsDir, 'notes.json'), '{"hello": 1}');
    await svc.autosave(project('Draft'), null);
    const listed = await svc.listProjects();
    expect(listed.map((p) => p.name)).toEqual(['First', 'Second']);
    expect(listed[0].path).toBe(a);
    expect(listed.map((p) => p.baseClipId)).toEqual(['clip-1', 'clip-1']); // a Library re-open finds a clip's project by it

    expect(await svc.deleteProject(b)).toBe(true);
    expect(existsSync(b)).toBe(false);
    expect((await svc.listRecent()).map((r) => r.path)).toEqual([a]);
    expect(await svc.deleteProject(b)).toBe(false);
    const outside = path.join(dir, 'elsewhere.studio.json');
    writeFileSync(outside, JSON.stringify(project()));
    await expect(svc.deleteProject(outside)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(svc.deleteProject(path.join(svc.projectsDir, '..', 'elsewhere.studio.json'))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(svc.deleteProject(path.join(svc.projectsDir, 'recent.json'))).rejects.toMatchObject({ code: 'forbidden' });
    expect(existsSync(outside)).toBe(true);
    expect(existsSync(path.join(svc.projectsDir, 'recent.json'))).toBe(true);
  });
});

describe('validateWithStudioParser', () => {
  it('counts the turns of a two-voice document', () => {
    expect(validateWithStudioParser('<speak><voice name="ryan">Hi</voice><break time="120ms"/><voice name="vivian">Yo</voice></speak>')).toMatchObject({ ok: true, numTurns: 2, dialect: 'ssml11' });
  });

  it('reports an unclosed element with a line and column', () => {
    const r = validateWithStudioParser('<speak>\n  <voice name="ryan">Fine.</voice>\n  <prosody rate="90%">Not closed.\n</speak>');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostics[0].line).toBeGreaterThanOrEqual(3);
      expect(r.diagnostics[0].column).toBeGreaterThan(0);
    }
  });

  it('uses the same settings as generation: an unknown voice fails strict and warns lenient', () => {
    const doc = '<speak><voice name="bob">Hi</voice></speak>';
    const strict = validateWithStudioParser(doc, { knownVoices: ['ryan'], strict: true });
    expect(strict.ok).toBe(false);
    if (!strict.ok) expect(strict.diagnostics[0].message).toContain("voice 'bob' is not a speaker");
    const lenient = validateWithStudioParser(doc, { knownVoices: ['ryan'], strict: false });
    expect(lenient).toMatchObject({ ok: true, numTurns: 1 });
    if (lenient.ok) expect(lenient.warnings?.[0].message).toContain("voice 'bob'");
  });

  it('says which dialect auto chose', () => {
    expect(validateWithStudioParser('<speak xmlns:mstts="https://www.w3.org/2001/mstts"><bookmark mark="a"/>Hi</speak>')).toMatchObject({ ok: true, dialect: 'azure', dialectDetectedFrom: 'xmlns:mstts on <speak>' });
  });
});
