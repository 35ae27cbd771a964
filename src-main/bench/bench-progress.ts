/**
 * Progress events a running benchmark emits (phase, what is measured, window time left, completed
 * so far), and a small TTY renderer that redraws one status line (plain lines when not a TTY).
 * The renderer throttles redraws; it never affects measurement. measurementLabel names what is
 * measured for the dashboard's live status ("pass 1 · before · plain · 1 client").
 */
import { formatCountOf } from '../../src-shared/format-count';

export type BenchPhase = 'starting' | 'setup' | 'warmup' | 'golden' | 'fill' | 'window' | 'drain' | 'burst' | 'ramp' | 'open' | 'teardown' | 'done';

export interface BenchProgress {
  phase: BenchPhase;
  pass: number;
  numPasses: number;
  variant: string | null;
  workload: string | null;
  numClients: number | null;
  /** 1-based index of the current measurement among numMeasurements planned. */
  measurementIndex: number;
  numMeasurements: number;
  windowLeftMs: number | null;
  numCompleted: number;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** What a progress event measures, as the dashboard's live status reads it: "pass 1 · before · plain · 2 clients". */
export function measurementLabel(p: BenchProgress): string {
  return `pass ${p.pass} · ${p.variant ?? ''} · ${p.workload ?? ''} · ${formatCountOf(p.numClients ?? 0, 'client')}`;
}

export function formatProgress(p: BenchProgress): string {
  const where = [p.variant, p.workload, p.numClients === null ? null : formatCountOf(p.numClients, 'client')].filter(Boolean).join(' · ');
  const windowLeft = p.windowLeftMs === null ? '' : ` · window ${(p.windowLeftMs / 1000).toFixed(1)} s left`;
  return `[pass ${p.pass}/${p.numPasses} · ${p.measurementIndex}/${p.numMeasurements}] ${p.phase}${where ? ` · ${where}` : ''}${windowLeft} · ${p.numCompleted} completed`;
}

/** Returns an onProgress callback that draws on stream (default process.stderr). */
export function createTtyProgressRenderer(stream: ProgressStream = process.stderr, minRedrawMs = 100): (p: BenchProgress) => void {
  let lastDrawMs = -Infinity;
  let lastPhaseKey = '';
  return (p) => {
    const phaseKey = `${p.phase}|${p.pass}|${p.measurementIndex}`;
    const phaseChanged = phaseKey !== lastPhaseKey;
    const nowMs = performance.now();
    if (!phaseChanged && nowMs - lastDrawMs < minRedrawMs) return;
    lastPhaseKey = phaseKey;
    lastDrawMs = nowMs;
    const line = formatProgress(p);
    if (stream.isTTY) {
      const width = Math.max(20, (stream.columns ?? 120) - 1);
      stream.write(`\r\x1b[2K${line.slice(0, width)}${p.phase === 'done' ? '\n' : ''}`);
    } else if (phaseChanged) {
      stream.write(`${line}\n`);
    }
  };
}
