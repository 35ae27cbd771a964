/**
 * `npm run setup:cuda`: installs ONNX Runtime's CUDA provider from the npm registry package named in
 * cuda-libraries.ts (npm pack, integrity checked, unpacked under .cache/ort-cuda/), links its provider
 * libraries beside the onnxruntime-node core, checks the version pairing, and reports the CUDA 13
 * libraries found or exactly which are missing. `--from <tgz>` installs a tarball brought by hand.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CUDA_PROVIDER_PACKAGES, cudaInstallDir, describeMissingCuda, findCudaLibraries, providerPairsWithCore, type CudaProviderPackage, type FsView, type GpuPlatform } from './cuda-libraries';

/** The real file system as the CUDA library search sees it (an unreadable folder lists as empty). */
export const NODE_FS_VIEW: FsView = {
  exists: (p) => fs.existsSync(p),
  list: (d) => {
    try {
      return fs.readdirSync(d);
    } catch {
      return [];
    }
  },
};

export interface SetupCudaOptions {
  repoRoot: string;
  /** The onnxruntime-node folder (holds package.json and bin/napi-v6/<platform>/<arch>/). */
  ortPackageDir: string;
  /** A package tarball to install instead of fetching it with npm pack. */
  from?: string;
  platform?: NodeJS.Platform;
  arch?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface SetupCudaResult {
  ok: boolean;
  /** What went wrong and the fix, when !ok. */
  problem?: { what: string; fix: string };
  providerDir?: string;
  /** Set when the provider is installed but the CUDA 13 libraries are not all found. */
  missingLibraries?: string;
}

export function sha512Integrity(file: string): string {
  return `sha512-${createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

function fail(what: string, fix: string): SetupCudaResult {
  return { ok: false, problem: { what, fix } };
}

/** The tarball: `from`, else one already fetched, else `npm pack` into the install folder. */
function obtainTarball(pkg: CudaProviderPackage, installDir: string, from: string | undefined, log: (l: string) => void): string | SetupCudaResult {
  if (from) return fs.existsSync(from) ? path.resolve(from) : fail(`${from} does not exist`, 'pass the path of the package tarball (.tgz)');
  const tgz = path.join(installDir, `${pkg.name}-${pkg.version}.tgz`);
  if (fs.existsSync(tgz)) return tgz;
  log(`setup:cuda: fetching ${pkg.name}@${pkg.version} from the npm registry (about 180 MB)…`);
  const r = spawnSync('npm', ['pack', `${pkg.name}@${pkg.version}`, '--pack-destination', installDir, '--silent'], { stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32', timeout: 1_800_000 });
  if (r.status !== 0 || !fs.existsSync(tgz)) {
    return fail(`npm pack ${pkg.name}@${pkg.version} failed (exit ${r.status ?? 'none'})`, 'check that the npm registry is reachable (npm ping), or bring the tarball and run npm run setup:cuda -- --from <file.tgz>');
  }
  return tgz;
}

export function setupCuda(options: SetupCudaOptions): SetupCudaResult {
  const log = options.log ?? ((l: string) => console.log(l));
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  if ((platform !== 'linux' && platform !== 'win32') || arch !== 'x64') {
    return fail(`the CUDA provider is published for linux/x64 and win32/x64, this is ${platform}/${arch}`, 'use --provider webgpu (bundled), or DirectML on Windows');
  }
  const gpuPlatform: GpuPlatform = platform;
  const pkg = CUDA_PROVIDER_PACKAGES[gpuPlatform];
  const ortPkg = path.join(options.ortPackageDir, 'package.json');
  if (!fs.existsSync(ortPkg)) return fail('onnxruntime-node is not installed', 'run npm ci first');
  const coreVersion = (JSON.parse(fs.readFileSync(ortPkg, 'utf8')) as { version: string }).version;
  if (!providerPairsWithCore(pkg.ortVersion, coreVersion)) {
    return fail(`${pkg.name}@${pkg.version} holds the CUDA provider of ONNX Runtime ${pkg.ortVersion}, onnxruntime-node here is ${coreVersion} (a provider must match its core)`, `run npm ci (package.json pins onnxruntime-node ${pkg.ortVersion})`);
  }
  const installDir = cudaInstallDir(options.repoRoot, gpuPlatform);
  fs.mkdirSync(installDir, { recursive: true });
  const tgz = obtainTarball(pkg, installDir, options.from, log);
  if (typeof tgz !== 'string') return tgz;
  const integrity = sha512Integrity(tgz);
  if (integrity !== pkg.integrity) {
    return fail(`${tgz} has integrity ${integrity}, the registry's ${pkg.name}@${pkg.version} has ${pkg.integrity}`, 'delete the file and run npm run setup:cuda again');
  }
  const unpacked = path.join(installDir, 'package');
  if (!fs.existsSync(path.join(unpacked, pkg.libDir, pkg.providerFiles[0]))) {
    const r = spawnSync('tar', ['-xzf', tgz, '-C', installDir], { stdio: 'inherit' });
    if (r.status !== 0) return fail(`unpacking ${tgz} failed (tar exit ${r.status ?? 'none'})`, 'check free disk space (about 250 MB) and that tar is installed');
  }
  const binDir = path.join(options.ortPackageDir, 'bin', 'napi-v6', platform, arch);
  for (const file of pkg.providerFiles) {
    const src = path.join(unpacked, pkg.libDir, file);
    if (!fs.existsSync(src)) return fail(`${file} is not in ${pkg.name}@${pkg.version} at ${pkg.libDir}`, 'report this: the package layout changed');
    const dst = path.join(binDir, file);
    fs.rmSync(dst, { force: true });
    // ORT loads provider libraries from its core's folder; a link keeps one 230 MB copy (Windows copies: links need privileges)
    if (platform === 'win32') fs.copyFileSync(src, dst);
    else fs.symlinkSync(src, dst);
  }
  log(`setup:cuda: ONNX Runtime ${pkg.ortVersion} CUDA ${pkg.cudaMajor} provider from ${pkg.name}@${pkg.version} linked into ${binDir}`);
  const search = findCudaLibraries(gpuPlatform, options.env ?? process.env, NODE_FS_VIEW);
  if (search.missing.length > 0) {
    const missing = describeMissingCuda(gpuPlatform, search);
    log(`setup:cuda: the provider is installed, but ${missing}`);
    return { ok: true, providerDir: binDir, missingLibraries: missing };
  }
  for (const [file, where] of Object.entries(search.found)) log(`setup:cuda: ${file} → ${where}`);
  log('setup:cuda: ready; run with --provider cuda (or auto). After npm ci, run npm run setup:cuda again (it reuses the fetched package).');
  return { ok: true, providerDir: binDir };
}
