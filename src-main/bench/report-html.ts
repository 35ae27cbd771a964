/**
 * Renders a run record as one self-contained HTML page: the same blocks as the Markdown report
 * plus inline SVG charts drawn here (throughput and latency over time, queue depth, GPU %, VRAM),
 * with measurement windows shaded. No scripts, no external styles, fonts or images. Pure.
 */
import { escapeHtml } from './report-format';
import { buildReportBlocks } from './report-sections';
import type { BenchRunRecord } from './run-record';
import { renderSvgChart, type ChartBand, type ChartSeries } from './svg-chart';

const COLORS = ['#d0552f', '#2f7fd0', '#3a9b4c', '#8b4fc2'];
const LOAD_PHASES = new Set(['fill', 'window', 'drain', 'burst', 'open']);

function windowBands(record: BenchRunRecord): ChartBand[] {
  return [
    ...record.measurements.filter((m) => m.windowStartMs !== null && m.windowEndMs !== null).map((m, i) => ({ x0: (m.windowStartMs as number) / 1000, x1: (m.windowEndMs as number) / 1000, label: `#${i + 1}` })),
    ...record.openLoops.map((o) => ({ x0: o.startMs / 1000, x1: (o.startMs + o.durationMs) / 1000, label: 'open' })),
  ];
}

/** Completions per second in fixed bins, one series per variant. */
function throughputSeries(record: BenchRunRecord, variantOf: Map<string, string>, variants: string[]): ChartSeries[] {
  const done = record.samples.requests.filter((r) => LOAD_PHASES.has(r.phase) && (r.outcome === 'ok' || r.outcome === 'mismatch'));
  if (done.length === 0) return [];
  const lastS = Math.max(...done.map((r) => r.endMs)) / 1000;
  const binS = Math.max(1, Math.ceil(lastS / 300));
  return variants.map((variant, i) => {
    const bins = new Map<number, number>();
    for (const r of done) if (variantOf.get(r.measurementId) === variant) bins.set(Math.floor(r.endMs / 1000 / binS), (bins.get(Math.floor(r.endMs / 1000 / binS)) ?? 0) + 1);
    const points = [...bins.entries()].sort((a, b) => a[0] - b[0]).map(([bin, n]) => [bin * binS + binS / 2, n / binS] as const);
    return { name: variant, color: COLORS[i % COLORS.length], style: 'points' as const, points };
  });
}

export function renderHtml(record: BenchRunRecord): string {
  const variantOf = new Map<string, string>();
  for (const m of record.measurements) variantOf.set(m.id, m.variant);
  for (const b of record.bursts) variantOf.set(b.id, b.variant);
  for (const o of record.openLoops) variantOf.set(o.id, o.variant);
  const variants = record.variants.map((v) => v.name);
  const bands = windowBands(record);
  const load = record.samples.requests.filter((r) => LOAD_PHASES.has(r.phase) && (r.outcome === 'ok' || r.outcome === 'mismatch'));
  const gpuNote = record.telemetry.gpuNote ? ` — ${record.telemetry.gpuNote}` : '';
  const charts = [
    renderSvgChart({ title: 'Throughput over time (completed requests per second)', xLabel: 'run time s', yLabel: 'req/s', bands, series: throughputSeries(record, variantOf, variants) }),
    renderSvgChart({
      title: 'Latency over time (send to last byte, by completion time)', xLabel: 'run time s', yLabel: 'latency s', bands,
      series: variants.map((v, i) => ({ name: v, color: COLORS[i % COLORS.length], style: 'points' as const, points: load.filter((r) => variantOf.get(r.measurementId) === v).map((r) => [r.endMs / 1000, (r.endMs - r.scheduledMs) / 1000] as const) })),
    }),
    renderSvgChart({
      title: 'Target queue depth (status samples)', xLabel: 'run time s', yLabel: 'requests', bands,
      series: [
        { name: 'queue depth', color: COLORS[0], style: 'step', points: record.samples.status.map((s) => [s.tMs / 1000, s.queueDepth] as const) },
        { name: 'waiting', color: COLORS[1], style: 'step', points: record.samples.status.map((s) => [s.tMs / 1000, s.numWaiting] as const) },
      ],
    }),
    renderSvgChart({ title: `GPU utilisation %${gpuNote}`, xLabel: 'run time s', yLabel: '%', bands, series: [{ name: 'GPU %', color: COLORS[2], style: 'line', points: record.samples.gpu.filter((g) => g.utilizationGpuPct !== null).map((g) => [g.tMs / 1000, g.utilizationGpuPct as number] as const) }] }),
    renderSvgChart({ title: `VRAM used MiB${gpuNote}`, xLabel: 'run time s', yLabel: 'MiB', bands, series: [{ name: 'VRAM MiB', color: COLORS[3], style: 'line', points: record.samples.gpu.filter((g) => g.memoryUsedMiB !== null).map((g) => [g.tMs / 1000, g.memoryUsedMiB as number] as const) }] }),
  ];

  const body: string[] = [];
  for (const block of buildReportBlocks(record)) {
    switch (block.kind) {
      case 'heading':
        body.push(`<h${block.level}>${escapeHtml(block.text)}</h${block.level}>`);
        if (block.level === 1) body.push(`<section class="charts">${charts.join('\n')}</section>`);
        break;
      case 'paragraph':
        body.push(`<p>${escapeHtml(block.text)}</p>`);
        break;
      case 'table':
        body.push(
          `<table><thead><tr>${block.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>` +
            block.rows.map((row) => `<tr>${row.map((c) => `<td${c === 'False' ? ' class="bad"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('') +
            '</tbody></table>',
        );
        break;
      case 'list':
        body.push(`<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`);
        break;
    }
  }
  const style = [
    'body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}',
    'table{border-collapse:collapse;margin:8px 0 16px;font-size:12px}',
    'th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}th{background:#f3f3f3}',
    'td:nth-child(-n+3),th:nth-child(-n+3){text-align:left}td.bad{color:#b00020;font-weight:600}',
    '.charts svg{display:block;margin:8px 0;max-width:100%;height:auto}',
  ].join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench run ${escapeHtml(record.runId)}</title><style>${style}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}
