// The installer configuration, checked as far as this machine allows (no Electron binary): the
// config passes electron-builder's own schema, and the file list it would pack — computed with its
// matching rules — keeps native binaries outside app.asar, has each platform's onnxruntime-node
// binaries (CUDA providers included where setup:cuda put them) and no other platform's, and has no
// dev dependencies, tests, fixtures, caches, sources or source maps. First on a small synthetic
// project that contains each thing to leave out, then on this repository.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computePackedFiles, productionPackages, readBuilderConfig, type PackArch, type PackPlatform } from './packed-files';

const repo = process.cwd();
const config = readBuilderConfig(repo);
const isBinary = (f: string) => /\.(node|dll|dylib|so)$|\.so\.\d+/.test(f);
const FORBIDDEN = [
  /(^|\/)(test|tests|__tests__|testing|fixtures)\//,
  /\.(test|spec)\.[cm]?[jt]s$/,
  /\.map$/,
  /(^|\/)\.cache\//,
  /^(src-main|src-renderer|src-shared|src-preload|e2e|docs|scripts)\//,
  /\.tsx?$/,
];

async function validate(cfg: unknown): Promise<void> {
  const req = createRequire(path.join(repo, 'package.json'));
  const { validateConfiguration } = req('app-builder-lib/out/util/config/config.js') as { validateConfiguration(c: unknown, log: unknown): Promise<void> };
  await validateConfiguration(cfg, { isEnabled: false, add: () => {} });
}

describe('electron-builder configuration', () => {
  it('passes electron-builder 26 schema validation, and a misspelt key does not', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
    await expect(validate({ ...config, asarUnpak: [] })).rejects.toThrow(/unknown property 'asarUnpak'/);
  });

  it('builds AppImage + deb, NSIS and dmg with the native modules unpacked and no rebuild step', () => {
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
    // onnxruntime-node 1.29.0 (the pinned version) ships macOS binaries for arm64 only.
    expect((config.mac as { target: unknown }).target).toEqual([{ target: 'dmg', arch: ['arm64'] }]);
    expect(config.npmRebuild).toBe(false); // no Electron headers download, no compiler: nothing native needs Electron's ABI
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/node_modules/onnxruntime-node/bin/**', '**/*.node']));
  });
});

describe('packed file list on a synthetic project', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pack-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const put = (rel: string, text = 'x') => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  for (const f of ['out/main/main.js', 'out/main/main.js.map', 'out/main/engine-host.js', 'out/preload/preload.cjs', 'out/renderer/index.html', 'out/main/x.test.js', 'resources/voices/voices.json', 'src-main/main.ts', 'e2e/a.spec.ts', '.cache/tiny/model.onnx', 'tests/fixtures/a.bin', 'README.md']) put(f);
  for (const os_ of ['linux/x64', 'linux/arm64', 'win32/x64', 'darwin/arm64']) put(`node_modules/onnxruntime-node/bin/napi-v6/${os_}/onnxruntime_binding.node`);
  put('node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so'); // what npm run setup:cuda adds
  put('node_modules/onnxruntime-node/bin/napi-v6/win32/x64/DirectML.dll');
  put('node_modules/onnxruntime-node/dist/index.js');
  put('node_modules/onnxruntime-node/script/install.js');
  put('node_modules/onnxruntime-node/test/unittest.js');
  put('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  put('node_modules/ws/index.js');
  put('node_modules/ws/index.js.map');
  put('node_modules/ws/README.md');
  put('node_modules/ws/lib/types.d.ts');
  put('node_modules/vitest/index.js');
  put('node_modules/electron/index.js');
  put('package.json', JSON.stringify({ name: 'x', version: '1.0.0', main: 'out/main/main.js' }));
  put('package-lock.json', JSON.stringify({ packages: {
    '': {}, 'node_modules/onnxruntime-node': { version: '1' }, 'node_modules/better-sqlite3': { version: '1' }, 'node_modules/ws': { version: '8' },
    'node_modules/vitest': { version: '4', dev: true }, 'node_modules/electron': { version: '45', dev: true },
  } }));
  const pack = (p: PackPlatform, arch: PackArch = p === 'mac' ? 'arm64' : 'x64') => computePackedFiles(root, config, p, arch, repo);

  it('packs the built app and production modules, nothing else', () => {
    const linux = pack('linux');
    expect(linux.files).toEqual([
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so',
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/dist/index.js',
      'node_modules/ws/index.js',
      'out/main/engine-host.js',
      'out/main/main.js',
      'out/preload/preload.cjs',
      'out/renderer/index.html',
      'package.json',
      'resources/voices/voices.json',
    ]);
    // The whole package of a native binary stays outside app.asar (electron-builder's smart unpack).
    expect(linux.unpacked).toEqual(linux.files.filter((f) => f.startsWith('node_modules/onnxruntime-node/')));
  });

  it('refuses a platform-level files list, which electron-builder lets replace the top-level one', () => {
    expect(() => computePackedFiles(root, { ...config, linux: { files: ['!x'] } }, 'linux', 'x64', repo)).toThrow(/linux\.files replaces the top-level files list/);
  });

  it('gives each platform its own onnxruntime binaries', () => {
    const bins = (p: PackPlatform, arch?: PackArch) =>
      pack(p, arch).unpacked.filter((f) => f.includes('/bin/')).map((f) => f.replace('node_modules/onnxruntime-node/bin/napi-v6/', ''));
    expect(bins('win')).toEqual(['win32/x64/DirectML.dll', 'win32/x64/onnxruntime_binding.node']);
    expect(bins('mac')).toEqual(['darwin/arm64/onnxruntime_binding.node']);
    expect(bins('linux', 'arm64')).toEqual(['linux/arm64/onnxruntime_binding.node']);
  });
});

