/**
 * `--devices`: which engine hosts the pool starts. '0,1' names devices (a GPU provider: one engine
 * per GPU, each seeing only its own through CUDA_VISIBLE_DEVICES; CPU: one process per entry with
 * the cores split between them); 'auto' takes every GPU nvidia-smi lists, or one CPU engine.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { StudioError } from '../../src-shared/errors';

/** One engine host of the pool: its label, environment and engine-config overrides. */
export interface EngineDevice {
  label: string;
  env: Record<string, string>;
  engineConfig: Record<string, unknown>;
}

/** Counts the GPUs nvidia-smi lists (0 when there is no NVIDIA driver). */
export function countNvidiaGpus(): number {
  try {
    return execFileSync('nvidia-smi', ['-L'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((l) => l.startsWith('GPU ')).length;
  } catch {
    return 0;
  }
}

/**
 * The engines for a --devices value and provider. `numCpuCores` and `numGpus` are injectable for
 * tests. An explicit intraOpNumThreads in `engineConfig` wins over the CPU split.
 */
export function engineDevicesFor(
  spec: string | undefined,
  provider: string,
  engineConfig: Record<string, unknown> = {},
  probe: { numCpuCores?: number; numGpus?: () => number } = {},
): EngineDevice[] {
  const value = (spec ?? '').trim();
  if (value === '') return [{ label: 'default', env: {}, engineConfig: {} }];
  const gpuProvider = provider === 'cuda' || provider === 'auto';
  let ids: string[];
  if (value === 'auto') {
    const numGpus = gpuProvider ? (probe.numGpus ?? countNvidiaGpus)() : 0;
    if (numGpus === 0) return [{ label: 'cpu#0', env: {}, engineConfig: {} }];
    ids = Array.from({ length: numGpus }, (_, i) => String(i));
  } else {
    ids = value.split(',').map((s) => s.trim());
    if (ids.some((id) => !/^\d{1,3}$/.test(id)) || new Set(ids).size !== ids.length || ids.length > 64) {
      throw new StudioError('invalid-argument', `--devices must be 'auto' or distinct device numbers like 0,1; got '${value}'`, { field: 'devices', value });
    }
  }
  const onCpu = provider === 'cpu';
  if (!onCpu) {
    if (provider !== 'cuda' && provider !== 'auto' && ids.length > 1) {
      throw new StudioError('unsupported', `--devices with several entries needs provider cuda or cpu; ${provider} picks its adapter itself`, { field: 'devices', value });
    }
    return ids.map((id) => ({ label: `gpu:${id}`, env: { CUDA_VISIBLE_DEVICES: id }, engineConfig: {} }));
  }
  const numCores = probe.numCpuCores ?? os.availableParallelism();
  const threads = Math.max(1, Math.floor(numCores / ids.length));
  const pinned = typeof engineConfig.intraOpNumThreads === 'number' && engineConfig.intraOpNumThreads > 0;
  return ids.map((id) => ({ label: `cpu#${id}`, env: {}, engineConfig: pinned ? {} : { intraOpNumThreads: threads } }));
}
