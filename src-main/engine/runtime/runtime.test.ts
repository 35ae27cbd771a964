// Adapter choice by capability: options the binding passes stay on the preferred adapter; provider
// options it would drop, or device-resident outputs, move the session to the adapter that has them.
import { describe, expect, it } from 'vitest';
import { boundBufferLocation, PROVIDERS } from './providers';
import { CAPI_CAPABILITIES, chooseRuntime, defaultRuntimeName, requiredCapabilities, type RuntimeCapabilities } from './runtime';

const NODE: RuntimeCapabilities = { arbitraryProviderOptions: false, deviceOutputs: true, ioBinding: false, runConfig: false };
const BOTH = [{ name: 'node' as const, capabilities: NODE }, { name: 'c-api' as const, capabilities: CAPI_CAPABILITIES }];

describe('ONNX Runtime adapter choice', () => {
  it('needs nothing for plain CPU options and keeps the preferred adapter', () => {
    expect(requiredCapabilities({ provider: 'cpu', intraOpNumThreads: 1 })).toEqual([]);
    expect(chooseRuntime({ provider: 'cpu' }, 'node', BOTH).name).toBe('node');
    expect(chooseRuntime({ provider: 'cpu' }, 'c-api', BOTH).name).toBe('c-api');
  });

  it('keeps WebGPU options the binding knows on the binding', () => {
    expect(requiredCapabilities({ provider: 'webgpu', providerOptions: { validationMode: 'disabled' } })).toEqual([]);
  });

  it('moves enableGraphCapture (WebGPU) and enable_cuda_graph (CUDA) to the C-API adapter, saying why', () => {
    const capture = chooseRuntime({ provider: 'webgpu', providerOptions: { enableGraphCapture: '1' } }, 'node', BOTH);
    expect(capture).toEqual({ name: 'c-api', reason: 'c-api: the options need arbitraryProviderOptions, which node lacks' });
    expect(chooseRuntime({ provider: 'cuda', providerOptions: { enable_cuda_graph: '1' } }, 'node', BOTH).name).toBe('c-api');
  });

  it('keeps device-resident outputs on the binding, and refuses options no adapter covers', () => {
    expect(chooseRuntime({ provider: 'webgpu', gpuOutputs: ['present_0'] }, 'c-api', BOTH).name).toBe('node');
    const none = chooseRuntime({ provider: 'webgpu', gpuOutputs: ['p'], providerOptions: { enableGraphCapture: '1' } }, 'node', BOTH);
    expect(none.name).toBeNull();
    expect(none.reason).toMatch(/no ONNX Runtime adapter has arbitraryProviderOptions, deviceOutputs/);
  });

  it('sends sessions run through IoBinding (the captured forms) to the C-API adapter, on CPU too', () => {
    expect(requiredCapabilities({ provider: 'cpu', ioBinding: true })).toEqual(['ioBinding', 'runConfig']);
    expect(chooseRuntime({ provider: 'cpu', ioBinding: true }, 'node', BOTH)).toEqual({ name: 'c-api', reason: 'c-api: the options need ioBinding, runConfig, which node lacks' });
    expect(chooseRuntime({ provider: 'cpu', ioBinding: true }, 'node', [BOTH[0]]).name).toBeNull();
  });

  it('knows each provider\'s capture option and where its bound buffers live', () => {
    expect(PROVIDERS.cuda.graphCapture.options).toEqual({ enable_cuda_graph: '1' });
    expect(PROVIDERS.webgpu.graphCapture.options).toEqual({ enableGraphCapture: '1' });
    expect(PROVIDERS.cpu.graphCapture.options).toBeNull();
    expect(boundBufferLocation('cpu')).toBe('cpu');
    expect(boundBufferLocation('cuda')).toBe('device');
    expect(boundBufferLocation('webgpu')).toBe('device');
  });

  it('defaults to the binding unless STUDIO_ORT_RUNTIME=c-api', () => {
    expect(defaultRuntimeName({})).toBe('node');
    expect(defaultRuntimeName({ STUDIO_ORT_RUNTIME: 'c-api' })).toBe('c-api');
    expect(defaultRuntimeName({ STUDIO_ORT_RUNTIME: 'other' })).toBe('node');
  });
});
