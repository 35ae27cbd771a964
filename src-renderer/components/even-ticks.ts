/**
 * Even axis ticks: a step of 1, 2, 2.5 or 5 × 10^k, from 0 (or below the data's minimum) to the
 * first tick at or above its maximum, at most `maxTicks` of them, so a chart reads in round
 * numbers of one unit. Pure.
 */

const STEPS = [1, 2, 2.5, 5, 10];

export interface EvenTicks {
  domain: [number, number];
  ticks: number[];
  step: number;
}

export function evenTicks(minValue: number, maxValue: number, maxTicks = 5): EvenTicks {
  const lo = Number.isFinite(minValue) ? Math.min(0, minValue) : 0;
  let hi = Number.isFinite(maxValue) ? Math.max(maxValue, lo) : 1;
  if (hi - lo <= 0) hi = lo + 1;
  const rough = (hi - lo) / Math.max(1, maxTicks - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = Number((magnitude * 10).toPrecision(6));
  for (const s of STEPS) {
    const candidate = Number((s * magnitude).toPrecision(6));
    if (Math.ceil(hi / candidate - 1e-9) - Math.floor(lo / candidate + 1e-9) + 1 <= maxTicks) {
      step = candidate;
      break;
    }
  }
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  // rounded to the step's decimals so 3 × 0.1 reads 0.3
  const decimals = stepDecimals(step);
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toFixed(decimals)));
  return { domain: [ticks[0], ticks[ticks.length - 1]], ticks, step };
}

/** A tick label with no more decimals than the step needs: 0.25 → "0.25", 10 → "10". */
export function formatTick(value: number, step: number): string {
  return value.toFixed(stepDecimals(step));
}

function stepDecimals(step: number): number {
  return Math.min(6, (String(Number(step.toPrecision(6))).split('.')[1] ?? '').length);
}
