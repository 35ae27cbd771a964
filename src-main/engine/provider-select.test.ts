// Provider planning over fake probes: auto's ranking and reasons, explicit choices, fp16 on CPU.
import { describe, expect, it } from 'vitest';
import { buildDtypeFor, planProviders } from './provider-select';
import { probeCudaLibraries } from './runtime/provider-probe';
import { LINUX_NO_GPU } from './testing/fake-probes';


describe('provider selection', () => {
  it('picks cpu on a Linux box without a GPU and says why the others were skipped', () => {
    const plan = planProviders('auto', LINUX_NO_GPU, 'fp32');
    expect(plan.candidates.map((c) => c.provider)).toEqual(['cpu']);
    expect(plan.candidates[0].reason).toMatch(/CUDA provider \(libonnxruntime_providers_cuda\.so\) is not installed; run 'npm run setup:cuda'/);
    expect(plan.candidates[0].reason).toMatch(/dml: not in this onnxruntime-node build/);
    expect(plan.candidates[0].reason).toMatch(/no GPU device node/);
  });

  it('takes webgpu, then cuda, then cpu on an NVIDIA Linux box with CUDA installed (the measured order of speed)', () => {
    const probe = { ...LINUX_NO_GPU, installed: { cuda: true }, hasNvidiaDevice: true };
    const plan = planProviders('auto', probe, 'fp32');
    expect(plan.candidates.map((c) => c.provider)).toEqual(['webgpu', 'cuda', 'cpu']);
    expect(plan.skipped.filter((s) => s.startsWith('cuda:'))).toEqual([]);
    expect(planProviders('cuda', probe, 'fp32').candidates.map((c) => c.provider)).toEqual(['cuda']);
  });

  it('skips cuda when its CUDA 13 libraries do not load, saying what is missing, and keeps webgpu and cpu', () => {
    const problem = 'CUDA 13 libraries not found: libcublas.so.13 (searched /usr/local/cuda/lib64); point STUDIO_CUDA_LIB_PATH at the folder that holds them';
    const probe = { ...LINUX_NO_GPU, installed: { cuda: true }, hasNvidiaDevice: true, libraryProblems: { cuda: problem } };
    const plan = planProviders('auto', probe, 'fp16');
    expect(plan.candidates.map((c) => c.provider)).toEqual(['webgpu', 'cpu']);
    expect(plan.skipped).toContain(`cuda: ${problem}`);
    expect(plan.candidates[1].reason).toContain('libcublas.so.13');
    expect(() => planProviders('cuda', probe, 'fp16')).toThrow(/cannot run here: cuda: CUDA 13 libraries not found/);
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

  it('runs webgpu on a software Vulkan driver only when asked for explicitly; auto skips it, saying why', () => {
    const probe = { ...LINUX_NO_GPU, hasSoftwareVulkan: true };
    const plan = planProviders('auto', probe, 'fp16');
    expect(plan.candidates.map((c) => c.provider)).toEqual(['cpu']);
    expect(plan.skipped.join('; ')).toMatch(/only a software Vulkan driver \(lavapipe\).*ask for webgpu explicitly/);
    expect(planProviders('webgpu', probe, 'fp16').candidates.map((c) => c.provider)).toEqual(['webgpu']);
    expect(() => planProviders('webgpu', LINUX_NO_GPU, 'fp16')).toThrow(/no GPU device node/);
  });

  it('falls back to cpu for an fp16 build when no GPU provider can run', () => {
    expect(planProviders('auto', LINUX_NO_GPU, 'fp16').candidates.map((c) => c.provider)).toEqual(['cpu']);
  });

  it('names a CUDA provider built for another ONNX Runtime version and how to pair them', () => {
    expect(probeCudaLibraries('1.30.0')).toBe(
      "the installed CUDA provider is built for ONNX Runtime 1.29.0, the core is 1.30.0; run 'npm ci' (onnxruntime-node is pinned to 1.29.0) then 'npm run setup:cuda'",
    );
  });

  it("builds a provider's preferred dtype, fp32 for 'auto' (its last resort, the CPU, runs fp32) and fp16 for a name the table lacks", () => {
    expect(buildDtypeFor('auto')).toBe('fp32');
    expect(buildDtypeFor('cpu')).toBe('fp32');
    expect(buildDtypeFor('webgpu')).toBe('fp16');
    expect(buildDtypeFor('cuda')).toBe('fp16');
    expect(buildDtypeFor('dml')).toBe('fp16');
    expect(buildDtypeFor('metal')).toBe('fp16');
  });

  it("reads a provider's install and library facts under its own key: another provider's problem does not skip cuda", () => {
    const probe = { ...LINUX_NO_GPU, installed: { cuda: true }, hasNvidiaDevice: true, libraryProblems: { webgpu: 'not cuda' } };
    expect(planProviders('auto', probe, 'fp32').candidates.map((c) => c.provider)).toEqual(['webgpu', 'cuda', 'cpu']);
  });
});
