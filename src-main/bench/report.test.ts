// Report rendering on a real two-variant, two-pass run against fake servers with fake GPU telemetry:
// the Markdown tables carry the record's numbers, the header names each variant's engine plan (where its
// /status gives one), and the HTML page is self-contained.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTarget } from './http-target';
import { renderHtml } from './report-html';
import { renderMarkdown } from './report-markdown';
import { passRows, summaryRows } from './run-tables';
import { runBenchmark } from './run-benchmark';
import type { BenchRunRecord } from './run-record';
import { startFakeTtsServer, type FakeTtsServer } from './testing/fake-tts-server';
import { writeFakeNvidiaSmi } from './testing/fake-nvidia-smi';

/** The plan a wide CUDA engine's /status names (engine-plan.ts summarisePlan). */
const WIDE_CUDA = { provider: 'cuda', capture: 'on', concurrency: 'wide', maxRunningSequences: 64, maxPrefillSequences: 16, shapeBuckets: 'on', talkerRows: 64, talkerPrefillRows: 64, codePredictorRows: 64 } as const;

describe('reports of a two-variant run', () => {
  let before: FakeTtsServer;
  let after: FakeTtsServer;
  let smi: ReturnType<typeof writeFakeNvidiaSmi>;
  let record: BenchRunRecord;
  let markdown: string;
  let html: string;

  beforeAll(async () => {
    before = await startFakeTtsServer({ serviceMs: 50, batchSize: 1 });
    after = await startFakeTtsServer({ serviceMs: 50, batchSize: 2, plan: WIDE_CUDA, hostMsPerStep: 3 });
    smi = writeFakeNvidiaSmi();
    record = await runBenchmark({
      nvidiaSmiPath: smi.command,
      variants: [
        { name: 'before', createTarget: () => createHttpTarget(before.url) },
        { name: 'after', createTarget: () => createHttpTarget(after.url, { api: 'studio' }) },
      ],
      workloads: ['plain', 'processed'],
      clientCounts: [2],
      windowMs: 600,
      numPasses: 2,
    });
    markdown = renderMarkdown(record);
    html = renderHtml(record);
  }, 30_000);

  afterAll(async () => {
    await before.dispose();
    await after.dispose();
    smi.dispose();
  });

  it('runs pass 2 in reverse variant and workload order', () => {
    const order = record.measurements.map((m) => `${m.pass} ${m.variant} ${m.workload}`);
    expect(order).toEqual(['1 before plain', '1 before processed', '1 after plain', '1 after processed', '2 after processed', '2 after plain', '2 before processed', '2 before plain']);
  });

  it("names each variant's engine plan in the record and the report header, and says where a target reported none", () => {
    expect(record.variants.find((v) => v.name === 'after')?.plan).toEqual(WIDE_CUDA);
    expect(record.variants.find((v) => v.name === 'before')?.plan).toBeNull();
    expect(markdown).toContain('plan: cuda, capture on, wide: 64 running (16 prefilled a step), buckets on: talker 64 rows (prefill 64), code predictor 64');
    expect(markdown).toMatch(/before: [^;]*plan not reported/);
    expect(html).toContain('plan: cuda, capture on, wide: 64 running');
  });

  it("gives each measurement's host ms per engine step from the status's step totals, and a dash where the target reports none", () => {
    // the fake 'after' engine counts 3 host ms in every step (one step per batch it serves)
    const after = record.measurements.filter((m) => m.variant === 'after');
    for (const m of after) expect(m.hostMsPerStep).toBe(3);
    for (const m of record.measurements.filter((x) => x.variant === 'before')) expect(m.hostMsPerStep).toBeNull();
    expect(markdown).toMatch(/\| Timeouts \| Host ms\/step \|/);
    expect(markdown).toMatch(/\| 1 \| after \| plain \|[^\n]*\| 3\.0 \|\n/);
  });

  it('puts the summary figures into the Markdown summary table', () => {
    const rows = summaryRows(record);
    expect(rows).toHaveLength(2);
    const plain = rows[0];
    // change = after/before − 1; req/s averaged over the 2 passes
    const b = record.measurements.filter((m) => m.variant === 'before' && m.workload === 'plain');
    const a = record.measurements.filter((m) => m.variant === 'after' && m.workload === 'plain');
    expect(plain.beforeReqPerS).toBeCloseTo((b[0].reqPerS + b[1].reqPerS) / 2, 10);
    expect(plain.afterReqPerS).toBeCloseTo((a[0].reqPerS + a[1].reqPerS) / 2, 10);
    expect(plain.throughputChange).toBeCloseTo(plain.afterReqPerS! / plain.beforeReqPerS - 1, 10);
    // pass change range: per-pass after/before − 1, min..max
    const perPass = [1, 2].map((p) => a.find((m) => m.pass === p)!.reqPerS / b.find((m) => m.pass === p)!.reqPerS - 1);
    expect(plain.passChangeMin).toBeCloseTo(Math.min(...perPass), 10);
    expect(plain.passChangeMax).toBeCloseTo(Math.max(...perPass), 10);
    expect(plain.numCompletedBefore).toBe(b[0].numCompletedInWindow + b[1].numCompletedInWindow);
    expect(markdown).toContain('| Workload | Clients | before req/s | after req/s | Throughput change | Pass change range | Completed before / after |');
    const change = plain.throughputChange! * 100;
    const line = `| plain | 2 | ${plain.beforeReqPerS.toFixed(4)} | ${plain.afterReqPerS!.toFixed(4)} | ${change >= 0 ? '+' : ''}${change.toFixed(2)}% |`;
    expect(markdown).toContain(line);
    expect(markdown).toContain(`${plain.numCompletedBefore} / ${plain.numCompletedAfter}`);
  });

  it('puts every measurement into the per-pass table with GPU figures and validity', () => {
    const rows = passRows(record);
    expect(rows).toHaveLength(8);
    expect(markdown).toContain('| Pass | Variant | Workload | Clients | Req/s | Mean outstanding | Mean waiting | Median latency s | p95 latency s | Mean GPU use % | Peak VRAM MiB | Valid |');
    for (const r of rows) {
      expect(r.valid).toBe(true);
      expect(r.gpuUtilMeanPct).toBeGreaterThanOrEqual(40);
      expect(r.gpuUtilMeanPct).toBeLessThanOrEqual(60);
      const prefix = `| ${r.pass} | ${r.variant} | ${r.workload} | ${r.numClients} | ${r.reqPerS.toFixed(4)} | ${r.meanOutstanding.toFixed(3)} | ${r.meanWaiting.toFixed(3)} | ${r.latencyMedianS.toFixed(3)} | ${r.latencyP95S.toFixed(3)} | ${r.gpuUtilMeanPct!.toFixed(1)} | ${r.vramPeakMiB} | True |`;
      expect(markdown).toContain(prefix);
    }
    expect(markdown).toContain('GPU: NVIDIA H200, 143771 MiB; driver 570.86.15.');
    expect(markdown).toContain(`Run: ${record.runId}`);
    expect(markdown).toMatch(/Pass 2 after inference hash: [0-9a-f]{64}\./);
  });

  it('writes a self-contained HTML page with inline SVG charts and no scripts or external references', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(/i);
    expect((html.match(/<svg /g) ?? []).length).toBe(5);
    expect(html).toContain('Throughput over time');
    expect(html).toContain('VRAM used MiB');
    expect(html).toContain(record.measurements[0].reqPerS.toFixed(4));
    // besides the target addresses printed as text, the only URL is the SVG namespace identifier
    const urls = (html.match(/https?:\/\/[^"'\s<]+/g) ?? []).filter((u) => !u.startsWith('http://127.0.0.1:'));
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });
});
