#!/usr/bin/env node
// `npm run setup:cuda`: installs onnxruntime-node's CUDA provider (fetched from NuGet by the
// package's own installer), which the default install skips so offline installs work. Says what
// it did, or why it could not. Linux x64 only, as onnxruntime-node ships CUDA for nowhere else.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ortDir = path.join(root, 'node_modules', 'onnxruntime-node');
const fail = (what, fix) => {
  process.stderr.write(`setup:cuda: ${what}\nfix: ${fix}\n`);
  process.exit(1);
};
if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(`the CUDA provider is only published for linux/x64, this is ${process.platform}/${process.arch}`, 'use the WebGPU provider (bundled) or DirectML on Windows');
}
if (!existsSync(path.join(ortDir, 'script', 'install.js'))) fail('onnxruntime-node is not installed', 'run npm ci first');
console.log('setup:cuda: downloading the CUDA 12 provider for onnxruntime-node from NuGet…');
const env = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'cuda12', npm_config_onnxruntime_node_install: 'cuda12' };
const r = spawnSync(process.execPath, ['script/install.js'], { cwd: ortDir, env, stdio: 'inherit', timeout: 600_000 });
const libDir = path.join(ortDir, 'bin', 'napi-v6', 'linux', 'x64');
const installed = existsSync(path.join(libDir, 'libonnxruntime_providers_cuda.so'));
if (r.status === 0 && installed) {
  console.log(`setup:cuda: installed libonnxruntime_providers_cuda.so in ${libDir}. CUDA 12 runtime, cuBLAS and cuDNN 9 must be on the loader path; then run with --provider cuda (or auto).`);
} else {
  fail(
    `the download did not complete (exit ${r.status ?? 'none'}); this machine probably cannot reach NuGet`,
    'run npm run setup:cuda on a machine with network access (HTTPS_PROXY is honoured), or use --provider webgpu',
  );
}
