/**
 * GPU utilisation and memory sampler: one long-running `nvidia-smi … -lms <interval>` child
 * process, its stdout parsed as a stream and each line stamped with the caller's clock.
 * Without nvidia-smi (or without a working driver) it reports why and yields no samples — never zeros.
 * It restarts a crashed nvidia-smi a bounded number of times; dispose() kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createLineSplitter, NVIDIA_SMI_QUERY_FIELDS, parseNvidiaSmiLine, type GpuSample } from './nvidia-smi-parser';

export const NO_NVIDIA_SMI_REASON = 'no NVIDIA GPU telemetry (nvidia-smi not found)';

export interface GpuSamplerOptions {
  /** Executable to run; tests point this at a script that replays recorded output. */
  command: string;
  /** Replaces the nvidia-smi argument list (tests); default is the query in NVIDIA_SMI_QUERY_FIELDS. */
  args?: string[];
  intervalMs: number;
  gpuIndex: number;
  /** ms since run start. */
  clock: () => number;
  maxRestarts?: number;
  /** How long start() waits for the process to prove it works (first line or exit). */
  startTimeoutMs?: number;
}

export interface GpuSampler {
  /** Resolves once the first reading arrived, the process failed, or startTimeoutMs passed. */
  start(): Promise<void>;
  readonly samples: readonly GpuSample[];
  available(): boolean;
  /** Null while available; otherwise a sentence for the report. */
  unavailableReason(): string | null;
  dispose(): void;
}

export function defaultNvidiaSmiArgs(intervalMs: number, gpuIndex: number): string[] {
  return [
    `--query-gpu=${NVIDIA_SMI_QUERY_FIELDS.join(',')}`,
    '--format=csv,noheader,nounits',
    `-lms`,
    String(Math.max(1, Math.round(intervalMs))),
    `--id=${gpuIndex}`,
  ];
}

export function createGpuSampler(options: GpuSamplerOptions): GpuSampler {
  const samples: GpuSample[] = [];
  const maxRestarts = options.maxRestarts ?? 3;
  const args = options.args ?? defaultNvidiaSmiArgs(options.intervalMs, options.gpuIndex);
  let child: ChildProcess | null = null;
  let reason: string | null = 'GPU telemetry not started';
  let numRestarts = 0;
  let disposed = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let settleStart: (() => void) | null = null;

  const settle = () => {
    settleStart?.();
    settleStart = null;
  };

  const launch = () => {
    let stderrText = '';
    const proc = spawn(options.command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const splitter = createLineSplitter((line) => {
      const reading = parseNvidiaSmiLine(line);
      if (!reading) return;
      samples.push({ tMs: options.clock(), ...reading });
      reason = null;
      settle();
    });
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (chunk: string) => splitter.push(chunk));
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      if (stderrText.length < 2000) stderrText += chunk;
    });
    proc.on('error', (err: NodeJS.ErrnoException) => {
      reason = err.code === 'ENOENT' ? NO_NVIDIA_SMI_REASON : `no NVIDIA GPU telemetry (${options.command} failed: ${err.message})`;
      child = null;
      settle();
    });
    proc.on('close', (code) => {
      splitter.end();
      if (child === proc) child = null;
      if (disposed) return;
      if (samples.length === 0) {
        if (reason === 'GPU telemetry not started' || reason === null) {
          const firstLine = (stderrText.trim().split('\n')[0] ?? '').trim();
          reason = `no NVIDIA GPU telemetry (${options.command} exited with code ${code}${firstLine ? `: ${firstLine}` : ''})`;
        }
        settle();
        return;
      }
      if (numRestarts >= maxRestarts) {
        reason = `GPU telemetry stopped: ${options.command} exited ${numRestarts + 1} times (last code ${code})`;
        return;
      }
      numRestarts += 1;
      const backoffMs = 250 * 2 ** numRestarts;
      restartTimer = setTimeout(() => {
        restartTimer = null;
        if (!disposed) launch();
      }, backoffMs);
    });
  };

  return {
    start() {
      return new Promise<void>((resolve) => {
        settleStart = resolve;
        const timer = setTimeout(settle, options.startTimeoutMs ?? 3000);
        timer.unref?.();
        launch();
      });
    },
    samples,
    available: () => samples.length > 0 && reason === null,
    unavailableReason: () => (samples.length > 0 && reason === null ? null : reason),
    dispose() {
      disposed = true;
      if (restartTimer) clearTimeout(restartTimer);
      child?.kill();
      child = null;
      settle();
    },
  };
}
