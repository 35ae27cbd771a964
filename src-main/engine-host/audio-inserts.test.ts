/**
 * <audio src> as a capability: only regular files inside the allowed roots are read, FIFOs and
 * devices are refused without blocking (or being opened), symlinks and `..` cannot escape, sizes are
 * capped before and while reading, and every refusal reads the same whatever the path is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeWav } from '../audio/wav';
import type { SsmlSegment } from '../ssml/segments';
import { AUDIO_INSERT_MAX_BYTES, AudioInsertRefused, defaultAudioInsertPolicy, loadAudioInserts, readAudioInsert, refusalWarning, type AudioInsertPolicy } from './audio-inserts';

/** A refused read must come back well within this; a blocking open of a FIFO would hang instead. */
const MAX_REFUSAL_MS = 2_000;
const POSIX = process.platform !== 'win32';

let base: string;
let clips: string;
let imports: string;
let outside: string;
let policy: AudioInsertPolicy;
const wav = encodeWav(Float32Array.from({ length: 2400 }, (_, i) => Math.sin(i / 10) * 0.5), 24000, 'pcm16');

const audio = (...srcs: string[]): SsmlSegment[] => srcs.map((src) => ({ kind: 'audio', src, fallbackText: '' }));

async function refusedReason(src: string, p: AudioInsertPolicy = policy): Promise<string> {
  const started = performance.now();
  const err = await readAudioInsert(src, p.roots, p.maxBytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(performance.now() - started).toBeLessThan(MAX_REFUSAL_MS);
  expect(err).toBeInstanceOf(AudioInsertRefused);
  return (err as AudioInsertRefused).reason;
}

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'audio-inserts-')));
  clips = path.join(base, 'data', 'library', 'clips');
  imports = path.join(base, 'data', 'imports');
  outside = path.join(base, 'elsewhere');
  for (const dir of [clips, imports, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(clips, 'ding.wav'), wav);
  fs.writeFileSync(path.join(imports, 'mine.wav'), wav);
  fs.writeFileSync(path.join(outside, 'secret.wav'), wav);
  fs.mkdirSync(path.join(clips, 'folder.wav'));
  policy = defaultAudioInsertPolicy([clips, imports], 24000);
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe('readAudioInsert', () => {
  it('reads a WAV inside a root by absolute path, by file: URL, and by a path relative to the roots', async () => {
    const byPath = await readAudioInsert(path.join(clips, 'ding.wav'), policy.roots, policy.maxBytes);
    expect(Buffer.from(byPath).equals(Buffer.from(wav))).toBe(true);
    const byUrl = await readAudioInsert(pathToFileURL(path.join(imports, 'mine.wav')).href, policy.roots, policy.maxBytes);
    expect(byUrl.length).toBe(wav.length);
    // relative srcs are looked up in each root in order: ding.wav in clips, mine.wav in imports
    expect((await readAudioInsert('ding.wav', policy.roots, policy.maxBytes)).length).toBe(wav.length);
    expect((await readAudioInsert('mine.wav', policy.roots, policy.maxBytes)).length).toBe(wav.length);
  });

  it('decodes percent-encoded file: URLs as URLs, not as literal paths', async () => {
    fs.writeFileSync(path.join(clips, 'with space é.wav'), wav);
    const href = pathToFileURL(path.join(clips, 'with space é.wav')).href;
    expect(href).toContain('%20');
    expect((await readAudioInsert(href, policy.roots, policy.maxBytes)).length).toBe(wav.length);
  });

  it('refuses paths outside the roots before touching the file system', async () => {
    expect(await refusedReason(path.join(outside, 'secret.wav'))).toBe('outside every allowed root');
    expect(await refusedReason('/etc/passwd')).toBe('outside every allowed root');
    expect(await refusedReason(`${clips}/../../../elsewhere/secret.wav`)).toBe('outside every allowed root');
    expect(await refusedReason('../../elsewhere/secret.wav')).toBe('outside every allowed root');
    expect(await refusedReason(pathToFileURL(path.join(outside, 'secret.wav')).href)).toBe('outside every allowed root');
    expect(await refusedReason('file://evil.example/share/a.wav')).toMatch(/not a local file: URL/);
    expect(await refusedReason(`${clips}/ding.wav\0.txt`)).toMatch(/NUL/);
  });

  it.skipIf(!POSIX)('refuses /dev/zero by path, by file: URL and through a symlink inside a root, without reading it', async () => {
    expect(await refusedReason('/dev/zero')).toBe('outside every allowed root');
    expect(await refusedReason('file:///dev/zero')).toBe('outside every allowed root');
    fs.symlinkSync('/dev/zero', path.join(clips, 'zero.wav'));
    expect(await refusedReason(path.join(clips, 'zero.wav'))).toMatch(/symlink/);
  });

  it.skipIf(!POSIX)('refuses a symlink that escapes the root, even to a readable WAV', async () => {
    fs.symlinkSync(path.join(outside, 'secret.wav'), path.join(clips, 'escape.wav'));
    fs.symlinkSync(outside, path.join(imports, 'linked-dir'));
    expect(await refusedReason(path.join(clips, 'escape.wav'))).toMatch(/symlink/);
    expect(await refusedReason(path.join(imports, 'linked-dir', 'secret.wav'))).toMatch(/symlink/);
    // a symlink that stays inside the roots is fine
    fs.symlinkSync(path.join(clips, 'ding.wav'), path.join(imports, 'alias.wav'));
    expect((await readAudioInsert(path.join(imports, 'alias.wav'), policy.roots, policy.maxBytes)).length).toBe(wav.length);
  });

  it.skipIf(!POSIX)('refuses a FIFO inside a root at once, without opening it (no writer needed to unblock it)', async () => {
    const fifo = path.join(clips, 'pipe.wav');
    execFileSync('mkfifo', [fifo]);
    expect(await refusedReason(fifo)).toBe('not a regular file');
    // had the reader opened the FIFO and kept it, a non-blocking open for writing would now succeed
    expect(() => fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)).toThrow(/ENXIO/);
  });

  it('refuses a directory without reading it', async () => {
    expect(await refusedReason(path.join(clips, 'folder.wav'))).toBe('not a regular file');
  });

  it('refuses a huge sparse file by its size, before reading a byte', async () => {
    const huge = path.join(imports, 'huge.wav');
    fs.closeSync(fs.openSync(huge, 'w'));
    fs.truncateSync(huge, 8 * 1024 * 1024 * 1024); // 8 GiB of holes: takes no disk, would take all memory
    const before = process.memoryUsage().rss;
    expect(await refusedReason(huge)).toMatch(/over the 52428800-byte cap/);
    expect(process.memoryUsage().rss - before).toBeLessThan(AUDIO_INSERT_MAX_BYTES);
  });

  it('caps the bytes of all <audio> files of one request together', async () => {
    const small = { ...policy, maxBytes: Math.floor(wav.length * 1.5) };
    fs.writeFileSync(path.join(clips, 'ding2.wav'), wav);
    const loaded = await loadAudioInserts(audio('ding.wav', 'ding2.wav'), small);
    expect([...loaded.audio.keys()]).toEqual(['ding.wav']);
    expect(loaded.warnings).toEqual([refusalWarning('ding2.wav', small)]);
  });
});

