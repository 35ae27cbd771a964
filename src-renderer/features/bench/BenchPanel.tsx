/**
 * The benchmark dashboard: configure a run (target, variants, workloads, client counts, window,
 * passes), start and stop, live charts (req/s and audio-s/s, latency and first audio p50/p95, queue depth and
 * outstanding, GPU %, VRAM MiB or "no GPU sampler": GpuCharts.tsx), the protocol's tables, exports, and two past runs side by side.
 */
import { useEffect, useMemo } from 'react';
import { useStudioStore } from '../../store/store';
import { LiveChart } from '../../components/LiveChart';
import { BENCH_RUN_LIMITS, type BenchRunInput, type BenchWorkload } from '../../../src-shared/contract/bench';
import { NumberField } from '../../components/NumberField';
import { exportBench, loadBenchRuns, loadBenchVoices, startBench, stopBench } from './bench-actions';
import { BenchCompare, BenchTables } from './BenchTables';
import { CompareCharts } from './CompareCharts';
import { EngineList } from './EngineList';
import { GpuCharts } from './GpuCharts';
import { windowVsLatencyHint } from './window-check';
import { benchRunName } from './run-name';
import { PHASE_COLORS, phaseBands, type BenchPhase } from './phase-bands';
import { speakableSavedVoices } from '../../components/voice-fit';
import { speakerDisplayName } from '../../components/voice-names';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';

/** Milliseconds as seconds for a chart; null where a sample has none (absent from an older main too). */
const secondsOrNull = (ms: number | null | undefined): number | null => (ms === null || ms === undefined ? null : ms / 1000);

/** The voice a run speaks in when none is picked (the bench protocol's). */
const BENCH_DEFAULT_VOICE = 'ryan';

const { numClients, maxClientCounts, windowMs: windowLimit, numPasses } = BENCH_RUN_LIMITS;
/** The window in seconds, as the field shows it. */
const WINDOW_S_RANGE = { min: windowLimit.min / 1000, max: windowLimit.max / 1000 };

function BenchForm({ form, onChange, disabled, lastLatencyP50Ms }: { form: BenchRunInput; onChange(f: BenchRunInput): void; disabled: boolean; lastLatencyP50Ms: number | null }) {
  const windowHint = windowVsLatencyHint(form.windowMs, lastLatencyP50Ms);
  const toggleWorkload = (w: BenchWorkload, on: boolean) => {
    const next = on ? [...new Set([...form.workloads, w])] : form.workloads.filter((x) => x !== w);
    if (next.length) onChange({ ...form, workloads: next });
  };
  const twoVariants = form.variants.length === 2;
  const speakers = useStudioStore((s) => s.voices);
  const modelInfo = useStudioStore((s) => s.modelInfo);
  // only the saved voices the loaded model can speak (a Base model speaks cloned voices, a VoiceDesign model designed ones)
  const saved = speakableSavedVoices(useStudioStore((s) => s.savedVoices), modelInfo);
  const hasDefault = speakers.some((v) => v.name === BENCH_DEFAULT_VOICE);
  return (
    <fieldset disabled={disabled} className="bench-form">
      <legend>Run</legend>
      {form.variants.map((v, i) => (
        <div key={i} className="toolbar">
          <label>
            Variant {i + 1} name <input aria-label={`Variant ${i + 1} name`} value={v.name} onChange={(e) => onChange({ ...form, variants: form.variants.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />
          </label>
          <label>
            Target{' '}
            <select aria-label={`Variant ${i + 1} target`} value={v.target} onChange={(e) => onChange({ ...form, variants: form.variants.map((x, j) => (j === i ? { ...x, target: e.target.value as 'inproc' | 'http' } : x)) })}>
              <option value="inproc">this studio's engine (in-process)</option>
              <option value="http">HTTP endpoint</option>
            </select>
          </label>
          {v.target === 'http' && (
            <input aria-label={`Variant ${i + 1} URL`} placeholder="http://127.0.0.1:7860" value={v.url ?? ''} onChange={(e) => onChange({ ...form, variants: form.variants.map((x, j) => (j === i ? { ...x, url: e.target.value } : x)) })} />
          )}
        </div>
      ))}
      <label className="check">
        <input type="checkbox" checked={twoVariants} onChange={(e) => onChange({ ...form, variants: e.target.checked ? [form.variants[0], { name: 'after', target: 'inproc' }] : [form.variants[0]] })} /> Compare two variants (before / after)
      </label>
      <div className="toolbar">
        Workloads:
        {(['plain', 'processed'] as const).map((w) => (
          <label key={w} className="check">
            <input type="checkbox" checked={form.workloads.includes(w)} onChange={(e) => toggleWorkload(w, e.target.checked)} /> {w}
          </label>
        ))}
        <label>
          Clients <NumberField list aria-label="Client counts" range={numClients} maxItems={maxClientCounts} value={form.clientCounts} onValue={(c) => onChange({ ...form, clientCounts: c })} />
        </label>
        <label>
          Window (s) <NumberField aria-label="Window seconds" range={WINDOW_S_RANGE} value={form.windowMs / 1000} onValue={(s) => s !== null && onChange({ ...form, windowMs: Math.round(s * 1000) })} />
          {windowHint && (
            <span className="hint" role="status" data-testid="bench-window-hint">
              {windowHint}
            </span>
          )}
        </label>
        <label>
          Voice{' '}
          <select aria-label="Voice" data-testid="bench-voice" value={form.voice ?? ''} onChange={(e) => onChange({ ...form, voice: e.target.value || undefined })}>
            <option value="" disabled={modelInfo !== null && !hasDefault}>
              default ({speakerDisplayName(BENCH_DEFAULT_VOICE)}){modelInfo !== null && !hasDefault ? ' — not on this model' : ''}
            </option>
            {speakers.map((v) => (
              <option key={v.name} value={v.name}>
                {speakerDisplayName(v.name)}
              </option>
            ))}
            {saved.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} (saved {v.kind === 'clone' ? 'clone' : 'design'})
              </option>
            ))}
          </select>
          {modelInfo !== null && speakers.length === 0 && saved.length === 0 && (
            <span className="hint" role="status" data-testid="bench-voice-none">
              The loaded model has no voice to speak: {modelInfo.kind === 'base' ? 'clone a voice on Speak first' : 'load a model with speakers'}.
            </span>
          )}
        </label>
        <label>
          Passes <NumberField aria-label="Passes" range={numPasses} value={form.numPasses} onValue={(n) => n !== null && onChange({ ...form, numPasses: n })} />
        </label>
      </div>
    </fieldset>
  );
}

