// The native-module start-up check: onnxruntime-node's N-API binary found for this platform (and
// reported missing, with the fix, for a platform it does not ship), koffi optional in both its
// layouts, the runtime's N-API version compared, and the SQLite line naming the backend or why none loads.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeSqliteLoader } from '../library/open-sqlite';
import { checkKoffi, checkNativeModules, checkOnnxRuntime, checkSqlite, currentProcessFacts, formatNativeChecks, nodeModulesLocator } from './native-modules';

const here = currentProcessFacts();

describe('native module check', () => {
  it('finds onnxruntime-node for this machine and every platform it ships, and none for others', () => {
    const locate = nodeModulesLocator();
    expect(checkOnnxRuntime(locate, here)).toMatchObject({ status: 'ok' });
    for (const [platform, arch] of [['linux', 'x64'], ['linux', 'arm64'], ['win32', 'x64'], ['win32', 'arm64'], ['darwin', 'arm64']] as const) {
      expect(checkOnnxRuntime(locate, { platform, arch, napiVersion: 9 }).status, `${platform}-${arch}`).toBe('ok');
    }
    expect(checkOnnxRuntime(locate, { platform: 'darwin', arch: 'x64', napiVersion: 9 })).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(/no binary for darwin-x64/) });
    expect(checkOnnxRuntime(locate, { ...here, napiVersion: 5 })).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(/N-API 5, the binary needs 6/) });
    expect(checkOnnxRuntime(() => null, here)).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(/npm ci/) });
  });

  it('treats koffi as optional and accepts either of its binary layouts', () => {
    expect(checkKoffi(() => null, here)).toMatchObject({ status: 'absent' });
    const v3 = (name: string) => (name === 'koffi' || name === `@koromix/koffi-${here.platform}-${here.arch}` ? `/nm/${name}` : null);
    expect(checkKoffi(v3, here).status).toBe('ok');
    const v2 = (name: string) => (name === 'koffi' ? '/nm/koffi' : null);
    const legacy = path.join('/nm/koffi', 'build', 'koffi', `${here.platform}_${here.arch}`, 'koffi.node');
    expect(checkKoffi(v2, here, (p) => p === legacy).status).toBe('ok');
    expect(checkKoffi(v2, here, () => false)).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(/@koromix\/koffi-/) });
  });

  it('names the SQLite backend, or every reason when none loads', () => {
    expect(checkSqlite().status).toBe('ok');
    const failing = { name: 'better-sqlite3' as const, load: () => { throw new Error('was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 140.'); } };
    expect(checkSqlite([failing, nodeSqliteLoader(() => undefined)])).toMatchObject({ status: 'unavailable', detail: expect.stringMatching(/NODE_MODULE_VERSION 115, this runtime needs 140.*the rest of the studio works/) });
  });

  it('formats one log line per module', () => {
    const lines = formatNativeChecks(checkNativeModules());
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[studio\] native onnxruntime-node: ok — /);
  });
});
