#!/usr/bin/env node
// The `studio` command's launcher: runs the built CLI (out/main/cli.js), building it first when
// this checkout has not been built yet. Plain JavaScript so it runs before any build exists.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('studio: first run, building the app (npm run build)…\n');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    process.stderr.write('error: the build failed\nfix: run `npm ci` in the studio folder, then `npm run build`\n');
    process.exit(1);
  }
}
process.argv[1] = cli;
await import(pathToFileURL(cli).href);