/** The live charts share one crosshair: hovering one shows the same moment on all. */
const SYNC_ID = 'bench-live';

/** What each shaded band behind the live charts means. */
function PhaseLegend() {
  const phases = Object.keys(PHASE_COLORS) as BenchPhase[];
  return (
    <p className="phase-legend muted" data-testid="bench-phase-legend" aria-label="Chart bands">
      {phases.map((p) => (
        <span key={p} className="inline">
          <span className="swatch" style={{ background: PHASE_COLORS[p] }} aria-hidden /> {p}
        </span>
      ))}
    </p>
  );
}

export function BenchPanel() {
  const form = useStudioStore((s) => s.benchForm);
  const setForm = useStudioStore((s) => s.setBenchForm);
  const runId = useStudioStore((s) => s.benchRunId);
  const samples = useStudioStore((s) => s.benchSamples);
  const runs = useStudioStore((s) => s.benchRuns);
  const error = useStudioStore((s) => s.benchError);
  const pair = useStudioStore((s) => s.benchCompare);
  const setPair = useStudioStore((s) => s.setBenchCompare);
  const savedVoices = useStudioStore((s) => s.savedVoices);

  useEffect(() => {
    void loadBenchRuns();
    void loadBenchVoices();
  }, []);

  const current = runs.find((r) => r.runId === runId) ?? null;
  const running = current?.status === 'running';
  const hostBlocked = useHostBlocked();
  const data = useMemo(
    () =>
      samples.map((s) => ({
        t: s.elapsedMs / 1000,
        reqPerS: s.reqPerS,
        audioSecondsPerS: s.audioSecondsPerS,
        p50: s.latencyP50Ms === null ? null : s.latencyP50Ms / 1000,
        p95: s.latencyP95Ms === null ? null : s.latencyP95Ms / 1000,
        firstP50: secondsOrNull(s.firstAudioP50Ms),
        firstP95: secondsOrNull(s.firstAudioP95Ms),
        queueDepth: s.queueDepth,
        outstanding: s.numOutstanding,
        gpu: s.gpuUtilPct,
        vram: s.vramMiB,
      })),
    [samples],
  );
  const bands = useMemo(
    () => phaseBands(samples.map((s) => ({ timeS: s.elapsedMs / 1000, phase: s.phase, label: s.label }))).map((b) => ({ startX: b.startS, endX: b.endS, color: PHASE_COLORS[b.phase], name: b.phase })),
    [samples],
  );
  const last = samples[samples.length - 1];
  const lastLatencyP50Ms = [...samples].reverse().find((s) => s.latencyP50Ms !== null)?.latencyP50Ms ?? null;
  const compared = pair.map((id) => runs.find((r) => r.runId === id) ?? null);

  return (
    <section className="panel bench-panel" aria-labelledby="bench-heading">
      <h2 id="bench-heading">Benchmark</h2>
      <EngineList />
      <BenchForm form={form} onChange={setForm} disabled={running} lastLatencyP50Ms={lastLatencyP50Ms} />
      <div className="toolbar">
        <button className="primary" data-testid="bench-start" disabled={running || hostBlocked !== null} onClick={() => void startBench()} {...hostBlockedProps(hostBlocked)}>Start</button>
        <button data-testid="bench-stop" disabled={!running} onClick={() => void stopBench()}>Stop</button>
        {current && <span className="muted" data-testid="bench-status" aria-live="polite">{current.status}{last ? ` · ${last.label} · ${last.phase}` : ''}</span>}
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {runId && (
        <>
          {current && (
            <h3 className="bench-run-name" data-testid="bench-run-name" title={current.runId}>
              {benchRunName(current, savedVoices)}
            </h3>
          )}
          <PhaseLegend />
          <div className="charts">
            <LiveChart testId="chart-throughput" title="Throughput" unit="req/s" syncId={SYNC_ID} bands={bands} data={data} xKey="t" series={[{ key: 'reqPerS', label: 'req/s', color: '#2f6fed' }]} />
            <LiveChart testId="chart-audio" title="Audio produced" unit="audio s/s" syncId={SYNC_ID} bands={bands} data={data} xKey="t" series={[{ key: 'audioSecondsPerS', label: 'audio s/s', color: '#2e7d32' }]} />
            <LiveChart testId="chart-latency" title="Latency" unit="s" syncId={SYNC_ID} bands={bands} data={data} xKey="t" series={[{ key: 'p50', label: 'p50', color: '#6a1b9a' }, { key: 'p95', label: 'p95', color: '#c62828' }]} />
            <LiveChart testId="chart-first-audio" title="First audio" unit="s" syncId={SYNC_ID} bands={bands} data={data} xKey="t" series={[{ key: 'firstP50', label: 'p50', color: '#6a1b9a' }, { key: 'firstP95', label: 'p95', color: '#c62828' }]} />
            <LiveChart testId="chart-queue" title="Queue" unit="requests" syncId={SYNC_ID} bands={bands} data={data} xKey="t" series={[{ key: 'queueDepth', label: 'queue depth', color: '#ef6c00' }, { key: 'outstanding', label: 'outstanding', color: '#00838f' }]} />
            <GpuCharts samples={samples} data={data} bands={bands} syncId={SYNC_ID} />
          </div>
        </>
      )}
      {current && current.status !== 'running' && (
        <>
          <BenchTables run={current} />
          <div className="toolbar">
            <button disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => void exportBench(current.runId, 'json')}>Export JSON</button>
            <button disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => void exportBench(current.runId, 'markdown')}>Export Markdown</button>
            <button disabled={hostBlocked !== null} {...hostBlockedProps(hostBlocked)} onClick={() => void exportBench(current.runId, 'html')}>Export HTML</button>
          </div>
        </>
      )}
      <h3>Past runs</h3>
      {runs.length === 0 ? (
        <p className="hint">No runs yet.</p>
      ) : (
        <>
          <div className="toolbar">
            {[0, 1].map((i) => (
              <select key={i} aria-label={`Compare run ${i === 0 ? 'A' : 'B'}`} value={pair[i] ?? ''} onChange={(e) => setPair(i === 0 ? [e.target.value || null, pair[1]] : [pair[0], e.target.value || null])}>
                <option value="">Run {i === 0 ? 'A' : 'B'}…</option>
                {runs.map((r) => (
                  <option key={r.runId} value={r.runId}>{benchRunName(r, savedVoices)} ({r.status})</option>
                ))}
              </select>
            ))}
          </div>
          {(compared[0] || compared[1]) && (
            <div className="compare" data-testid="bench-compare">
              {compared[0] && compared[1] && (
                <div className="compare-side">
                  <BenchCompare a={compared[0]} b={compared[1]} />
                  <CompareCharts a={compared[0]} b={compared[1]} />
                </div>
              )}
              {compared.map((r, i) => (r ? <BenchTables key={i} run={r} /> : null))}
            </div>
          )}
        </>
      )}
    </section>
  );
}
