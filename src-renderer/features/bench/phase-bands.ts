/**
 * The shaded phase bands behind the live charts: consecutive samples of one measurement (label)
 * and phase form one band, from its first sample's time to the next band's first (so bands
 * touch), the last ending at its last sample. 'done' draws no band. Pure.
 */
import type { BenchSample } from '../../../src-shared/contract/bench';

export type BenchPhase = Exclude<BenchSample['phase'], 'done'>;

export interface PhaseBand {
  phase: BenchPhase;
  /** The measurement the band belongs to, e.g. "pass 1 · before · plain · 2 clients". */
  label: string;
  startS: number;
  endS: number;
}

/** One light colour per phase; the window (the measured part) is the strongest. */
export const PHASE_COLORS: { readonly [P in BenchPhase]: string } = {
  warmup: '#b0bec5',
  golden: '#ffe082',
  fill: '#90caf9',
  window: '#a5d6a7',
  drain: '#ffab91',
};

export function phaseBands(points: readonly { timeS: number; phase: BenchSample['phase']; label: string }[]): PhaseBand[] {
  const bands: PhaseBand[] = [];
  let open: PhaseBand | null = null;
  for (const p of points) {
    if (open && open.phase === p.phase && open.label === p.label) {
      open.endS = p.timeS;
      continue;
    }
    if (open) open.endS = p.timeS;
    open = p.phase === 'done' ? null : { phase: p.phase, label: p.label, startS: p.timeS, endS: p.timeS };
    if (open) bands.push(open);
  }
  return bands.filter((b) => b.endS > b.startS);
}
