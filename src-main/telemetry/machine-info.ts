/**
 * Describes the machine a benchmark ran on: CPU model and cores, memory, OS, and the GPU
 * name / driver / memory from a one-shot nvidia-smi query (null without one).
 * Bounded: the query has a timeout; failures yield nulls, never throw.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';

export interface GpuInfo {
  name: string;
  driverVersion: string;
  memoryTotalMiB: number | null;
}

export interface MachineInfo {
  cpuModel: string;
  numCpuCores: number;
  totalMemoryMiB: number;
  platform: string;
  osRelease: string;
  nodeVersion: string;
  gpu: GpuInfo | null;
}

const GPU_QUERY_TIMEOUT_MS = 5000;

/** One nvidia-smi query of a GPU's name, driver and memory (null without nvidia-smi or a working driver). */
export function readGpuInfo(nvidiaSmiPath: string, gpuIndex: number): Promise<GpuInfo | null> {
  const args = ['--query-gpu=name,driver_version,memory.total', '--format=csv,noheader,nounits', `--id=${gpuIndex}`];
  return new Promise((resolve) => {
    execFile(nvidiaSmiPath, args, { timeout: GPU_QUERY_TIMEOUT_MS }, (err, stdout) => {
      if (err) return resolve(null);
      const fields = String(stdout).trim().split('\n')[0]?.split(',').map((f) => f.trim()) ?? [];
      if (fields.length < 3 || !fields[0]) return resolve(null);
      const memoryTotalMiB = Number(fields[2]);
      resolve({ name: fields[0], driverVersion: fields[1], memoryTotalMiB: Number.isFinite(memoryTotalMiB) ? memoryTotalMiB : null });
    });
  });
}

export async function readMachineInfo(options: { nvidiaSmiPath: string; gpuIndex: number }): Promise<MachineInfo> {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    numCpuCores: cpus.length,
    totalMemoryMiB: Math.round(os.totalmem() / (1024 * 1024)),
    platform: `${os.platform()}-${os.arch()}`,
    osRelease: os.release(),
    nodeVersion: process.version,
    gpu: await readGpuInfo(options.nvidiaSmiPath, options.gpuIndex),
  };
}
