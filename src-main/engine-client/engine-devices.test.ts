/**
 * --devices per provider: DirectML engines get their adapter index as engine config (and so as the
 * provider option of every session), 'auto' asks each provider's lister, WebGPU runs one engine,
 * and a device number past the list fails before any engine starts, naming the ones there are.
 */
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from '../engine/engine-config';
import { stageSessionOptions } from '../engine/create-engine';
import type { ModelManifest } from '../model-format/manifest';
import { bindingOptions } from '../engine/runtime/node-runtime';
import { providerEntries } from '../engine/runtime/capi/capi-runtime';
import { engineDevicesFor } from './engine-devices';

const MANIFEST = { talker: { hiddenSize: 1024 } } as ModelManifest;

describe('engineDevicesFor per provider', () => {
  it('plans one DirectML engine per adapter, each session pinned to its own', () => {
    const devices = engineDevicesFor('0,1', 'dml', {}, { numAdapters: () => 2 });
    expect(devices.map((d) => [d.label, d.env, d.engineConfig])).toEqual([['dml:0', {}, { deviceIndex: 0 }], ['dml:1', {}, { deviceIndex: 1 }]]);
    // what each engine host opens its sessions with (the pool merges the device's config over the shared one)
    const planned = devices.map((d) => stageSessionOptions(MANIFEST, resolveEngineConfig({ provider: 'dml', ...d.engineConfig }), 'dml'));
    expect(planned.map((o) => bindingOptions(o).executionProviders)).toEqual([[{ name: 'dml', deviceId: 0 }], [{ name: 'dml', deviceId: 1 }]]);
    expect(planned.map(providerEntries)).toEqual([[['device_id', '0']], [['device_id', '1']]]);
  });

  it("'auto' takes every device the provider's lister sees", () => {
    expect(engineDevicesFor('auto', 'dml', {}, { numAdapters: () => 3 }).map((d) => d.engineConfig.deviceIndex)).toEqual([0, 1, 2]);
    expect(engineDevicesFor('auto', 'dml', {}, { numAdapters: () => 0 }).map((d) => d.label)).toEqual(['cpu#0']);
    expect(engineDevicesFor('auto', 'webgpu', {}, { numGpus: () => 8 })).toEqual([{ label: 'webgpu', env: {}, engineConfig: {} }]);
    expect(engineDevicesFor('0', 'webgpu')).toEqual([{ label: 'webgpu', env: {}, engineConfig: {} }]);
  });

  it("with provider 'auto' counts and pins devices as the provider table's deviceFactsFor('auto') says (nvidia-smi, CUDA_VISIBLE_DEVICES)", () => {
    expect(engineDevicesFor('auto', 'auto', {}, { numGpus: () => 2 })).toEqual([
      { label: 'gpu:0', env: { CUDA_VISIBLE_DEVICES: '0' }, engineConfig: {} },
      { label: 'gpu:1', env: { CUDA_VISIBLE_DEVICES: '1' }, engineConfig: {} },
    ]);
    expect(engineDevicesFor('auto', 'auto', {}, { numGpus: () => 0 }).map((d) => d.label)).toEqual(['cpu#0']);
  });

  it('refuses a device number past the list, naming the devices there are and the fix', () => {
    expect(() => engineDevicesFor('0,3', 'dml', {}, { numAdapters: () => 2 })).toThrow("--devices names device 3, but Windows lists 2 display adapters (0–1); use --devices 0,1 or --devices auto");
    expect(() => engineDevicesFor('1', 'cuda', {}, { numGpus: () => 1 })).toThrow('--devices names device 1, but nvidia-smi lists 1 GPU (0); use --devices 0 or --devices auto');
    // no lister answer (no driver tool): not checked here; ORT names the device when it opens it
    expect(engineDevicesFor('5', 'cuda', {}, { numGpus: () => 0 }).map((d) => d.env.CUDA_VISIBLE_DEVICES)).toEqual(['5']);
  });
});