describe('loadAudioInserts', () => {
  it('decodes allowed files and gives one generic warning per refused src that does not tell whether it exists', async () => {
    const log: string[] = [];
    const srcs = ['ding.wav', '/etc/passwd', '/no/such/file.wav', path.join(outside, 'secret.wav'), path.join(clips, 'folder.wav'), path.join(clips, 'missing.wav'), 'ding.wav'];
    const loaded = await loadAudioInserts(audio(...srcs), policy, (m) => log.push(m));
    expect([...loaded.audio.keys()]).toEqual(['ding.wav']);
    expect(loaded.audio.get('ding.wav')).toMatchObject({ sampleRateHz: 24000 });
    expect(loaded.audio.get('ding.wav')!.pcm.length).toBe(2400);
    // the same text for an existing file, a missing one, a directory and a path outside: only the src differs
    expect(loaded.warnings).toEqual(srcs.slice(1, 6).map((src) => refusalWarning(src, policy)));
    for (const w of loaded.warnings) expect(w).not.toMatch(/ENOENT|EISDIR|EACCES|exist|directory/i);
    // the reason is kept for the host's own log
    expect(log.join('\n')).toMatch(/not a regular file/);
  });

  it('refuses a file inside a root that is not a WAV with the same generic warning', async () => {
    fs.writeFileSync(path.join(imports, 'notes.wav'), 'not a wav at all');
    const loaded = await loadAudioInserts(audio('notes.wav'), policy);
    expect(loaded.audio.size).toBe(0);
    expect(loaded.warnings).toEqual([refusalWarning('notes.wav', policy)]);
  });

  it('quotes at most 200 characters of a long src back', async () => {
    const src = `/${'a'.repeat(5000)}.wav`;
    const loaded = await loadAudioInserts(audio(src), policy);
    expect(loaded.warnings[0]).toContain(`${src.slice(0, 200)}…"`);
    expect(loaded.warnings[0].length).toBeLessThan(400);
  });

  it('refuses everything when no root is allowed', async () => {
    const none = { ...policy, roots: [] };
    const loaded = await loadAudioInserts(audio(path.join(clips, 'ding.wav')), none);
    expect(loaded.audio.size).toBe(0);
    expect(loaded.warnings).toHaveLength(1);
  });
});
