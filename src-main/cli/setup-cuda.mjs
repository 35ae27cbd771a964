#!/usr/bin/env node
// `npm run setup:cuda [-- --from <package.tgz>]`: installs ONNX Runtime's CUDA provider from the npm
// registry (src-main/engine/runtime/cuda-setup.ts does the work, run through tsx so no build is
// needed). Says what it did, or what is wrong and the fix; exits 1 on failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = path.join(root, 'src-main', 'engine', 'runtime', 'cuda-setup-main.ts');
const r = spawnSync(process.execPath, ['--import', 'tsx', main, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (r.error) {
  process.stderr.write(`setup:cuda: ${r.error.message}\nfix: run npm ci first (tsx is a dev dependency)\n`);
  process.exit(1);
}
process.exit(r.status ?? 1);