describe('packed file list of this repository', () => {
  const devPackages = new Set(
    Object.entries((JSON.parse(readFileSync(path.join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> }).packages)
      .filter(([dir, meta]) => dir.startsWith('node_modules/') && meta.dev)
      .map(([dir]) => dir),
  );

  const targets: [PackPlatform, PackArch][] = [['linux', 'x64'], ['linux', 'arm64'], ['win', 'x64'], ['win', 'arm64'], ['mac', 'arm64']];
  for (const [platform, arch] of targets) {
    it(`${platform}-${arch}: native binaries unpacked, this platform's onnxruntime only, no dev dependencies, tests, caches or maps`, () => {
      const packed = computePackedFiles(repo, config, platform, arch);
      expect(packed.files).toContain('package.json');
      expect(packed.files).toContain('resources/voices/voices.json');
      if (existsSync(path.join(repo, 'out', 'main', 'main.js'))) {
        expect(packed.files).toEqual(expect.arrayContaining(['out/main/main.js', 'out/main/engine-host.js', 'out/main/cli.js', 'out/preload/preload.cjs', 'out/renderer/index.html']));
      }
      const binaries = packed.files.filter(isBinary);
      expect(binaries.filter((f) => !packed.unpacked.includes(f))).toEqual([]);
      const ortOs = { linux: 'linux', win: 'win32', mac: 'darwin' }[platform];
      const ort = binaries.filter((f) => f.includes('onnxruntime-node/bin/'));
      expect(ort.length).toBeGreaterThan(0);
      expect(ort.every((f) => f.includes(`/napi-v6/${ortOs}/${arch}/`))).toBe(true);
      expect(ort.some((f) => f.endsWith('onnxruntime_binding.node'))).toBe(true);
      expect(packed.files.some((f) => f.includes('better_sqlite3.node'))).toBe(false); // Electron uses node:sqlite
      const devHits = packed.files.filter((f) => [...devPackages].some((d) => f.startsWith(`${d}/`)));
      expect(devHits).toEqual([]);
      expect(packed.files.filter((f) => FORBIDDEN.some((re) => re.test(f)))).toEqual([]);
      expect(packed.packages.some((p) => p.startsWith('electron@') || p.startsWith('vitest@'))).toBe(false);
    });
  }

  it('reads production packages from the lock file, leaving dev ones out', () => {
    const names = productionPackages(repo).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['onnxruntime-node', 'ws', 'zod']));
    expect(names).not.toContain('electron');
    expect(names).not.toContain('electron-builder');
  });
});
