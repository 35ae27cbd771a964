/**
 * A small live line chart (recharts) for the benchmark dashboard: as wide as its card (never
 * wider, so it fits at 1024 px), fixed height, animations off,
 * no dots, an explicit x domain over the points it is given (the caller bounds the window).
 */
import { memo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

export interface LiveChartProps {
  title: string;
  data: Record<string, number | null>[];
  xKey: string;
  series: ChartSeries[];
  testId: string;
}

export const LiveChart = memo(function LiveChart({ title, data, xKey, series, testId }: LiveChartProps) {
  const first = data.length ? Number(data[0][xKey]) : 0;
  const last = data.length ? Number(data[data.length - 1][xKey]) : 1;
  return (
    <figure className="chart" data-testid={testId} data-num-points={data.length} aria-label={`${title} chart, ${data.length} points`}>
      <h3>{title}</h3>
      <ResponsiveContainer width="100%" height={170} minWidth={0}>
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis dataKey={xKey} type="number" domain={[first, Math.max(last, first + 1)]} tickFormatter={(v: number) => `${v.toFixed(0)}s`} />
        <YAxis width={44} />
        <Tooltip isAnimationActive={false} />
        <Legend />
        {series.map((s) => (
          <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} dot={false} isAnimationActive={false} connectNulls />
        ))}
      </LineChart>
      </ResponsiveContainer>
    </figure>
  );
});
