// The GPU-run bench variants (WebGPU, WebGPU + capture, CUDA bound, CUDA + CUDA graphs) wired end to
// end on the tiny model with the provider swapped to cpu: each starts its engine host, synthesises
// through the bench target, gives the 'batched' variant's WAV bytes, and the capture variants log the
// captured form's settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEngineConfig } from '../engine/engine-config';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createInprocVariant, INPROC_VARIANT_CONFIGS } from './inproc-bench-variants';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-variants-'));
let model: string;

async function synthesize(name: string): Promise<{ wavs: Uint8Array[] }> {
  const variant = createInprocVariant(name, { model, provider: 'cpu', userDataDir: fs.mkdtempSync(path.join(tmp, `${name}-`)), log: () => {} });
  const target = await variant.createTarget();
  try {
    expect((await target.describe?.())?.provider).toBe('cpu');
    const wavs: Uint8Array[] = [];
    for (const seed of [5, 6]) {
      const r = await target.synthesize({ text: 'Bench words.', voice: 'ryan', seed, stream: false }, new AbortController().signal);
      expect(r.status, r.errorMessage ?? '').toBe(200);
      wavs.push(r.bytes);
    }
    return { wavs };
  } finally {
    await target.dispose();
    await variant.teardown?.(target);
  }
}

beforeAll(async () => {
  model = (await ensureTinyModel()).builtDir;
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('GPU-run bench variants on cpu', () => {
  let reference: Uint8Array[];
  it('batched (the reference)', { timeout: 120_000 }, async () => {
    reference = (await synthesize('batched')).wavs;
  });
  it.each([['webgpu', 'auto'], ['webgpucapture', 'on'], ['cuda', 'bound'], ['cudagraph', 'on'], ['cudaconv', 'on'], ['cudacodecbound', 'auto'], ['cudaauto', 'auto']])('%s gives the reference WAV bytes (graphCapture %s)', { timeout: 120_000 }, async (name, mode) => {
    const { wavs } = await synthesize(name);
    expect(resolveEngineConfig(INPROC_VARIANT_CONFIGS[name].engineConfig).graphCapture.mode).toBe(mode);
    expect(wavs.map((w) => Buffer.from(w).toString('base64'))).toEqual(reference.map((w) => Buffer.from(w).toString('base64')));
  });

  it("cudamatmul (the codec's transposed convs as MatMuls) gives the reference WAVs within 1 LSB a sample", { timeout: 120_000 }, async () => {
    const { wavs } = await synthesize('cudamatmul');
    expect(resolveEngineConfig(INPROC_VARIANT_CONFIGS.cudamatmul.engineConfig).codec.upsample).toBe('matmul');
    expect(wavs.map((w) => w.length)).toEqual(reference.map((w) => w.length));
    wavs.forEach((wav, i) => {
      const [a, b] = [Buffer.from(wav), Buffer.from(reference[i])];
      expect(a.subarray(0, 44).equals(b.subarray(0, 44))).toBe(true);
      let maxLsb = 0;
      for (let k = 44; k < a.length; k += 2) maxLsb = Math.max(maxLsb, Math.abs(a.readInt16LE(k) - b.readInt16LE(k)));
      expect(maxLsb).toBeLessThanOrEqual(1);
    });
  });

  it("the capture setting reaches the engine host: cudagraph refuses kvCache.mode 'device' there, webgpu accepts it", { timeout: 120_000 }, async () => {
    const start = async (name: string) => {
      const variant = createInprocVariant(name, { model, provider: 'cpu', userDataDir: fs.mkdtempSync(path.join(tmp, `kv-${name}-`)), engineConfig: { kvCache: { mode: 'device' } }, log: () => {} });
      try {
        const target = await variant.createTarget();
        const r = await target.synthesize({ text: 'Bench words.', voice: 'ryan', seed: 5, stream: false }, new AbortController().signal);
        await target.dispose();
        return r.status === 200 ? 'ok' : (r.errorMessage ?? `status ${r.status}`);
      } catch (err) {
        return (err as Error).message;
      } finally {
        await variant.teardown?.(null as never);
      }
    };
    expect(await start('webgpu')).toBe('ok');
    expect(await start('cudagraph')).toMatch(/graphCapture.mode/);
  });
});
