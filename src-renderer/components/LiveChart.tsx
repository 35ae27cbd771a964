/**
 * A small live line chart (recharts) for the benchmark dashboard: as wide as its card (never
 * wider, so it fits at 1024 px), fixed height, animations off, no dots. One unit per chart, named
 * on the y axis, with even ticks on both axes; optional shaded bands behind the lines (the run's
 * phases) and a syncId so charts of one run share the crosshair.
 */
import { memo, useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { evenTicks, formatTick } from './even-ticks';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

/** A shaded stretch of the x axis, e.g. one phase of a benchmark pass. */
export interface ChartBand {
  startX: number;
  endX: number;
  color: string;
  /** The band's class suffix and tooltip: 'window', 'drain'… */
  name: string;
}

export interface LiveChartProps {
  title: string;
  /** The y axis's one unit, e.g. 'req/s', 's', '%'. */
  unit: string;
  data: Record<string, number | null>[];
  xKey: string;
  series: ChartSeries[];
  testId: string;
  bands?: readonly ChartBand[];
  /** Charts with the same id move one crosshair together. */
  syncId?: string;
}

export const LiveChart = memo(function LiveChart({ title, unit, data, xKey, series, testId, bands = [], syncId }: LiveChartProps) {
  const first = data.length ? Number(data[0][xKey]) : 0;
  const last = data.length ? Number(data[data.length - 1][xKey]) : 1;
  const x = useMemo(() => {
    const all = evenTicks(0, Math.max(last, first + 1), 7);
    const ticks = all.ticks.filter((t) => t >= first);
    return { ticks, domain: [first, all.domain[1]] as [number, number], step: all.step };
  }, [first, last]);
  const y = useMemo(() => {
    let min = 0;
    let max = 0;
    for (const row of data) {
      for (const s of series) {
        const v = row[s.key];
        if (typeof v === 'number' && Number.isFinite(v)) {
          if (v > max) max = v;
          if (v < min) min = v;
        }
      }
    }
    return evenTicks(min, max, 5);
  }, [data, series]);
  return (
    <figure className="chart" data-testid={testId} data-num-points={data.length} data-num-bands={bands.length} data-unit={unit} aria-label={`${title} chart in ${unit}, ${data.length} points`}>
      <h3>
        {title} <span className="muted">({unit})</span>
      </h3>
      <ResponsiveContainer width="100%" height={170} minWidth={0}>
        <LineChart data={data} syncId={syncId} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          {bands.map((b, i) => (
            <ReferenceArea key={i} x1={b.startX} x2={b.endX} fill={b.color} fillOpacity={0.35} stroke="none" ifOverflow="hidden" className={`phase-band phase-band-${b.name}`} />
          ))}
          <XAxis dataKey={xKey} type="number" domain={x.domain} ticks={x.ticks} allowDataOverflow interval={0} tickFormatter={(v: number) => `${formatTick(v, x.step)} s`} />
          <YAxis width={48} domain={y.domain} ticks={y.ticks} interval={0} tickFormatter={(v: number) => formatTick(v, y.step)} />
          <Tooltip isAnimationActive={false} labelFormatter={(v) => `${formatTick(Number(v), 0.01)} s`} formatter={(v) => (typeof v === 'number' ? `${formatTick(v, 0.001)} ${unit}` : String(v))} />
          <Legend />
          {series.map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} dot={false} isAnimationActive={false} connectNulls />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
});
