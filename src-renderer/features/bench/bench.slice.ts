/**
 * The benchmark dashboard: the run form, the live run with a bounded window of samples for the
 * charts, past runs and the two chosen for side-by-side comparison.
 */
import type { StateCreator } from 'zustand';
import type { BenchRunInput, BenchRunView, BenchSample } from '../../../src-shared/contract/bench';
import { fieldSetters } from '../../store/field-setters';

/** Samples kept for the live charts: 4 per second × 120 s. */
export const MAX_CHART_SAMPLES = 480;

export function defaultBenchForm(): BenchRunInput {
  return { variants: [{ name: 'before', target: 'inproc' }], workloads: ['plain'], clientCounts: [2], windowMs: 10_000, numPasses: 1 };
}

export interface BenchSlice {
  benchForm: BenchRunInput;
  benchRunId: string | null;
  benchSamples: BenchSample[];
  benchRuns: BenchRunView[];
  benchCompare: [string | null, string | null];
  benchError: string | null;
  setBenchForm(form: BenchRunInput): void;
  startBenchView(runId: string): void;
  addBenchSample(sample: BenchSample): void;
  upsertBenchRun(run: BenchRunView): void;
  setBenchRuns(runs: BenchRunView[]): void;
  setBenchCompare(pair: [string | null, string | null]): void;
  setBenchError(message: string | null): void;
}

export const createBenchSlice: StateCreator<BenchSlice, [], [], BenchSlice> = (set, get) => ({
  benchForm: defaultBenchForm(),
  benchRunId: null,
  benchSamples: [],
  benchRuns: [],
  benchCompare: [null, null],
  benchError: null,
  ...fieldSetters(set, ['benchForm', 'benchRuns', 'benchCompare', 'benchError']),
  startBenchView: (benchRunId) => set({ benchRunId, benchSamples: [], benchError: null }),
  addBenchSample: (sample) => {
    if (sample.runId !== get().benchRunId) return;
    const samples = get().benchSamples;
    const next = samples.length >= MAX_CHART_SAMPLES ? [...samples.slice(samples.length - MAX_CHART_SAMPLES + 1), sample] : [...samples, sample];
    set({ benchSamples: next });
  },
  upsertBenchRun: (run) => set({ benchRuns: [run, ...get().benchRuns.filter((r) => r.runId !== run.runId)].sort((a, b) => b.startedAtMs - a.startedAtMs) }),
});
