/**
 * The protocol's report tables for one run: the summary (one row per workload × clients, before
 * vs after) and the per-pass table (req/s, audio-s/s, RTF, first audio, p50/p95/p99 latency,
 * failed of sent), each scrolling inside its card; and the comparison of two
 * runs: per workload × clients, each run's req/s with its pass-to-pass range, the change, and
 * whether the change is larger than that spread.
 */
import type { BenchPassRow, BenchRunView } from '../../../src-shared/contract/bench';
import { ColumnHeads, type ColumnHead } from '../../components/ColumnHeads';
import { shortWindowWarning, summarySourceNote } from './window-check';
import { benchRunName } from './run-name';
import { useStudioStore } from '../../store/store';
import { formatCountOf } from '../../../src-shared/format-count';

/** One row of a two-run comparison; req/s of the first variant of each run, ranges over its passes. */
export interface CompareRow {
  workload: string;
  numClients: number;
  a: { reqPerS: number; min: number; max: number; numPasses: number; numCompleted: number };
  b: { reqPerS: number; min: number; max: number; numPasses: number; numCompleted: number };
  /** B over A minus one; null when A completed nothing (no ratio to take). */
  change: number | null;
  /**
   * 'faster'/'slower' only when both runs have 2+ passes and their ranges do not overlap;
   * 'within noise' when they overlap; 'spread unknown' with a single pass on either side.
   */
  verdict: 'faster' | 'slower' | 'within noise' | 'spread unknown';
}

function side(run: BenchRunView, workload: string, numClients: number): CompareRow['a'] | null {
  const row = run.summary.find((r) => r.workload === workload && r.numClients === numClients);
  if (!row) return null;
  const variant = run.input.variants[0]?.name;
  const passes = run.passes.filter((p) => p.workload === workload && p.numClients === numClients && (variant === undefined || p.variant === variant) && p.valid);
  const values = passes.length ? passes.map((p) => p.reqPerS) : [row.beforeReqPerS];
  return { reqPerS: row.beforeReqPerS, min: Math.min(...values), max: Math.max(...values), numPasses: passes.length, numCompleted: row.numCompletedBefore };
}

/** Rows present in both runs, in run A's order. */
export function compareRuns(a: BenchRunView, b: BenchRunView): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const r of a.summary) {
    const sa = side(a, r.workload, r.numClients);
    const sb = side(b, r.workload, r.numClients);
    if (!sa || !sb) continue;
    const change = sa.reqPerS > 0 ? sb.reqPerS / sa.reqPerS - 1 : null;
    const overlap = sb.min <= sa.max && sa.min <= sb.max;
    const verdict = sa.numPasses < 2 || sb.numPasses < 2 ? 'spread unknown' : overlap ? 'within noise' : sb.reqPerS > sa.reqPerS ? 'faster' : 'slower';
    rows.push({ workload: r.workload, numClients: r.numClients, a: sa, b: sb, change, verdict });
  }
  return rows;
}

