/**
 * Layout check in a real browser (Debian Chromium, headless): on a fresh data folder the Speak
 * screen opens with the first-run panel, and at 1024×700 its Generate button must still be on
 * screen without scrolling. Builds the renderer with the app's vite config into a temp folder,
 * serves it on loopback and gives the page an in-memory bridge (window.studio, as the preload
 * would) that answers as a host running the embedded synthetic model with the hub's known models.
 * Skipped where no Chromium is installed (CHROMIUM_PATH, else /usr/bin/chromium).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build, type InlineConfig } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import config from '../electron.vite.config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1024, height: 700 };
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.wasm': 'application/wasm' };

/** What the bridge answers per channel: a host on the embedded synthetic model, nothing installed yet. */
function hostAnswers(): Record<string, unknown> {
  const known = (JSON.parse(readFileSync('resources/models/known-models.json', 'utf8')) as { models: { repo: string; displayName: string; approxSizeBytes: number; summary: string; capabilities: string[] }[] }).models;
  const defaults = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 };
  const voices = ['vivian', 'serena', 'uncle_fu', 'dylan', 'eric', 'ryan', 'aiden', 'ono_anna', 'sohee'].map((name) => ({ name, description: `${name}, a preset speaker`, nativeLanguage: 'english', dialect: null }));
  const model = { id: 'embedded:tiny', displayName: 'Embedded test model (synthetic tiny, random weights)', path: '/x', kind: 'custom_voice', size: 'tiny', synthetic: true, supportsInstruct: false, voices, languages: ['english', 'chinese'], defaultParams: defaults, sampleRateHz: 24_000, modelHash: 'h' };
  const status = { state: 'ready', engineVersion: 'v', provider: 'cpu', providerReason: 'test', queueDepth: 0, numWaiting: 0, numRunning: 0, numInFlight: 0, gpuLeased: false, numCompleted: 0, numFailed: 0, numCancelled: 0, numRejected: 0, numRestarts: 0, model };
  const models = [
    { id: 'embedded:tiny', displayName: 'Embedded test model (random weights)', kind: 'embedded', status: 'ready', synthetic: true, sizeBytes: null, summary: 'A tiny synthetic checkpoint with seeded random weights: it produces noise, not speech.', capabilities: ['preset-speakers'], repo: null, localPath: null },
    ...known.map((k) => ({ id: k.repo.replace('/', '--'), displayName: k.displayName, kind: 'known', status: 'not-installed', synthetic: false, sizeBytes: k.approxSizeBytes, summary: k.summary, capabilities: k.capabilities, repo: k.repo, localPath: null })),
  ];
  return {
    'studio:app.info': { version: '0.1.0', hostKind: 'desktop', userDataDir: '/data' },
    'studio:engine.status': status,
    'studio:engine.modelInfo': model,
    'studio:tts.listVoices': voices,
    'studio:models.list': models,
    'studio:models.state': { offline: false, endpoint: 'https://huggingface.co', modelsDir: '/data/models', freeBytes: 5e10, pulling: [] },
    'studio:voices.list': [],
    'studio:projects.list': [],
    'studio:projects.listRecent': [],
    'studio:projects.readRecovery': null,
  };
}

describe.skipIf(!existsSync(CHROMIUM))('first-run layout at 1024×700', () => {
  let outDir = '';
  let server: Server;
  let browser: Browser;
  let baseUrl = '';

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'studio-first-run-layout-'));
    const renderer = (config as { renderer: InlineConfig }).renderer;
    await build({ ...renderer, configFile: false, mode: 'production', base: './', logLevel: 'silent', build: { ...renderer.build, outDir, emptyOutDir: true, minify: false } });
    server = createServer((req, res) => {
      const file = path.join(outDir, path.normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(outDir) || !existsSync(file) || file === outDir) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('keeps Speak’s Generate on screen while the first-run panel shows', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'dark' });
    await page.addInitScript((answers: Record<string, unknown>) => {
      (window as unknown as { studio: unknown }).studio = {
        invoke: async (channel: string) => ({ ok: true, value: channel in answers ? answers[channel] : null }),
        on: () => () => {},
      };
    }, hostAnswers());
    await page.goto(`${baseUrl}/index.html`);
    await page.getByTestId('first-run').waitFor({ state: 'visible', timeout: 30_000 });
    const generate = page.getByTestId('speak-generate');
    await generate.waitFor({ state: 'visible' });
    const box = await generate.boundingBox();
    // Whole button inside the 700 px viewport: y + height ≤ 700, with the page not scrolled.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(VIEWPORT.height);
    // The ways to a real model are one click away.
    await page.getByTestId('first-run-toggle').click();
    await page.getByTestId('first-run-path').waitFor({ state: 'visible' });
    await page.close();
  });
});
