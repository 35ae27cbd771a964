/**
 * The bench service behind the dashboard: starts one benchmark run at a time through a runner
 * port (the protocol lives in src-main/bench), streams its live samples to the caller, keeps
 * the protocol's tables when it ends, stops it on request, exports JSON / Markdown / HTML and
 * lists past runs (from a run store when provided, else those of this session).
 */
import { randomUUID } from 'node:crypto';
import { StudioError } from '../../src-shared/errors';
import type { BenchPassRow, BenchRunInput, BenchRunView, BenchSample, BenchSummaryRow } from '../../src-shared/contract/bench';

export interface BenchRunOutput {
  summary: BenchSummaryRow[];
  passes: BenchPassRow[];
  /** The full record, exported as JSON. */
  record: unknown;
  markdown: string;
  html: string;
}

/** What the service needs of the benchmark module. */
export interface BenchRunnerPort {
  run(input: BenchRunInput, hooks: { onSample(sample: Omit<BenchSample, 'runId'>): void; signal: AbortSignal }): Promise<BenchRunOutput>;
}

/** Past runs that outlive the session (the library's bench-run store). */
export interface BenchRunStorePort {
  save(view: BenchRunView, output: BenchRunOutput): Promise<void>;
  list(): Promise<{ view: BenchRunView; output: BenchRunOutput | null }[]>;
}

export interface BenchServiceOptions {
  runner: BenchRunnerPort;
  runStore?: BenchRunStorePort;
  nowMs?: () => number;
}

interface RunEntry {
  view: BenchRunView;
  output: BenchRunOutput | null;
  abort: AbortController | null;
}

export class BenchService {
  private readonly runs = new Map<string, RunEntry>();
  private readonly nowMs: () => number;

  constructor(private readonly options: BenchServiceOptions) {
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** Starts a run; `onSample` and `onFinish` go to the caller that started it. */
  startRun(input: BenchRunInput, onSample: (s: BenchSample) => void, onFinish: (v: BenchRunView) => void): { runId: string } {
    const running = [...this.runs.values()].find((r) => r.view.status === 'running');
    if (running) {
      throw new StudioError('busy', `benchmark run ${running.view.runId} is still running; stop it first — two runs at once would measure each other`, { runId: running.view.runId });
    }
    const runId = `bench-${new Date(this.nowMs()).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 6)}`;
    const abort = new AbortController();
    const entry: RunEntry = {
      view: { runId, status: 'running', startedAtMs: this.nowMs(), finishedAtMs: null, input, summary: [], passes: [], error: null },
      output: null,
      abort,
    };
    this.runs.set(runId, entry);
    const finish = (patch: Partial<BenchRunView>) => {
      entry.view = { ...entry.view, ...patch, finishedAtMs: this.nowMs() };
      entry.abort = null;
      onFinish(entry.view);
    };
    void this.options.runner
      .run(input, { onSample: (s) => onSample({ ...s, runId }), signal: abort.signal })
      .then(async (output) => {
        entry.output = output;
        finish({ status: abort.signal.aborted ? 'stopped' : 'done', summary: output.summary, passes: output.passes });
        await this.options.runStore?.save(entry.view, output).catch(() => {});
      })
      .catch((err: unknown) => finish({ status: abort.signal.aborted ? 'stopped' : 'failed', error: (err as Error).message }));
    return { runId };
  }

  stopRun(runId: string): boolean {
    const entry = this.runs.get(runId);
    if (!entry?.abort) return false;
    entry.abort.abort();
    return true;
  }

  async listRuns(): Promise<BenchRunView[]> {
    const stored = (await this.options.runStore?.list().catch(() => [])) ?? [];
    const byId = new Map<string, BenchRunView>();
    for (const s of stored) byId.set(s.view.runId, s.view);
    for (const r of this.runs.values()) byId.set(r.view.runId, r.view);
    return [...byId.values()].sort((a, b) => b.startedAtMs - a.startedAtMs);
  }

  async getRun(runId: string): Promise<BenchRunView> {
    return (await this.entry(runId)).view;
  }

  async exportRun(runId: string, format: 'json' | 'markdown' | 'html'): Promise<{ fileName: string; mimeType: string; text: string }> {
    const entry = await this.entry(runId);
    if (!entry.output) {
      throw new StudioError('invalid-argument', `benchmark run ${runId} is ${entry.view.status} and has no report yet; export it after it ends`, { runId });
    }
    switch (format) {
      case 'json':
        return { fileName: `${runId}.json`, mimeType: 'application/json', text: `${JSON.stringify(entry.output.record, null, 2)}\n` };
      case 'markdown':
        return { fileName: `${runId}.md`, mimeType: 'text/markdown', text: entry.output.markdown };
      case 'html':
        return { fileName: `${runId}.html`, mimeType: 'text/html', text: entry.output.html };
    }
  }

  private async entry(runId: string): Promise<RunEntry> {
    const live = this.runs.get(runId);
    if (live) return live;
    const stored = (await this.options.runStore?.list().catch(() => [])) ?? [];
    const found = stored.find((s) => s.view.runId === runId);
    if (!found) throw new StudioError('not-found', `benchmark run ${runId} is not in this session or the library; pick one from the past runs list`, { runId });
    return { view: found.view, output: found.output, abort: null };
  }
}
