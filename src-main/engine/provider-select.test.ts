// Provider planning over fake probes: auto's ranking and reasons, explicit choices, fp16 on CPU.
import { describe, expect, it } from 'vitest';
import { planProviders, type ProviderProbe } from './provider-select';

const LINUX_NO_GPU: ProviderProbe = {
  platform: 'linux',
  backends: ['cpu', 'webgpu', 'cuda', 'tensorrt'],
  cudaLibraryInstalled: false,
  hasNvidiaDevice: false,
  hasRenderNode: false,
};

describe('provider selection', () => {
  it('picks cpu on a Linux box without a GPU and says why the others were skipped', () => {
    const plan = planProviders('auto', LINUX_NO_GPU, 'fp32');
    expect(plan.candidates.map((c) => c.provider)).toEqual(['cpu']);
    expect(plan.candidates[0].reason).toMatch(/libonnxruntime_providers_cuda\.so is not installed/);
    expect(plan.candidates[0].reason).toMatch(/dml: not in this onnxruntime-node build/);
    expect(plan.candidates[0].reason).toMatch(/no GPU device node/);
  });

  it('ranks cuda first, then webgpu, then cpu on an NVIDIA Linux box with CUDA installed', () => {
    const probe = { ...LINUX_NO_GPU, cudaLibraryInstalled: true, hasNvidiaDevice: true };
    expect(planProviders('auto', probe, 'fp32').candidates.map((c) => c.provider)).toEqual(['cuda', 'webgpu', 'cpu']);
  });

  it('ranks dml first on Windows', () => {
    const probe = { ...LINUX_NO_GPU, platform: 'win32' as const, backends: ['cpu', 'webgpu', 'dml'] };
    expect(planProviders('auto', probe, 'fp16').candidates.map((c) => c.provider)).toEqual(['dml', 'webgpu', 'cpu']);
  });

  it('keeps cpu as the last candidate for fp16 graphs and prefers fp16 builds on GPU providers only', () => {
    const probe = { ...LINUX_NO_GPU, hasRenderNode: true };
    const plan = planProviders('auto', probe, 'fp16');
    expect(plan.candidates.map((c) => [c.provider, c.preferredDtype])).toEqual([['webgpu', 'fp16'], ['cpu', 'fp32']]);
  });

  it('rejects an explicit provider that cannot run, listing the ones that can', () => {
    expect(() => planProviders('cuda', LINUX_NO_GPU, 'fp32')).toThrow(/provider 'cuda' cannot run here/);
    try {
      planProviders('dml', LINUX_NO_GPU, 'fp32');
    } catch (err) {
      expect((err as { details: { validValues: string[] } }).details.validValues).toEqual(['cpu']);
    }
  });

  it('falls back to cpu for an fp16 build when no GPU provider can run', () => {
    expect(planProviders('auto', LINUX_NO_GPU, 'fp16').candidates.map((c) => c.provider)).toEqual(['cpu']);
  });
});
