/**
 * Finds the knee of a ramp: the smallest client count beyond which throughput stops growing
 * (no later step beats it by more than kneeGainFraction) while latency keeps rising. Pure.
 */
import { formatCountOf } from '../../src-shared/format-count';

export interface RampStepFigures {
  numClients: number;
  reqPerS: number;
  latencyMedianMs: number | null;
}

export function findRampKnee(steps: readonly RampStepFigures[], kneeGainFraction: number): { knee: RampStepFigures | null; note: string } {
  if (steps.length < 2) return { knee: null, note: 'a knee needs at least two ramp steps' };
  for (let i = 0; i < steps.length - 1; i++) {
    const ceilingReqPerS = steps[i].reqPerS * (1 + kneeGainFraction);
    const later = steps.slice(i + 1);
    if (later.every((s) => s.reqPerS <= ceilingReqPerS)) {
      const last = steps[steps.length - 1];
      const kneeLatencyMs = steps[i].latencyMedianMs;
      const lastLatencyMs = last.latencyMedianMs;
      const latencyNote =
        kneeLatencyMs !== null && lastLatencyMs !== null
          ? `; median latency ${(kneeLatencyMs / 1000).toFixed(3)} s → ${(lastLatencyMs / 1000).toFixed(3)} s at ${formatCountOf(last.numClients, 'client')}`
          : '';
      return {
        knee: steps[i],
        note: `throughput stops growing at ${formatCountOf(steps[i].numClients, 'client')} (${steps[i].reqPerS.toFixed(3)} req/s; no later step is more than ${(kneeGainFraction * 100).toFixed(0)}% higher)${latencyNote}`,
      };
    }
  }
  const last = steps[steps.length - 1];
  return { knee: null, note: `throughput still grows at ${formatCountOf(last.numClients, 'client')}; extend the ramp to find the knee` };
}
