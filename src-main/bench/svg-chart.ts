/**
 * A small self-contained SVG chart renderer for the HTML report: line, step and point series on
 * linear axes with ticks, optional shaded x-bands (measurement windows) and a legend.
 * Output is a plain <svg> string with no scripts and no external references. Pure.
 */
import { escapeHtml } from './report-format';

export interface ChartSeries {
  name: string;
  color: string;
  style: 'line' | 'step' | 'points';
  points: readonly (readonly [number, number])[];
}

export interface ChartBand {
  x0: number;
  x1: number;
  label: string;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  bands?: readonly ChartBand[];
  width?: number;
  height?: number;
  /** Forces the y range to start at zero (default true). */
  yFromZero?: boolean;
  /** Caps points drawn per series (evenly decimated); default 2000. */
  maxPointsPerSeries?: number;
}

const MARGIN = { left: 64, right: 16, top: 28, bottom: 44 };

/** Round tick values: 1, 2, 5 × 10^k spaced, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const rawStep = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rawStep) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9 && ticks.length < 50; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function decimate<T>(points: readonly T[], maxPoints: number): readonly T[] {
  if (points.length <= maxPoints) return points;
  const stride = points.length / maxPoints;
  return Array.from({ length: maxPoints }, (_, i) => points[Math.floor(i * stride)]);
}

const fmt = (v: number) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : v.toPrecision(3));

export function renderSvgChart(spec: ChartSpec): string {
  const width = spec.width ?? 860;
  const height = spec.height ?? 240;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const all = spec.series.flatMap((s) => s.points);
  const title = `<text x="${MARGIN.left}" y="18" font-size="13" font-weight="600">${escapeHtml(spec.title)}</text>`;
  if (all.length === 0) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${title}` +
      `<text x="${width / 2}" y="${height / 2}" text-anchor="middle" font-size="12" fill="#777">no samples</text></svg>`;
  }
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const bandXs = (spec.bands ?? []).flatMap((b) => [b.x0, b.x1]);
  const xMin = Math.min(...xs, ...bandXs);
  let xMax = Math.max(...xs, ...bandXs);
  const yMin = spec.yFromZero === false ? Math.min(...ys) : Math.min(0, ...ys);
  let yMax = Math.max(...ys);
  if (xMax === xMin) xMax = xMin + 1;
  if (yMax === yMin) yMax = yMin + 1;
  yMax += (yMax - yMin) * 0.05;
  const sx = (x: number) => MARGIN.left + ((x - xMin) / (xMax - xMin)) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - ((y - yMin) / (yMax - yMin)) * plotH;
  const parts: string[] = [title];

  for (const band of spec.bands ?? []) {
    const x0 = sx(band.x0);
    parts.push(`<rect x="${x0.toFixed(1)}" y="${MARGIN.top}" width="${Math.max(1, sx(band.x1) - x0).toFixed(1)}" height="${plotH}" fill="#4a7bd0" fill-opacity="0.08"/>`);
    parts.push(`<text x="${(x0 + 2).toFixed(1)}" y="${MARGIN.top + 10}" font-size="9" fill="#4a7bd0">${escapeHtml(band.label)}</text>`);
  }
  for (const t of niceTicks(yMin, yMax)) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${sy(t).toFixed(1)}" y2="${sy(t).toFixed(1)}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${(sy(t) + 4).toFixed(1)}" font-size="10" text-anchor="end">${fmt(t)}</text>`);
  }
  for (const t of niceTicks(xMin, xMax, 8)) {
    parts.push(`<text x="${sx(t).toFixed(1)}" y="${MARGIN.top + plotH + 14}" font-size="10" text-anchor="middle">${fmt(t)}</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${height - 8}" font-size="11" text-anchor="middle">${escapeHtml(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)" font-size="11" text-anchor="middle">${escapeHtml(spec.yLabel)}</text>`);

  spec.series.forEach((series, i) => {
    const points = decimate(series.points, spec.maxPointsPerSeries ?? 2000);
    if (series.style === 'points') {
      parts.push(`<g fill="${series.color}" fill-opacity="0.7">${points.map(([x, y]) => `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="1.8"/>`).join('')}</g>`);
    } else if (points.length > 0) {
      const path = points
        .map(([x, y], j) => {
          const cmd = j === 0 ? 'M' : series.style === 'step' ? `H${sx(x).toFixed(1)}V` : 'L';
          return series.style === 'step' && j > 0 ? `${cmd}${sy(y).toFixed(1)}` : `${cmd}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`;
        })
        .join('');
      parts.push(`<path d="${path}" fill="none" stroke="${series.color}" stroke-width="1.5"/>`);
    }
    const lx = width - MARGIN.right - (spec.series.length - i) * 140;
    parts.push(`<rect x="${lx}" y="12" width="10" height="3" fill="${series.color}"/><text x="${lx + 14}" y="17" font-size="10">${escapeHtml(series.name)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" font-family="system-ui, sans-serif">${parts.join('')}</svg>`;
}
