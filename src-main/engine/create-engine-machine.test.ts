/**
 * The device memory createEngine plans by (readPlanMachine): nvidia-smi's total for the GPU the engine runs on
 * (CUDA_VISIBLE_DEVICES's entry where set), asked only where a candidate has wide limits and a count is 'auto';
 * null without nvidia-smi. A stand-in nvidia-smi on PATH answers by --id and notes each call.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPlanMachine } from './create-engine';
import { resolveEngineConfig } from './engine-config';

const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});

/** A fake nvidia-smi: GPU 3 is an 80 GB H100, any other a 16 GB card; every call appends its arguments to `calls`. */
function fakeSmi(): { calls: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-smi-'));
  const calls = path.join(dir, 'calls');
  fs.writeFileSync(path.join(dir, 'nvidia-smi'), `#!/bin/sh\necho "$*" >> "${calls}"\ncase "$*" in\n  *--id=3*) echo "NVIDIA H100 80GB HBM3, 580.159.04, 81559" ;;\n  *) echo "Small GPU, 580.159.04, 16384" ;;\nesac\n`);
  fs.chmodSync(path.join(dir, 'nvidia-smi'), 0o755);
  process.env.PATH = `${dir}${path.delimiter}${originalPath}`;
  return { calls };
}

describe('the device memory the engine plan reads', () => {
  it("reads nvidia-smi's total of the visible GPU where a candidate can run wide", async () => {
    fakeSmi();
    const auto = resolveEngineConfig({ workload: 'server' });
    expect(await readPlanMachine(auto, ['webgpu', 'cpu'], { CUDA_VISIBLE_DEVICES: '3,4' })).toEqual({ deviceMemoryBytes: 81559 * 1024 * 1024 });
    // no CUDA_VISIBLE_DEVICES: deviceIndex, or GPU 0
    expect(await readPlanMachine(auto, ['webgpu'], {})).toEqual({ deviceMemoryBytes: 16384 * 1024 * 1024 });
    expect(await readPlanMachine(resolveEngineConfig({ workload: 'server', deviceIndex: 3 }), ['webgpu'], {})).toEqual({ deviceMemoryBytes: 81559 * 1024 * 1024 });
  });

  it('asks nothing where no candidate has wide limits or every count is set, and reads null without nvidia-smi', async () => {
    const { calls } = fakeSmi();
    const server = resolveEngineConfig({ workload: 'server' });
    expect(await readPlanMachine(server, ['cpu'], {})).toEqual({ deviceMemoryBytes: null });
    // CUDA has no wide limits yet; interactive use (the studio) never asks
    expect(await readPlanMachine(server, ['cuda'], {})).toEqual({ deviceMemoryBytes: null });
    expect(await readPlanMachine(resolveEngineConfig({}), ['webgpu'], {})).toEqual({ deviceMemoryBytes: null });
    const set = resolveEngineConfig({ workload: 'server', maxRunningSequences: 8, maxPrefillSequences: 4, shapeBuckets: { talkerRows: 8, codePredictorRows: 8 } });
    expect(await readPlanMachine(set, ['webgpu'], {})).toEqual({ deviceMemoryBytes: null });
    expect(fs.existsSync(calls)).toBe(false);
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'no-smi-'));
    expect(await readPlanMachine(server, ['webgpu'], {})).toEqual({ deviceMemoryBytes: null });
  });
});
