/**
 * `--devices`: which engine hosts the pool starts. '0,1' names devices (CUDA: one engine per GPU,
 * each seeing only its own through CUDA_VISIBLE_DEVICES; DirectML: the adapter index as the engine
 * config's deviceIndex, a provider option; WebGPU: one engine, ORT 1.29 cannot pin its adapter; CPU:
 * one process per entry with the cores split); 'auto' takes every device the provider's lister
 * sees (nvidia-smi, the Windows display adapters), or one engine. A number past the list is refused.
 * Runs in the process that supervises engine hosts (engine-client/; see docs/architecture.md).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { StudioError } from '../../src-shared/errors';
import { deviceFactsFor, findProvider } from '../engine/runtime/providers';

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

/** Counts the hardware display adapters Windows lists (DirectML's candidates); 0 elsewhere or when the query fails. */
export function countDisplayAdapters(): number {
  if (process.platform !== 'win32') return 0;
  try {
    const script = "@(Get-CimInstance Win32_VideoController | Where-Object { $_.PNPDeviceID -notlike 'ROOT\\*' }).Count";
    return Number(execFileSync('powershell.exe', ['-NoProfile', '-Command', script], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 0;
  } catch {
    return 0;
  }
}

/** How many devices the provider's lister sees (0: none, or no lister: one engine, unpinned). */
function numDevicesOf(provider: string, probe: DeviceProbe): number {
  switch (deviceFactsFor(provider).lister) {
    case 'nvidia-smi':
      return (probe.numGpus ?? countNvidiaGpus)();
    case 'display-adapters':
      return (probe.numAdapters ?? countDisplayAdapters)();
    case null:
      return 0; // cpu: processes, not devices; webgpu: one adapter it picks itself
  }
}

export interface DeviceProbe {
  numCpuCores?: number;
  /** NVIDIA GPUs (nvidia-smi). */
  numGpus?: () => number;
  /** DirectML adapters (Windows display adapters). */
  numAdapters?: () => number;
}

/**
 * The engines for a --devices value and provider. The probe's counts are injectable for tests.
 * An explicit intraOpNumThreads in `engineConfig` wins over the CPU split.
 */
export function engineDevicesFor(spec: string | undefined, provider: string, engineConfig: Record<string, unknown> = {}, probe: DeviceProbe = {}): EngineDevice[] {
  const value = (spec ?? '').trim();
  if (value === '') return [{ label: 'default', env: {}, engineConfig: {} }];
  let ids: string[];
  if (value === 'auto') {
    const numDevices = numDevicesOf(provider, probe);
    if (numDevices === 0) return [{ label: deviceFactsFor(provider).perEngine === 'one-adapter' ? provider : 'cpu#0', env: {}, engineConfig: {} }];
    ids = Array.from({ length: numDevices }, (_, i) => String(i));
  } else {
    ids = value.split(',').map((s) => s.trim());
    if (ids.some((id) => !/^\d{1,3}$/.test(id)) || new Set(ids).size !== ids.length || ids.length > 64) {
      throw new StudioError('invalid-argument', `--devices must be 'auto' or distinct device numbers like 0,1; got '${value}'`, { field: 'devices', value });
    }
    checkDevicesExist(ids, provider, probe);
  }
  const { perEngine } = deviceFactsFor(provider);
  if (perEngine === 'one-adapter') {
    if (ids.length > 1 || ids[0] !== '0') {
      throw new StudioError('unsupported', `--devices ${value} with --provider ${provider}: ONNX Runtime 1.29's ${findProvider(provider)?.label ?? provider} provider always takes Dawn's high-performance adapter and cannot be pinned to another; use --devices 0 (or leave it out), or --provider dml (Windows) or cuda (NVIDIA) for one engine per GPU`, { field: 'devices', value });
    }
    return [{ label: provider, env: {}, engineConfig: {} }];
  }
  if (perEngine === 'device-index') return ids.map((id) => ({ label: `${provider}:${id}`, env: {}, engineConfig: { deviceIndex: Number(id) } }));
  if (perEngine === 'visible-env') return ids.map((id) => ({ label: `gpu:${id}`, env: { CUDA_VISIBLE_DEVICES: id }, engineConfig: {} }));
  const numCores = probe.numCpuCores ?? os.availableParallelism();
  const threads = Math.max(1, Math.floor(numCores / ids.length));
  const pinned = typeof engineConfig.intraOpNumThreads === 'number' && engineConfig.intraOpNumThreads > 0;
  return ids.map((id) => ({ label: `cpu#${id}`, env: {}, engineConfig: pinned ? {} : { intraOpNumThreads: threads } }));
}

/** A device number past what the provider's lister sees fails here, naming the ones there are (no lister answer: not checked). */
function checkDevicesExist(ids: readonly string[], provider: string, probe: DeviceProbe): void {
  const facts = deviceFactsFor(provider);
  if (facts.lister === null) return;
  const numDevices = numDevicesOf(provider, probe);
  const missing = ids.find((id) => Number(id) >= numDevices);
  if (numDevices === 0 || missing === undefined) return;
  const lister = facts.lister === 'display-adapters' ? 'Windows lists' : 'nvidia-smi lists';
  const kind = facts.lister === 'display-adapters' ? 'display adapter' : 'GPU';
  throw new StudioError(
    'invalid-argument',
    `--devices names device ${missing}, but ${lister} ${numDevices} ${kind}${numDevices === 1 ? '' : 's'} (${numDevices === 1 ? '0' : `0–${numDevices - 1}`}); use --devices ${Array.from({ length: numDevices }, (_, i) => i).join(',')} or --devices auto`,
    { field: 'devices', value: ids.join(','), numDevices },
  );
}
