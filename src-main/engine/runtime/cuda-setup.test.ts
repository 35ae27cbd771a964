// setup:cuda's refusals before anything is fetched or linked: other platforms, a core of another
// version than the provider's, a tarball whose integrity is not the registry's, a missing --from file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setupCuda, sha512Integrity } from './cuda-setup';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-cuda-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fakeOrt(version: string): string {
  const dir = path.join(tmp, `ort-${version}`);
  fs.mkdirSync(path.join(dir, 'bin', 'napi-v6', 'linux', 'x64'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'onnxruntime-node', version }));
  return dir;
}

const quiet = () => {};

describe('setup:cuda', () => {
  it('refuses platforms the provider is not published for, naming the alternatives', () => {
    const r = setupCuda({ repoRoot: tmp, ortPackageDir: fakeOrt('1.29.0'), platform: 'darwin', arch: 'arm64', log: quiet });
    expect(r.ok).toBe(false);
    expect(r.problem!.what).toBe('the CUDA provider is published for linux/x64 and win32/x64, this is darwin/arm64');
    expect(r.problem!.fix).toMatch(/webgpu/);
  });

  it('refuses a core of another version than the provider was built for', () => {
    const r = setupCuda({ repoRoot: tmp, ortPackageDir: fakeOrt('1.30.0'), platform: 'linux', arch: 'x64', log: quiet });
    expect(r.problem!.what).toMatch(/CUDA provider of ONNX Runtime 1\.29\.0, onnxruntime-node here is 1\.30\.0/);
    expect(r.problem!.fix).toBe('run npm ci (package.json pins onnxruntime-node 1.29.0)');
  });

  it('refuses a tarball whose integrity is not the registry one, and a --from file that does not exist', () => {
    const bogus = path.join(tmp, 'bogus.tgz');
    fs.writeFileSync(bogus, 'not the package');
    const r = setupCuda({ repoRoot: tmp, ortPackageDir: fakeOrt('1.29.0'), from: bogus, platform: 'linux', arch: 'x64', log: quiet });
    expect(r.problem!.what).toContain(`has integrity ${sha512Integrity(bogus)}, the registry's com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9 has sha512-FopIhNE`);
    const missing = setupCuda({ repoRoot: tmp, ortPackageDir: fakeOrt('1.29.0'), from: path.join(tmp, 'nope.tgz'), platform: 'linux', arch: 'x64', log: quiet });
    expect(missing.problem!.what).toMatch(/nope\.tgz does not exist/);
  });

  it('says to run npm ci when onnxruntime-node is absent', () => {
    expect(setupCuda({ repoRoot: tmp, ortPackageDir: path.join(tmp, 'none'), platform: 'linux', arch: 'x64', log: quiet }).problem!.fix).toBe('run npm ci first');
  });
});
