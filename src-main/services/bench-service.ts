/**
 * The bench service behind the dashboard: starts one benchmark run at a time through a runner
 * port (the protocol lives in src-main/bench), streams its live samples to the caller, keeps
 * the protocol's tables when it ends, stops it on request, exports JSON / Markdown / HTML and
 * lists past runs (from a run store when provided, else those of this session). Also the adapters
 * to src-main/bench's runBenchmark (with live samples from observed targets) and its run store.
 */
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { StudioError } from '../../src-shared/errors';
import { percentileOrNull } from '../../src-shared/percentile';
import type { BenchPassRow, BenchRunInput, BenchRunView, BenchSample, BenchSummaryRow, BenchWorkload } from '../../src-shared/contract/bench';
import type { EngineStatus, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { runBenchmark } from '../bench/run-benchmark';
import { createRunId } from '../bench/run-id';
import { measurementLabel, type BenchProgress } from '../bench/bench-progress';
import type { BenchRunRecord } from '../bench/run-record';
import type { BenchTarget, BenchVariant } from '../bench/target';
import { createInprocTarget } from '../bench/inproc-target';
import { createHttpTarget } from '../bench/http-target';
import { passRows, summaryRows } from '../bench/run-tables';
import { renderMarkdown } from '../bench/report-markdown';
import { renderHtml } from '../bench/report-html';
import { encodeWav } from '../audio/wav-encode';
import type { BenchRunStore } from '../library/bench-run-store';
import { createGpuSampler } from '../telemetry/gpu-sampler';

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
  /** hooks.runId: the id the service gave the run; the record must carry the same (one id per run). */
  run(input: BenchRunInput, hooks: { runId: string; onSample(sample: Omit<BenchSample, 'runId'>): void; signal: AbortSignal }): Promise<BenchRunOutput>;
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
    const runId = createRunId(new Date(this.nowMs()));
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
      .run(input, { runId, onSample: (s) => onSample({ ...s, runId }), signal: abort.signal })
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

/** What the protocol runner needs of the engine host: synthesize, cancel and status. */
export interface BenchHostPort {
  call(method: 'synthesize', args: SynthesisRequest): Promise<SynthesisResult>;
  call(method: 'cancel', args: { requestId: string }): Promise<{ cancelled: boolean }>;
  call(method: 'status', args: Record<string, never>): Promise<EngineStatus>;
}

export const BENCH_SAMPLE_INTERVAL_MS = 250;
/** Live req/s and audio-s/s count completions in this trailing window. */
export const BENCH_RATE_WINDOW_MS = 5_000;

/** Wraps a target so the dashboard sees every completion live (the record has them only at the end). */
function observeTarget(target: BenchTarget, seen: { inFlight: number; done: { atMs: number; latencyMs: number; audioMs: number; firstAudioMs: number | null }[] }): BenchTarget {
  return {
    ...target,
    name: target.name,
    synthesize: async (req, signal) => {
      const sentMs = performance.now();
      seen.inFlight++;
      try {
        const res = await target.synthesize(req, signal);
        if (res.status === 200) seen.done.push({ atMs: performance.now(), latencyMs: performance.now() - sentMs, audioMs: res.audioDurationMs ?? 0, firstAudioMs: res.firstByteMs });
        return res;
      } finally {
        seen.inFlight--;
      }
    },
    status: target.status?.bind(target),
    describe: target.describe?.bind(target),
    dispose: () => target.dispose(),
  };
}

/** The real runner: benchmark-protocol.md through src-main/bench's runBenchmark, against this host or HTTP. */
/** `savedVoicesFor`: the voice library's voices a request names (the in-process target speaks saved voices as the API does). */
export function createProtocolBenchRunner(host: BenchHostPort, savedVoicesFor: (request: SynthesisRequest) => SavedVoiceConditioning[] = () => []): BenchRunnerPort {
  const inprocClient = {
    synthesize: async (request: SynthesisRequest, signal: AbortSignal) => {
      const onAbort = () => void host.call('cancel', { requestId: request.requestId }).catch(() => {});
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const savedVoices = savedVoicesFor(request);
        const result = await host.call('synthesize', savedVoices.length > 0 ? { ...request, savedVoices } : request);
        return { ...result, wav: encodeWav(result.pcm, result.sampleRateHz, 'pcm16') };
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    status: () => host.call('status', {}),
  };
  return {
    run: async (input, hooks) => {
      const seen = { inFlight: 0, done: [] as { atMs: number; latencyMs: number; audioMs: number; firstAudioMs: number | null }[] };
      const variants: BenchVariant[] = input.variants.map((v) => ({
        name: v.name,
        description: v.target === 'http' ? `studio API at ${v.url}` : 'this studio engine host',
        createTarget: () => observeTarget(v.target === 'http' ? createHttpTarget(v.url ?? '', { api: 'studio', name: `http ${v.url}` }) : createInprocTarget(inprocClient, v.name), seen),
      }));
      let progress: BenchProgress | null = null;
      const originMs = performance.now();
      // Live GPU figures for the dashboard (the run record keeps its own, complete series).
      const gpu = createGpuSampler({ command: 'nvidia-smi', intervalMs: BENCH_SAMPLE_INTERVAL_MS, gpuIndex: 0, clock: () => performance.now() - originMs });
      await gpu.start().catch(() => {});
      const timer = setInterval(() => {
        const nowMs = performance.now();
        const recent = seen.done.filter((d) => d.atMs >= nowMs - BENCH_RATE_WINDOW_MS);
        const spanS = Math.min(BENCH_RATE_WINDOW_MS, nowMs - originMs) / 1000;
        const latencies = recent.map((d) => d.latencyMs);
        const firstAudios = recent.flatMap((d) => (d.firstAudioMs === null ? [] : [d.firstAudioMs]));
        void host
          .call('status', {})
          .catch(() => null)
          .then((status) => {
            const p = progress;
            const lastGpu = gpu.samples.length > 0 ? gpu.samples[gpu.samples.length - 1] : null;
            hooks.onSample({
              elapsedMs: nowMs - originMs,
              label: p ? measurementLabel(p) : 'starting',
              phase: p && ['warmup', 'golden', 'fill', 'window', 'drain', 'done'].includes(p.phase) ? (p.phase as BenchSample['phase']) : 'warmup',
              reqPerS: spanS > 0 ? recent.length / spanS : 0,
              audioSecondsPerS: spanS > 0 ? recent.reduce((n, d) => n + d.audioMs, 0) / 1000 / spanS : 0,
              latencyP50Ms: percentileOrNull(latencies, 0.5),
              latencyP95Ms: percentileOrNull(latencies, 0.95),
              firstAudioP50Ms: percentileOrNull(firstAudios, 0.5),
              firstAudioP95Ms: percentileOrNull(firstAudios, 0.95),
              queueDepth: status?.queueDepth ?? 0,
              numOutstanding: seen.inFlight,
              gpuUtilPct: lastGpu?.utilizationGpuPct ?? null,
              vramMiB: lastGpu?.memoryUsedMiB ?? null,
              gpuNote: gpu.unavailableReason(),
            });
          });
      }, BENCH_SAMPLE_INTERVAL_MS);
      try {
        const record = await runBenchmark(
          { variants, workloads: input.workloads, clientCounts: input.clientCounts, windowMs: input.windowMs, numPasses: input.numPasses, ...(input.voice ? { voice: input.voice } : {}) },
          { signal: hooks.signal, runId: hooks.runId, onProgress: (p) => (progress = p) },
        );
        return outputOf(record);
      } finally {
        clearInterval(timer);
        gpu.dispose();
      }
    },
  };
}

function outputOf(record: BenchRunRecord): BenchRunOutput {
  return { summary: summaryRows(record), passes: passRows(record), record, markdown: renderMarkdown(record), html: renderHtml(record) };
}

/** Past runs from the library database's bench-run store. */
export function createLibraryRunStore(store: BenchRunStore): BenchRunStorePort {
  const viewOf = (record: BenchRunRecord): BenchRunView => {
    const cfg = record.config as { workloads?: BenchWorkload[]; clientCounts?: number[]; windowMs?: number; numPasses?: number; variants?: { name: string }[] };
    return {
      runId: record.runId,
      status: record.cancelled ? 'stopped' : 'done',
      startedAtMs: Date.parse(record.startedAt),
      finishedAtMs: Date.parse(record.finishedAt),
      input: { variants: (cfg.variants ?? []).map((v) => ({ name: v.name, target: 'inproc' })), workloads: cfg.workloads ?? [], clientCounts: cfg.clientCounts ?? [], windowMs: cfg.windowMs ?? 0, numPasses: cfg.numPasses ?? 1 },
      summary: summaryRows(record),
      passes: passRows(record),
      error: null,
    };
  };
  return {
    save: async (_view, output) => store.save(output.record as BenchRunRecord),
    list: async () =>
      store.list({ limit: 50 }).flatMap((s) => {
        const record = store.get(s.runId);
        return record ? [{ view: viewOf(record), output: outputOf(record) }] : [];
      }),
  };
}
