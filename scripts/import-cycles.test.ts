// No import loops in the product code (issue 37): reads every non-test .ts/.tsx file of src-main,
// src-shared, src-renderer and src-preload, follows its static relative imports (type-only ones too)
// and fails with the files of each cycle found. A planted pair of modules shows the check can fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const FOLDERS = ['src-main', 'src-shared', 'src-renderer', 'src-preload'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function productFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' || e.name === 'node_modules' ? [] : productFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The import cycles among `files` (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => resolveImport(f, m[1])).filter((t): t is string => t !== null && known.has(t));
    edges.set(f, targets);
  }
  // Tarjan's strongly connected components, iteratively (deep import chains must not overflow the stack)
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const out = edges.get(top.node)!;
      if (top.i < out.length) {
        const to = out[top.i++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || out.includes(top.node)) cycles.push(component.map((c) => path.relative(ROOT, c)).sort());
    }
  }
  return cycles;
}

describe('import cycles', () => {
  it('finds a planted loop of two modules', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { a } from './a';\nexport const b = 1 as unknown as typeof a;\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = a;\n");
      const cycles = importCycles(['a.ts', 'b.ts', 'c.ts'].map((f) => path.join(dir, f)));
      expect(cycles).toHaveLength(1);
      expect(cycles[0].map((f) => path.basename(f))).toEqual(['a.ts', 'b.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has none in the product code', () => {
    const files = FOLDERS.flatMap((f) => productFiles(path.join(ROOT, f)));
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(files)).toEqual([]);
  });
});
