// Tests for the long-running nvidia-smi sampler: missing binary, a replayed recording, a failing driver.
import { describe, expect, it } from 'vitest';
import { createGpuSampler, defaultNvidiaSmiArgs, NO_NVIDIA_SMI_REASON } from './gpu-sampler';

const clock = (() => {
  const t0 = performance.now();
  return () => performance.now() - t0;
})();

describe('createGpuSampler', () => {
  it('reports "no NVIDIA GPU telemetry (nvidia-smi not found)" and no samples when the binary is missing', async () => {
    const sampler = createGpuSampler({ command: '/nonexistent/nvidia-smi', intervalMs: 250, gpuIndex: 0, clock });
    await sampler.start();
    expect(sampler.available()).toBe(false);
    expect(sampler.unavailableReason()).toBe(NO_NVIDIA_SMI_REASON);
    expect(sampler.samples).toHaveLength(0);
    sampler.dispose();
  });

  it('streams samples from a long-running process, stamped with the caller clock', async () => {
    // a stand-in for nvidia-smi that prints one recorded line every 20 ms, then stays alive
    const script = `const lines=['5, 900, 143771','[N/A], 950, 143771','60, 1000, 143771'];let i=0;const t=setInterval(()=>{if(i<lines.length)process.stdout.write(lines[i++]+'\\n');},20);setTimeout(()=>clearInterval(t),5000);`;
    const sampler = createGpuSampler({ command: process.execPath, args: ['-e', script], intervalMs: 20, gpuIndex: 0, clock });
    const before = clock();
    await sampler.start();
    await new Promise((r) => setTimeout(r, 300));
    sampler.dispose();
    expect(sampler.available()).toBe(true);
    expect(sampler.samples.map((s) => s.memoryUsedMiB)).toEqual([900, 950, 1000]);
    expect(sampler.samples[1].utilizationGpuPct).toBeNull();
    expect(sampler.samples[0].tMs).toBeGreaterThanOrEqual(before);
    expect(sampler.samples[2].tMs).toBeGreaterThan(sampler.samples[0].tMs);
  });

  it('reports the driver error when nvidia-smi exits without output', async () => {
    const script = `process.stderr.write("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\\n");process.exit(9);`;
    const sampler = createGpuSampler({ command: process.execPath, args: ['-e', script], intervalMs: 250, gpuIndex: 0, clock });
    await sampler.start();
    expect(sampler.available()).toBe(false);
    expect(sampler.unavailableReason()).toContain('exited with code 9');
    expect(sampler.unavailableReason()).toContain("couldn't communicate");
    sampler.dispose();
  });

  it('asks nvidia-smi for exactly the three fields at the interval on one GPU', () => {
    expect(defaultNvidiaSmiArgs(250, 1)).toEqual([
      '--query-gpu=utilization.gpu,memory.used,memory.total',
      '--format=csv,noheader,nounits',
      '-lms',
      '250',
      '--id=1',
    ]);
  });
});
