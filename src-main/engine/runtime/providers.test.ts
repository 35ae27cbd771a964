/** The provider table's derived answers (what 'auto' counts and pins devices like) and its agreement with src-shared's names. */
import { describe, expect, it } from 'vitest';
import { PROVIDER_CHOICES, PROVIDER_LABELS } from '../../../src-shared/provider-names';
import { deviceFactsFor, hasRequiredDevice, PROVIDER_NAMES, PROVIDERS } from './providers';

describe('deviceFactsFor', () => {
  it("gives a provider its own device facts and 'auto' those of the best-ranked lister on every platform (CUDA)", () => {
    expect(deviceFactsFor('dml')).toBe(PROVIDERS.dml.devices);
    expect(deviceFactsFor('webgpu')).toEqual({ lister: null, perEngine: 'one-adapter' });
    expect(deviceFactsFor('auto')).toEqual({ lister: 'nvidia-smi', perEngine: 'visible-env' });
    expect(deviceFactsFor('auto')).toBe(PROVIDERS.cuda.devices);
  });

  it('pins a name the table lacks by CUDA_VISIBLE_DEVICES without a lister', () => {
    expect(deviceFactsFor('metal')).toEqual({ lister: null, perEngine: 'visible-env' });
  });
});

describe('the provider names in src-shared', () => {
  it('name every provider of the table, in its order, with its label', () => {
    expect(Object.keys(PROVIDER_LABELS)).toEqual(PROVIDER_NAMES);
    expect(PROVIDER_NAMES.map((p) => PROVIDER_LABELS[p])).toEqual(PROVIDER_NAMES.map((p) => PROVIDERS[p].label));
    expect(PROVIDER_CHOICES).toEqual(['auto', ...PROVIDER_NAMES]);
  });
});

describe('hasRequiredDevice', () => {
  const BARE_LINUX = { platform: 'linux' as const, hasNvidiaDevice: false, hasRenderNode: false };
  it("reads each provider's requires.device: an NVIDIA node for CUDA, any GPU node (or Windows/macOS) for WebGPU, nothing for the CPU and DirectML", () => {
    expect(PROVIDER_NAMES.filter((p) => hasRequiredDevice(PROVIDERS[p].requires.device, BARE_LINUX))).toEqual(['cpu', 'dml']);
    expect(PROVIDER_NAMES.filter((p) => hasRequiredDevice(PROVIDERS[p].requires.device, { ...BARE_LINUX, hasRenderNode: true }))).toEqual(['cpu', 'webgpu', 'dml']);
    expect(PROVIDER_NAMES.filter((p) => hasRequiredDevice(PROVIDERS[p].requires.device, { ...BARE_LINUX, hasNvidiaDevice: true }))).toEqual(PROVIDER_NAMES);
    expect(hasRequiredDevice('gpu', { ...BARE_LINUX, platform: 'win32' })).toBe(true);
  });
});
