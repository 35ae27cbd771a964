/**
 * The CLI framework: --help for every command, exit codes (0 ok, 1 runtime error, 2 usage error),
 * one error style (error: … / fix: …, no stack without --verbose), and the version in step with
 * package.json.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createProgram, runCli } from './cli';
import { STUDIO_VERSION } from '../../src-shared/version';
import { engineOverridesFromFlags } from './engine-options';
import { appRootDir } from '../platform/paths';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('studio CLI', () => {
  it('prints help for the program and for every subcommand with exit code 0', async () => {
    const names = ['start', 'serve', 'synth', 'bench', 'model', 'model synth', 'model build', 'model inspect', 'model pull', 'model list', 'model remove', 'model verify', 'render', 'worker', 'voice', 'voice list', 'voice clone', 'voice design', 'voice rename', 'voice delete', 'voice samples', 'voice add-sample', 'voice use-sample'];
    for (const name of names) {
      const { out } = capture();
      expect(await runCli([...name.split(' '), '--help'])).toBe(0);
      expect(out.join('')).toContain('Usage: studio');
      vi.restoreAllMocks();
    }
    expect(createProgram().commands.map((c) => c.name())).toEqual(['start', 'serve', 'synth', 'bench', 'model', 'render', 'worker', 'voice']);
  });

  it('exits 2 on an unknown command or a bad flag value, naming the fix', async () => {
    const a = capture();
    expect(await runCli(['frobnicate'])).toBe(2);
    expect(a.err.join('')).toContain("unknown command 'frobnicate'");
    vi.restoreAllMocks();
    const b = capture();
    expect(await runCli(['model', 'synth', '--out', '/tmp/x', '--size', 'huge'])).toBe(2);
    expect(b.err.join('')).toMatch(/error: --size must be one of tiny, tiny-1\.7b, 0\.6b, 1\.7b.*\nfix: /s);
    vi.restoreAllMocks();
    const c = capture();
    expect(await runCli(['model', 'synth', '--out', '/tmp/x', '--size', 'tiny-1.7b', '--type', 'clone'])).toBe(2);
    expect(c.err.join('')).toMatch(/error: --type must be one of custom_voice, voice_design, base.*\nfix: /s);
  });

  it('takes --ssml-dialect and --lenient on synth, and names the dialects when one is wrong', async () => {
    const help = createProgram().commands.find((c) => c.name() === 'synth')!.helpInformation();
    expect(help).toContain('--ssml-dialect');
    expect(help).toContain('--lenient');
    const a = capture();
    expect(await runCli(['synth', '--ssml', '/tmp/none.xml', '--ssml-dialect', 'watson', '-o', '/tmp/x.wav'])).toBe(2);
    expect(a.err.join('')).toMatch(/--ssml-dialect 'watson' is unknown.*auto, ssml11, azure, google, polly/s);
    vi.restoreAllMocks();
  });

  it('takes --loudness-target and --true-peak on synth, and refuses a bad one before the model loads', async () => {
    const help = createProgram().commands.find((c) => c.name() === 'synth')!.helpInformation();
    expect(help).toContain('--loudness-target');
    expect(help).toContain('--true-peak');
    const a = capture();
    expect(await runCli(['synth', 'Hi.', '--true-peak', '+3', '-o', '/tmp/x.wav'])).toBe(2);
    expect(a.err.join('')).toMatch(/error: --true-peak is 3 but must be from -9 to 0 dBTP\nfix: use -1/);
    vi.restoreAllMocks();
  });

  it('exits 1 on a runtime error with what and fix, and no stack trace unless --verbose', async () => {
    const a = capture();
    expect(await runCli(['model', 'inspect', '/nonexistent/model'])).toBe(1);
    const text = a.err.join('');
    expect(text).toMatch(/^error: .*manifest\.json/m);
    expect(text).toMatch(/^fix: /m);
    expect(text).not.toMatch(/\n\s+at /);
    vi.restoreAllMocks();
    const b = capture();
    expect(await runCli(['--verbose', 'model', 'inspect', '/nonexistent/model'])).toBe(1);
    expect(b.err.join('')).toMatch(/\n\s+at /);
  });

  it('gives serve the same --provider and --engine-config flags as bench, the provider flag winning', async () => {
    for (const name of ['serve', 'bench']) {
      const { out } = capture();
      expect(await runCli([name, '--help'])).toBe(0);
      expect(out.join('')).toMatch(/--provider <name>[\s\S]*--engine-config <json>/);
      vi.restoreAllMocks();
    }
    expect(engineOverridesFromFlags({})).toEqual({});
    expect(engineOverridesFromFlags({ provider: 'webgpu', engineConfig: '{"provider":"cpu","maxRunningSequences":1}' })).toEqual({ provider: 'webgpu', maxRunningSequences: 1 });
  });

  it('exits 2 on a serve --engine-config that is not a JSON object, before any engine host starts', async () => {
    const { err } = capture();
    expect(await runCli(['serve', '--port', '0', '--engine-config', '[1]'])).toBe(2);
    expect(err.join('')).toMatch(/error: --engine-config must be a JSON object, got \[1\]\nfix: /);
  });

  it('refuses bad render, worker and --devices input before any engine host or queue connection starts', async () => {
    const a = capture();
    expect(await runCli(['render', '/nonexistent/book.txt'])).toBe(1);
    expect(a.err.join('')).toMatch(/error: \/nonexistent\/book\.txt does not exist/);
    vi.restoreAllMocks();
    const b = capture();
    expect(await runCli(['worker'])).toBe(2);
    expect(b.err.join('')).toContain("required option '--queue <url>'");
    vi.restoreAllMocks();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-cli-render-'));
    fs.writeFileSync(path.join(dir, 'book.txt'), 'One line.\n');
    const c = capture();
    expect(await runCli(['render', path.join(dir, 'book.txt'), '--out-dir', dir, '--queue', 'http://127.0.0.1:6379'])).toBe(2);
    expect(c.err.join('')).toMatch(/error: --queue must be a redis:\/\/ or rediss:\/\/ URL/);
    vi.restoreAllMocks();
    const d = capture();
    expect(await runCli(['serve', '--port', '0', '--provider', 'cpu', '--devices', '0,0'])).toBe(2);
    expect(d.err.join('')).toMatch(/error: --devices must be 'auto' or distinct device numbers/);
    fs.rmSync(dir, { recursive: true });
  });

  it('reports the same version as package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(appRootDir(), 'package.json'), 'utf8')) as { version: string };
    expect(STUDIO_VERSION).toBe(pkg.version);
  });
});