export function BenchCompare({ a, b }: { a: BenchRunView; b: BenchRunView }) {
  const rows = compareRuns(a, b);
  const range = (s: CompareRow['a']) => (s.numPasses > 1 ? `${num(s.min, 2)}–${num(s.max, 2)} over ${s.numPasses} passes` : `1 pass, ${formatCountOf(s.numCompleted, 'request')}: no spread known`);
  return (
    <div className="table-scroll">
      <table className="bench-table" data-testid="bench-deltas">
        <caption>
          B ({b.runId}) against A ({a.runId}): the change counts only when the pass ranges do not overlap
        </caption>
        <ColumnHeads columns={['Workload', 'Clients', 'A req/s (range)', 'B req/s (range)', 'Change', 'Verdict']} />
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={6}>These runs share no workload × clients to compare.</td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={`${r.workload}-${r.numClients}`}>
              <td>{r.workload}</td>
              <td>{r.numClients}</td>
              <td>
                {num(r.a.reqPerS, 2)} <span className="muted">({range(r.a)})</span>
              </td>
              <td>
                {num(r.b.reqPerS, 2)} <span className="muted">({range(r.b)})</span>
              </td>
              <td>{pct(r.change)}</td>
              <td data-verdict={r.verdict}>{r.verdict}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Failed requests of a pass: error answers, rejections and timeouts. */
export const errorsOf = (p: BenchPassRow) => p.numErrors + p.numRejected + p.numTimeouts;
const pct = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)}%`);
const num = (v: number | null, d = 4) => (v === null || Number.isNaN(v) ? '—' : v.toFixed(d));

/** The per-pass table's columns; the measured ones explain themselves on hover. */
const PASS_COLUMNS: readonly ColumnHead[] = [
  'Pass', 'Variant', 'Workload', 'Clients', 'Req/s',
  { label: 'Audio s/s', title: 'seconds of audio per second of wall time' },
  { label: 'RTF', title: 'median real-time factor: synthesis time / audio time' },
  { label: 'First audio s', title: 'median time to the first audio' },
  'p50 latency s', 'p95 latency s', 'p99 latency s',
  { label: 'Errors', title: 'error answers / rejected (busy) / timed out, of the requests sent' },
  'Mean outstanding', 'Mean waiting', 'Mean GPU use %', 'Peak VRAM MiB', 'Valid',
];

/** A req/s figure of the summary with, where some pass was left out as invalid, how many it comes from. */
function SummaryReqPerS({ value, note }: { value: number | null; note: string | null }) {
  return (
    <>
      {num(value)}
      {note && <span className="muted"> ({note})</span>}
    </>
  );
}

export function BenchTables({ run }: { run: BenchRunView }) {
  const [before, after] = run.input.variants.map((v) => v.name);
  const windowWarning = shortWindowWarning(run);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  return (
    <div className="bench-tables" data-testid={`bench-tables-${run.runId}`}>
      {windowWarning && (
        <p className="hint warning" role="status" data-testid="bench-window-warning">
          {windowWarning}
        </p>
      )}
      <div className="table-scroll">
      <table className="bench-table" data-testid="bench-summary">
        <caption title={run.runId}>Summary · {benchRunName(run, savedVoices)} · {run.status}</caption>
        <ColumnHeads columns={['Workload', 'Clients', 'Before req/s', 'After req/s', 'Throughput change', 'Pass change range', 'Completed before / after']} />
        <tbody>
          {run.summary.map((r) => (
            <tr key={`${r.workload}-${r.numClients}`}>
              <td>{r.workload}</td>
              <td>{r.numClients}</td>
              <td data-testid="bench-summary-before">
                <SummaryReqPerS value={r.beforeReqPerS} note={summarySourceNote(run, before, r.workload, r.numClients)} />
              </td>
              <td>
                <SummaryReqPerS value={r.afterReqPerS} note={after === undefined ? null : summarySourceNote(run, after, r.workload, r.numClients)} />
              </td>
              <td>{pct(r.throughputChange)}</td>
              <td>{r.passChangeMin === null ? '—' : `${pct(r.passChangeMin)}..${pct(r.passChangeMax)}`}</td>
              <td>{r.numCompletedBefore} / {r.numCompletedAfter ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <div className="table-scroll">
      <table className="bench-table" data-testid="bench-passes">
        <caption>Per pass</caption>
        <ColumnHeads columns={PASS_COLUMNS} />
        <tbody>
          {run.passes.map((p, i) => (
            <tr key={i}>
              <td>{p.pass}</td>
              <td>{p.variant}</td>
              <td>{p.workload}</td>
              <td>{p.numClients}</td>
              <td>{num(p.reqPerS)}</td>
              <td>{num(p.audioSecondsPerS, 2)}</td>
              <td>{num(p.rtfMedian, 3)}</td>
              <td>{num(p.firstAudioMedianS, 3)}</td>
              <td>{num(p.latencyMedianS, 3)}</td>
              <td>{num(p.latencyP95S, 3)}</td>
              <td>{num(p.latencyP99S, 3)}</td>
              <td data-testid="bench-errors" className={errorsOf(p) > 0 ? 'error' : undefined} title={`${formatCountOf(p.numErrors, 'error')}, ${p.numRejected} rejected, ${p.numTimeouts} timed out of ${p.numRequests} sent`}>
                {errorsOf(p)} / {p.numRequests}
              </td>
              <td>{num(p.meanOutstanding, 2)}</td>
              <td>{num(p.meanWaiting, 2)}</td>
              <td>{num(p.gpuUtilMeanPct, 1)}</td>
              <td>{num(p.vramPeakMiB, 0)}</td>
              <td title={p.invalidReasons?.join('; ')}>{p.valid ? 'True' : 'False'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </div>
  );
}
