/**
 * The protocol's report tables for one run: the summary (one row per workload × clients, before
 * vs after) and the per-pass table.
 */
import type { BenchRunView } from '../../../src-shared/contract/bench';

const pct = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)}%`);
const num = (v: number | null, d = 4) => (v === null ? '—' : v.toFixed(d));

export function BenchTables({ run }: { run: BenchRunView }) {
  return (
    <div className="bench-tables" data-testid={`bench-tables-${run.runId}`}>
      <table className="bench-table" data-testid="bench-summary">
        <caption>Summary · {run.runId} · {run.status}</caption>
        <thead>
          <tr>
            <th scope="col">Workload</th>
            <th scope="col">Clients</th>
            <th scope="col">Before req/s</th>
            <th scope="col">After req/s</th>
            <th scope="col">Throughput change</th>
            <th scope="col">Pass change range</th>
            <th scope="col">Completed before / after</th>
          </tr>
        </thead>
        <tbody>
          {run.summary.map((r) => (
            <tr key={`${r.workload}-${r.numClients}`}>
              <td>{r.workload}</td>
              <td>{r.numClients}</td>
              <td>{num(r.beforeReqPerS)}</td>
              <td>{num(r.afterReqPerS)}</td>
              <td>{pct(r.throughputChange)}</td>
              <td>{r.passChangeMin === null ? '—' : `${pct(r.passChangeMin)}..${pct(r.passChangeMax)}`}</td>
              <td>{r.numCompletedBefore} / {r.numCompletedAfter ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="bench-table" data-testid="bench-passes">
        <caption>Per pass</caption>
        <thead>
          <tr>
            <th scope="col">Pass</th>
            <th scope="col">Variant</th>
            <th scope="col">Workload</th>
            <th scope="col">Clients</th>
            <th scope="col">Req/s</th>
            <th scope="col">Mean outstanding</th>
            <th scope="col">Mean waiting</th>
            <th scope="col">Median latency s</th>
            <th scope="col">p95 latency s</th>
            <th scope="col">Mean GPU use %</th>
            <th scope="col">Peak VRAM MiB</th>
            <th scope="col">Valid</th>
          </tr>
        </thead>
        <tbody>
          {run.passes.map((p, i) => (
            <tr key={i}>
              <td>{p.pass}</td>
              <td>{p.variant}</td>
              <td>{p.workload}</td>
              <td>{p.numClients}</td>
              <td>{num(p.reqPerS)}</td>
              <td>{num(p.meanOutstanding, 2)}</td>
              <td>{num(p.meanWaiting, 2)}</td>
              <td>{num(p.latencyMedianS, 3)}</td>
              <td>{num(p.latencyP95S, 3)}</td>
              <td>{num(p.gpuUtilMeanPct, 1)}</td>
              <td>{num(p.vramPeakMiB, 0)}</td>
              <td>{p.valid ? 'True' : 'False'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
