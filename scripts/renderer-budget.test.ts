/**
 * CI budget for the renderer's first page: builds the renderer with the app's own vite config into
 * a temp folder, follows index.html's entry script and its static imports (not dynamic import()),
 * and checks the gzipped total stays under budget and holds no CodeMirror, wavesurfer or recharts.
 * Budget and measured sizes: docs/benchmarks.md ("Renderer weight").
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type InlineConfig } from 'vite';
import config from '../electron.vite.config';

/** First-page JS budget, gzip -9 bytes (measured 82.7 KB at the split; 650 KB before). */
const FIRST_PAGE_JS_GZIP_BUDGET_BYTES = 120 * 1024;
/** Strings only the heavy libraries' code contains: CodeMirror's content class, recharts' class prefix, wavesurfer's name. */
const HEAVY_MARKERS = ['cm-content', 'recharts-', 'wavesurfer'];

/** Entry scripts of index.html plus every chunk they import statically, as paths relative to the out folder. */
function firstPageScripts(outDir: string): string[] {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const pending = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\.?\/?([^"]+)"/g)].map((m) => m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\.?\/?([^"]+)"/g)) pending.push(m[1]);
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = path.posix.normalize(pending.pop()!);
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(outDir, file), 'utf8');
    // Static imports/re-exports only: `import{..}from"./x.js"`, `import"./x.js"`, `export{..}from"./x.js"`.
    for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^"'`()]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
      pending.push(path.posix.join(path.posix.dirname(file), m[1]));
    }
  }
  return [...seen].sort();
}

describe('first-page renderer budget', () => {
  it('loads under budget gzipped and without the heavy libraries', async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'studio-renderer-budget-'));
    const renderer = (config as { renderer: InlineConfig }).renderer;
    // vitest sets NODE_ENV=test, which would make vite bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ ...renderer, configFile: false, mode: 'production', base: './', logLevel: 'silent', build: { ...renderer.build, outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const scripts = firstPageScripts(outDir);
    onTestFinished(() => rmSync(outDir, { recursive: true, force: true }));
    expect(scripts.length).toBeGreaterThan(0);
    let gzipBytes = 0;
    for (const file of scripts) {
      const code = readFileSync(path.join(outDir, file));
      gzipBytes += gzipSync(code, { level: 9 }).length;
      for (const marker of HEAVY_MARKERS) expect(code.includes(marker), `${file} contains ${marker}`).toBe(false);
    }
    expect(gzipBytes).toBeLessThan(FIRST_PAGE_JS_GZIP_BUDGET_BYTES);
    // The heavy areas exist as their own chunks, so the split is real rather than code gone missing.
    const chunks = readdirSync(path.join(outDir, 'assets'));
    for (const area of ['Workspace', 'BenchPanel']) expect(chunks.some((f) => f.startsWith(`${area}-`) && f.endsWith('.js'))).toBe(true);
    console.log(`first page: ${scripts.join(', ')} — ${(gzipBytes / 1024).toFixed(1)} KiB gzipped (budget ${FIRST_PAGE_JS_GZIP_BUDGET_BYTES / 1024} KiB)`);
  }, 120_000);
});
