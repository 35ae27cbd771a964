// No dead exports in the main-process, shared and preload code (issue 45): every name a non-test
// module of src-main, src-shared or src-preload exports is used somewhere, in its own file or any
// other (product code, tests, lab, scripts, e2e, build configs), read as whole words. A planted
// module shows the check can fail. The renderer is not held to it here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const DECLARING = ['src-main', 'src-shared', 'src-preload'];
const READING = [...DECLARING, 'src-renderer', 'lab', 'scripts', 'e2e'];
const ROOT_FILES = ['electron.vite.config.ts', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js'];
const EXPORT = /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const WORD = /[A-Za-z_$][\w$]*/g;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(tsx?|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `file: name` for each name a non-test file of `declaring` exports that no file of `reading` uses beyond that export. */
export function deadExports(declaring: readonly string[], reading: readonly string[]): string[] {
  const counts = new Map<string, number>();
  const perFile = new Map<string, Map<string, number>>();
  for (const file of new Set([...declaring, ...reading])) {
    const mine = new Map<string, number>();
    for (const [word] of fs.readFileSync(file, 'utf8').matchAll(WORD)) {
      mine.set(word, (mine.get(word) ?? 0) + 1);
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    perFile.set(file, mine);
  }
  const dead: string[] = [];
  for (const file of declaring) {
    if (/\.test\.tsx?$/.test(file)) continue;
    for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(EXPORT)) {
      if (counts.get(name) === 1 && perFile.get(file)!.get(name) === 1) dead.push(`${path.relative(ROOT, file)}: ${name}`);
    }
  }
  return dead;
}

describe('dead exports', () => {
  it('has none in src-main, src-shared and src-preload', () => {
    const declaring = DECLARING.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    const reading = [...READING.flatMap((d) => sourceFiles(path.join(ROOT, d))), ...ROOT_FILES.map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f))];
    expect(declaring.length).toBeGreaterThan(500);
    expect(deadExports(declaring, reading)).toEqual([]);
  });

  it('names a planted export that nothing uses, and not one that is used', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dead-exports-'));
    try {
      const a = path.join(dir, 'a.ts');
      const b = path.join(dir, 'b.ts');
      fs.writeFileSync(a, 'export function usedElsewhere(): number { return 1; }\nexport const plantedUnused = 2;\nexport type UsedHere = number;\nconst x: UsedHere = 3;\n');
      fs.writeFileSync(b, "import { usedElsewhere } from './a';\nconsole.log(usedElsewhere());\n");
      expect(deadExports([a, b], [a, b]).map((d) => d.split(': ')[1])).toEqual(['plantedUnused']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
