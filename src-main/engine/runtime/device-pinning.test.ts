/**
 * Device pinning reaches ORT: an engine config's deviceIndex becomes every stage's session option
 * and, per adapter, the provider option ORT reads (DirectML/CUDA: deviceId on the binding,
 * device_id on the C API); WebGPU refuses any adapter but its own pick, naming the fix.
 */
import { describe, expect, it } from 'vitest';
import type { ModelManifest } from '../../model-format/manifest';
import { resolveEngineConfig } from '../engine-config';
import { stageSessionOptions } from '../create-engine';
import { pinnedProviderOptions } from './device-pinning';
import { bindingOptions } from './node-runtime';
import { providerEntries } from './capi/capi-runtime';

const MANIFEST = { talker: { hiddenSize: 1024 } } as ModelManifest;

describe('device pinning', () => {
  it('names the device the way each adapter passes it to DirectML and CUDA', () => {
    expect(pinnedProviderOptions('dml', 1, 'node')).toEqual({ deviceId: 1 });
    expect(pinnedProviderOptions('dml', 1, 'c-api')).toEqual({ device_id: '1' });
    expect(pinnedProviderOptions('cuda', 2, 'c-api')).toEqual({ device_id: '2' });
    expect(pinnedProviderOptions('dml', -1, 'node')).toEqual({});
    expect(pinnedProviderOptions('cpu', 3, 'c-api')).toEqual({});
  });

  it("takes WebGPU's own adapter as device 0 and refuses another with the fix", () => {
    expect(pinnedProviderOptions('webgpu', 0, 'c-api')).toEqual({});
    expect(() => pinnedProviderOptions('webgpu', 1, 'node')).toThrow(/cannot be pinned to adapter 1.*use --provider dml \(Windows\) or cuda/);
  });

  it("carries the engine config's deviceIndex into the stage session options and the provider options ORT gets", () => {
    const options = stageSessionOptions(MANIFEST, resolveEngineConfig({ deviceIndex: 1 }), 'dml');
    expect(options).toEqual({ provider: 'dml', deviceIndex: 1 });
    expect(bindingOptions(options).executionProviders).toEqual([{ name: 'dml', deviceId: 1 }]);
    expect(providerEntries(options)).toEqual([['device_id', '1']]);
    // given provider options stay, the pin joins them
    expect(providerEntries({ provider: 'cuda', deviceIndex: 2, providerOptions: { enable_cuda_graph: '1' } })).toEqual([['enable_cuda_graph', '1'], ['device_id', '2']]);
  });

  it('pins nothing where the config does not ask, or the candidate is the CPU', () => {
    expect(stageSessionOptions(MANIFEST, resolveEngineConfig({}), 'dml')).toEqual({ provider: 'dml' });
    expect(stageSessionOptions(MANIFEST, resolveEngineConfig({ deviceIndex: 1 }), 'cpu')).toEqual({ provider: 'cpu' });
    expect(bindingOptions({ provider: 'cpu' }).executionProviders).toEqual(['cpu']);
    expect(() => resolveEngineConfig({ deviceIndex: -2 })).toThrow(/deviceIndex' must be an integer ≥ -1/);
  });
});
