/**
 * `studio serve` as a user stops it: Ctrl+C reaches the whole process group (the CLI and its engine
 * host) while a browser tab is connected over the WebSocket; the studio drains and exits. A second
 * Ctrl+C during a long drain exits at once. Runs the CLI from source in its own process group.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { ensureTinyModel } from '../model-builder/tiny-model';

const MAX_EXIT_MS = 20_000;
let modelDir: string;
let child: ChildProcess | null = null;

beforeAll(async () => {
  modelDir = (await ensureTinyModel()).builtDir;
}, 120_000);

afterEach(() => {
  if (child && child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  child = null;
});

/** Starts `studio serve` on a free port and resolves with the sign-in link and the printed Bearer token once the engine is ready. */
function startServe(extra: string[] = []): Promise<{ proc: ChildProcess; uiUrl: URL; token: string; output: () => string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli/cli.ts', 'serve', '--port', '0', '--model', modelDir, ...extra], {
    detached: true, // its own process group, as a terminal gives a foreground job
    env: { ...process.env, STUDIO_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'studio-sig-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
    const check = () => {
      const url = /Open the studio at (\S+)/.exec(out)?.[1];
      const token = /Authorization: Bearer (\S+)/.exec(out)?.[1];
      if (url && token && /engine ready/.test(out)) {
        clearTimeout(timer);
        resolve({ proc, uiUrl: new URL(url), token, output: () => out });
      } else if (proc.exitCode !== null) reject(new Error(`serve exited early:\n${out}`));
      else setTimeout(check, 50);
    };
    check();
  });
}

function exitOf(proc: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const startedMs = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('did not exit in time')), MAX_EXIT_MS);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - startedMs });
    });
  });
}

describe('studio serve and Ctrl+C', () => {
  it('exits on one Ctrl+C while a WebSocket client is connected', async () => {
    const { proc, uiUrl, token, output } = await startServe();
    const ws = new WebSocket(`ws://${uiUrl.host}/ws`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const exited = exitOf(proc);
    process.kill(-proc.pid!, 'SIGINT'); // the whole group, as the terminal does
    const { code } = await exited;
    expect(code, output()).toBe(0);
    expect(await closed).toBe(1001); // going away
    expect(output()).not.toMatch(/engine process exited .* restarting/);
  }, 150_000);

  it('exits at once on a second Ctrl+C during a long drain', async () => {
    const { proc, uiUrl, output } = await startServe(['--drain-ms', '60000', '--engine-config', '{"minFramesCap":4000}']);
    // A request long enough to keep the drain waiting.
    const pending = fetch(`http://${uiUrl.host}/api/v1/tts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Long.', voice: 'ryan' }) }).catch(() => null);
    await new Promise((r) => setTimeout(r, 500));
    const exited = exitOf(proc);
    process.kill(-proc.pid!, 'SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    expect(proc.exitCode).toBeNull(); // still draining
    process.kill(-proc.pid!, 'SIGINT');
    const { code, ms } = await exited;
    expect(code, output()).toBe(130);
    expect(ms).toBeLessThan(5_000);
    await pending;
  }, 150_000);
});
