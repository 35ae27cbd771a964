/**
 * Whether a benchmark window is long enough: after a run, the passes whose steady window finished
 * none (they are invalid and the summary leaves them out) or so few that the count's edge effect
 * dominates; before one, the window typed against the latency the live charts last showed. Messages
 * say the fix. Pure.
 */
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';

/** Finished no request inside its window: 0 req/s and not valid. */
const isEmptyWindow = (p: BenchPassRow) => !p.valid && p.reqPerS === 0;

/** The slowest latency seen (p95, else median) and a window that suits it: 3 × that, in whole seconds. */
function suggestedWindow(passes: readonly BenchPassRow[]): { latencyS: number; windowS: number } | null {
  const latencies = passes.flatMap((p) => [p.latencyP95S, p.latencyMedianS]).filter((s) => Number.isFinite(s) && s > 0);
  if (latencies.length === 0) return null;
  const latencyS = Math.max(...latencies);
  return { latencyS, windowS: Math.ceil(3 * latencyS) };
}

/**
 * A window's count of completions is uncertain by about one request (one that straddles an edge), so a
 * valid pass that finished fewer than this many in its window has a req/s uncertain by over 10 %.
 */
export const MIN_WINDOW_COMPLETIONS = 10;

/** Requests a pass finished inside its window (req/s × window). */
const completionsOf = (p: BenchPassRow, windowS: number) => Math.round(p.reqPerS * windowS);

/**
 * The warning for a finished run whose window was too short: passes that finished no request (invalid,
 * left out), or valid passes that finished too few for their req/s to mean much; null where none.
 */
export function shortWindowWarning(run: BenchRunView): string | null {
  const windowS = run.input.windowMs / 1000;
  const empty = run.passes.filter(isEmptyWindow);
  if (empty.length === 0) return thinWindowWarning(run, windowS);
  const someValid = run.passes.some((p) => p.valid);
  const suggestion = suggestedWindow(run.passes);
  return (
    `The ${windowS} s window finished no request in ${empty.length} of ${run.passes.length} passes, so ${empty.length === 1 ? 'that pass is' : 'those passes are'} invalid` +
    (someValid ? ' and the summary counts only the valid ones' : '') +
    `. ${suggestion !== null ? `Requests took up to ${suggestion.latencyS.toFixed(1)} s here; set the window to at least ${suggestion.windowS} s.` : 'Lengthen the window beyond the time one request takes.'}`
  );
}

/** Valid passes whose window finished 1 to MIN_WINDOW_COMPLETIONS − 1 requests: their count, and a window that would finish enough. */
function thinWindowWarning(run: BenchRunView, windowS: number): string | null {
  const thin = run.passes.filter((p) => p.valid && completionsOf(p, windowS) > 0 && completionsOf(p, windowS) < MIN_WINDOW_COMPLETIONS);
  if (thin.length === 0) return null;
  const counts = thin.map((p) => completionsOf(p, windowS));
  const fewest = Math.min(...counts);
  const slowest = Math.min(...thin.map((p) => p.reqPerS));
  const neededS = Math.ceil(MIN_WINDOW_COMPLETIONS / slowest);
  const numPasses = run.passes.length;
  const where = thin.length < numPasses ? `${thin.length} of ${numPasses} passes` : numPasses === 1 ? 'its pass' : `each of its ${numPasses} passes`;
  return (
    `The ${windowS} s window finished ${Math.max(...counts) > fewest ? 'as few as' : 'only'} ${fewest} request${fewest === 1 ? '' : 's'} in ${where}: ` +
    `one request more or less at the window's edges moves ${thin.length === 1 ? 'its' : 'their'} req/s by up to ${Math.round(100 / fewest)} %. ` +
    `Set the window to at least ${neededS} s to finish ${MIN_WINDOW_COMPLETIONS} requests a pass.`
  );
}

/** Before a run: the window typed is under twice the latency last seen (p50), so a pass may finish nothing. */
export function windowVsLatencyHint(windowMs: number, lastLatencyP50Ms: number | null | undefined): string | null {
  if (lastLatencyP50Ms === null || lastLatencyP50Ms === undefined || !(lastLatencyP50Ms > 0)) return null;
  if (windowMs >= 2 * lastLatencyP50Ms) return null;
  const suggestS = Math.ceil((3 * lastLatencyP50Ms) / 1000);
  return `A request took ${(lastLatencyP50Ms / 1000).toFixed(1)} s (p50) in the last run; a ${windowMs / 1000} s window may finish none. Try ${suggestS} s or more.`;
}

/** "1 of 2 passes; 1 invalid left out": where a summary figure comes from, when some pass was left out. */
export function summarySourceNote(run: BenchRunView, variant: string | undefined, workload: string, numClients: number): string | null {
  const passes = run.passes.filter((p) => p.variant === variant && p.workload === workload && p.numClients === numClients);
  const numValid = passes.filter((p) => p.valid).length;
  if (numValid === 0 || numValid === passes.length) return null;
  return `${numValid} of ${passes.length} passes; ${passes.length - numValid} invalid left out`;
}
