// The start-up line "provider: … — why; faster: …" over fake probes: CPU only, NVIDIA without the CUDA provider,
// CUDA ready, its libraries missing, an explicit choice, a failed candidate, and CUDA ranked first.
import { describe, expect, it } from 'vitest';
import { resolveEngineConfig } from './engine-config';
import { resolveConcurrency } from './engine-plan';
import { planProviders } from './provider-select';
import { describeProviderSummary } from './provider-summary';
import type { ProviderProbe } from './runtime/provider-probe';
import { LINUX_NO_GPU } from './testing/fake-probes';

const CPU_ONLY: ProviderProbe = LINUX_NO_GPU;
const NVIDIA_NO_CUDA: ProviderProbe = { ...CPU_ONLY, hasNvidiaDevice: true };
const CUDA_READY: ProviderProbe = { ...NVIDIA_NO_CUDA, installed: { cuda: true } };
const AUTO = 'auto: the first of DirectML > WebGPU > CUDA > CPU that runs here';

/** The provider auto runs on this probe: its first candidate (createEngine opens them in this order). */
function autoPick(probe: ProviderProbe) {
  return planProviders('auto', probe, 'fp16').candidates[0].provider;
}

describe('provider summary line', () => {
  it('on a CPU-only machine runs the CPU and names the missing GPU as what a faster provider needs', () => {
    expect(autoPick(CPU_ONLY)).toBe('cpu');
    expect(describeProviderSummary({ choice: 'auto', provider: 'cpu', probe: CPU_ONLY })).toBe(
      `provider: CPU — ${AUTO}; faster: WebGPU — no GPU device node (/dev/dri/renderD*, /dev/nvidiactl), CUDA — no NVIDIA device (/dev/nvidiactl missing)`,
    );
  });

  it('on an NVIDIA machine without the CUDA provider runs WebGPU and says how to install CUDA', () => {
    expect(autoPick(NVIDIA_NO_CUDA)).toBe('webgpu');
    expect(describeProviderSummary({ choice: 'auto', provider: 'webgpu', probe: NVIDIA_NO_CUDA })).toBe(
      `provider: WebGPU — ${AUTO}; faster: none here; also possible: CUDA (install it with npm run setup:cuda)`,
    );
  });

  it('names CUDA as the faster provider to install when the table ranks it before WebGPU', () => {
    const order = ['dml', 'cuda', 'webgpu', 'cpu'] as const;
    expect(describeProviderSummary({ choice: 'auto', provider: 'webgpu', probe: NVIDIA_NO_CUDA, order })).toBe(
      'provider: WebGPU — auto: the first of DirectML > CUDA > WebGPU > CPU that runs here; faster: CUDA — install it with npm run setup:cuda',
    );
  });

  it('with CUDA ready has nothing to add, whichever of the two runs', () => {
    expect(autoPick(CUDA_READY)).toBe('webgpu');
    expect(describeProviderSummary({ choice: 'auto', provider: 'webgpu', probe: CUDA_READY })).toBe(`provider: WebGPU — ${AUTO}; faster: none here`);
    expect(describeProviderSummary({ choice: 'auto', provider: 'cuda', probe: CUDA_READY, order: ['dml', 'cuda', 'webgpu', 'cpu'] })).toBe(
      'provider: CUDA — auto: the first of DirectML > CUDA > WebGPU > CPU that runs here; faster: none here',
    );
  });

  it('on an explicit CUDA choice names the faster provider that runs here', () => {
    expect(describeProviderSummary({ choice: 'cuda', provider: 'cuda', probe: CUDA_READY })).toBe(
      "provider: CUDA — requested (provider 'cuda'); faster: WebGPU — runs here too",
    );
  });

  it('passes on what the CUDA libraries lack when the provider is installed but they do not load', () => {
    const cudaProblem = 'CUDA 13 libraries not found: libcublas.so.13 (searched /usr/local/cuda/lib64); point STUDIO_CUDA_LIB_PATH at the folder that holds them';
    const line = describeProviderSummary({ choice: 'auto', provider: 'webgpu', probe: { ...CUDA_READY, libraryProblems: { cuda: cudaProblem } } });
    expect(line).toBe(`provider: WebGPU — ${AUTO}; faster: none here; also possible: CUDA (${cudaProblem})`);
  });

  it('says which faster candidate failed to open the model', () => {
    expect(describeProviderSummary({ choice: 'auto', provider: 'cuda', probe: CUDA_READY, failed: ['webgpu'] })).toBe(
      `provider: CUDA — ${AUTO} (WebGPU failed to open the model); faster: WebGPU — failed to open the model (see the log above)`,
    );
  });

  it('leaves out a provider that cannot exist here and keeps to one line', () => {
    const line = describeProviderSummary({ choice: 'auto', provider: 'cpu', probe: CPU_ONLY });
    expect(line).not.toMatch(/DirectML —|Windows/);
    expect(line).not.toContain('\n');
  });

  it('names the concurrency the plan picked: wide where the device memory allows, the narrow defaults on a small device', () => {
    const facts = { talker: { numLayers: 28, numKvHeads: 8, headDim: 128 }, dtype: 'fp16' as const };
    const limits = resolveEngineConfig({ workload: 'server' });
    const wide = resolveConcurrency(limits, 'webgpu', facts, { deviceMemoryBytes: 80 * 1024 ** 3 });
    expect(describeProviderSummary({ choice: 'webgpu', provider: 'webgpu', probe: CUDA_READY, concurrency: wide })).toMatch(/; concurrency: wide, 64 running, 16 prefilled a step, 64-row talker \/ 64-row code predictor buckets \(WebGPU with 80\.0 GiB/);
    // the CPU runs no shape buckets: its row counts are not named
    const cpu = resolveConcurrency(limits, 'cpu', facts, { deviceMemoryBytes: null });
    expect(describeProviderSummary({ choice: 'auto', provider: 'cpu', probe: CPU_ONLY, concurrency: cpu, shapeBuckets: 'off' })).toMatch(/; concurrency: narrow, 8 running, 4 prefilled a step, no shape buckets \(CPU has no wide limits in the provider table\)$/);
    const narrow = resolveConcurrency(limits, 'webgpu', facts, { deviceMemoryBytes: 16 * 1024 ** 3 });
    expect(describeProviderSummary({ choice: 'webgpu', provider: 'webgpu', probe: CUDA_READY, concurrency: narrow })).toMatch(/; concurrency: narrow, 8 running, 4 prefilled a step, 8-row talker \/ 8-row code predictor buckets \(64 sequences of 4096 tokens need 28\.0 GiB/);
  });
});
