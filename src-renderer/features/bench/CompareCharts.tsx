/**
 * Overlaid charts for a two-run comparison, beside its delta table: per workload × clients, run A
 * and run B side by side — req/s with each run's pass-to-pass range as an error bar, and p95
 * latency (median over the valid passes) — so a change and its uncertainty read at a glance. Each
 * chart is as wide as its card (fits at 1024 px); animations off.
 */
import { memo, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BenchRunView } from '../../../src-shared/contract/bench';
import { percentileOrNull } from '../../../src-shared/percentile';
import { formatCountOf } from '../../../src-shared/format-count';
import { compareRuns } from './BenchTables';
import { evenTicks, formatTick } from '../../components/even-ticks';

export interface CompareChartPoint {
  label: string;
  aReqPerS: number;
  bReqPerS: number;
  /** [below, above] the value: the pass-to-pass range as error-bar offsets (0 with one pass). */
  aRange: [number, number];
  bRange: [number, number];
  aP95S: number | null;
  bP95S: number | null;
}

function p95Of(run: BenchRunView, workload: string, numClients: number): number | null {
  const variant = run.input.variants[0]?.name;
  return percentileOrNull(run.passes.filter((p) => p.workload === workload && p.numClients === numClients && p.valid && (variant === undefined || p.variant === variant)).map((p) => p.latencyP95S), 0.5);
}

export function compareChartData(a: BenchRunView, b: BenchRunView): CompareChartPoint[] {
  return compareRuns(a, b).map((r) => ({
    label: `${r.workload} ×${r.numClients}`,
    aReqPerS: r.a.reqPerS,
    bReqPerS: r.b.reqPerS,
    aRange: [Math.max(0, r.a.reqPerS - r.a.min), Math.max(0, r.a.max - r.a.reqPerS)],
    bRange: [Math.max(0, r.b.reqPerS - r.b.min), Math.max(0, r.b.max - r.b.reqPerS)],
    aP95S: p95Of(a, r.workload, r.numClients),
    bP95S: p95Of(b, r.workload, r.numClients),
  }));
}

const A_COLOR = '#2f6fed';
const B_COLOR = '#ef6c00';

/** One A-against-B bar chart card; the bars come as children. */
function CompareFigure({ testId, title, label, data, maxValue, children }: { testId: string; title: string; label: string; data: CompareChartPoint[]; maxValue: number; children: ReactNode }) {
  const y = evenTicks(0, maxValue, 5);
  return (
    <figure className="chart" data-testid={testId} data-num-points={data.length} aria-label={`${label}, run A against run B, ${formatCountOf(data.length, 'workload')}`}>
      <h3>{title}</h3>
      <ResponsiveContainer width="100%" height={190} minWidth={0}>
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="label" />
          <YAxis width={44} domain={y.domain} ticks={y.ticks} interval={0} tickFormatter={(v: number) => formatTick(v, y.step)} />
          <Tooltip isAnimationActive={false} />
          <Legend />
          {children}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export const CompareCharts = memo(function CompareCharts({ a, b }: { a: BenchRunView; b: BenchRunView }) {
  const data = compareChartData(a, b);
  if (data.length === 0) return null;
  // Each axis from 0 to an even tick above its tallest bar (with its error bar).
  const maxReqPerS = Math.max(0, ...data.flatMap((d) => [d.aReqPerS + d.aRange[1], d.bReqPerS + d.bRange[1]]));
  const maxP95S = Math.max(0, ...data.flatMap((d) => [d.aP95S ?? 0, d.bP95S ?? 0]));
  return (
    <div className="charts compare-charts" data-testid="bench-compare-charts">
      <CompareFigure testId="compare-chart-throughput" title="Throughput (req/s, bars: pass range)" label="Throughput" data={data} maxValue={maxReqPerS}>
        <Bar dataKey="aReqPerS" name="A" fill={A_COLOR} isAnimationActive={false}>
          <ErrorBar dataKey="aRange" width={6} stroke="var(--fg, #333)" />
        </Bar>
        <Bar dataKey="bReqPerS" name="B" fill={B_COLOR} isAnimationActive={false}>
          <ErrorBar dataKey="bRange" width={6} stroke="var(--fg, #333)" />
        </Bar>
      </CompareFigure>
      <CompareFigure testId="compare-chart-latency" title="p95 latency (s, median of passes)" label="p95 latency" data={data} maxValue={maxP95S}>
        <Bar dataKey="aP95S" name="A" fill={A_COLOR} isAnimationActive={false} />
        <Bar dataKey="bP95S" name="B" fill={B_COLOR} isAnimationActive={false} />
      </CompareFigure>
    </div>
  );
});
