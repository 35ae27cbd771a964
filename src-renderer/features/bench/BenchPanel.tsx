/**
 * The benchmark dashboard: configure a run (target, variants, workloads, client counts, window,
 * passes), start and stop, live charts (req/s and audio-s/s, latency p50/p95, queue depth and
 * outstanding, GPU %, VRAM MiB), the protocol's tables, exports, and two past runs side by side.
 */
import { useEffect, useMemo } from 'react';
import { useStudioStore } from '../../store/store';
import { LiveChart } from '../../components/LiveChart';
import type { BenchRunInput, BenchWorkload } from '../../../src-shared/contract/bench';
import { exportBench, loadBenchRuns, loadBenchVoices, startBench, stopBench } from './bench-actions';
import { BenchCompare, BenchTables } from './BenchTables';
import { CompareCharts } from './CompareCharts';
import { EngineList } from './EngineList';

function parseCounts(text: string): number[] {
  return text.split(/[\s,]+/).map(Number).filter((n) => Number.isInteger(n) && n > 0);
}

function BenchForm({ form, onChange, disabled }: { form: BenchRunInput; onChange(f: BenchRunInput): void; disabled: boolean }) {
  const toggleWorkload = (w: BenchWorkload, on: boolean) => {
    const next = on ? [...new Set([...form.workloads, w])] : form.workloads.filter((x) => x !== w);
    if (next.length) onChange({ ...form, workloads: next });
  };
  const twoVariants = form.variants.length === 2;
  const speakers = useStudioStore((s) => s.voices);
  const saved = useStudioStore((s) => s.savedVoices);
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
          Clients <input aria-label="Client counts" value={form.clientCounts.join(', ')} onChange={(e) => { const c = parseCounts(e.target.value); if (c.length) onChange({ ...form, clientCounts: c }); }} />
        </label>
        <label>
          Window (s) <input aria-label="Window seconds" type="number" min={1} value={form.windowMs / 1000} onChange={(e) => onChange({ ...form, windowMs: Math.max(1, Number(e.target.value) || 1) * 1000 })} />
        </label>
        <label>
          Voice{' '}
          <select aria-label="Voice" data-testid="bench-voice" value={form.voice ?? ''} onChange={(e) => onChange({ ...form, voice: e.target.value || undefined })}>
            <option value="">default (ryan)</option>
            {speakers.map((v) => (
              <option key={v.name} value={v.name}>
                {v.name}
              </option>
            ))}
            {saved.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} (saved {v.kind === 'clone' ? 'clone' : 'design'})
              </option>
            ))}
          </select>
        </label>
        <label>
          Passes <input aria-label="Passes" type="number" min={1} max={10} value={form.numPasses} onChange={(e) => onChange({ ...form, numPasses: Math.max(1, Math.min(10, Math.floor(Number(e.target.value) || 1))) })} />
        </label>
      </div>
    </fieldset>
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

  useEffect(() => {
    void loadBenchRuns();
    void loadBenchVoices();
  }, []);

  const current = runs.find((r) => r.runId === runId) ?? null;
  const running = current?.status === 'running';
  const data = useMemo(
    () =>
      samples.map((s) => ({
        t: s.elapsedMs / 1000,
        reqPerS: s.reqPerS,
        audioSecondsPerS: s.audioSecondsPerS,
        p50: s.latencyP50Ms === null ? null : s.latencyP50Ms / 1000,
        p95: s.latencyP95Ms === null ? null : s.latencyP95Ms / 1000,
        queueDepth: s.queueDepth,
        outstanding: s.numOutstanding,
        gpu: s.gpuUtilPct,
        vram: s.vramMiB,
      })),
    [samples],
  );
  const last = samples[samples.length - 1];
  const compared = pair.map((id) => runs.find((r) => r.runId === id) ?? null);

  return (
    <section className="panel bench-panel" aria-labelledby="bench-heading">
      <h2 id="bench-heading">Benchmark</h2>
      <EngineList />
      <BenchForm form={form} onChange={setForm} disabled={running} />
      <div className="toolbar">
        <button className="primary" data-testid="bench-start" disabled={running} onClick={() => void startBench()}>Start</button>
        <button data-testid="bench-stop" disabled={!running} onClick={() => void stopBench()}>Stop</button>
        {current && <span className="muted" data-testid="bench-status" aria-live="polite">{current.status}{last ? ` · ${last.label} · ${last.phase}` : ''}</span>}
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      {runId && (
        <div className="charts">
          <LiveChart testId="chart-throughput" title="Throughput" data={data} xKey="t" series={[{ key: 'reqPerS', label: 'req/s', color: '#2f6fed' }, { key: 'audioSecondsPerS', label: 'audio s/s', color: '#2e7d32' }]} />
          <LiveChart testId="chart-latency" title="Latency (s)" data={data} xKey="t" series={[{ key: 'p50', label: 'p50', color: '#6a1b9a' }, { key: 'p95', label: 'p95', color: '#c62828' }]} />
          <LiveChart testId="chart-queue" title="Queue" data={data} xKey="t" series={[{ key: 'queueDepth', label: 'queue depth', color: '#ef6c00' }, { key: 'outstanding', label: 'outstanding', color: '#00838f' }]} />
          <LiveChart testId="chart-gpu" title="GPU" data={data} xKey="t" series={[{ key: 'gpu', label: 'GPU %', color: '#37474f' }, { key: 'vram', label: 'VRAM MiB', color: '#8d6e63' }]} />
        </div>
      )}
      {last && last.gpuUtilPct === null && <p className="hint">No NVIDIA GPU telemetry on this machine; GPU charts stay empty.</p>}
      {current && current.status !== 'running' && (
        <>
          <BenchTables run={current} />
          <div className="toolbar">
            <button onClick={() => void exportBench(current.runId, 'json')}>Export JSON</button>
            <button onClick={() => void exportBench(current.runId, 'markdown')}>Export Markdown</button>
            <button onClick={() => void exportBench(current.runId, 'html')}>Export HTML</button>
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
                  <option key={r.runId} value={r.runId}>{r.runId} ({r.status})</option>
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
