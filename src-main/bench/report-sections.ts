/**
 * The report's content as a list of blocks (headings, paragraphs, tables, lists), built once from
 * a run record and rendered by report-markdown.ts and report-html.ts, so both say the same thing.
 * Follows the reference report: header paragraphs, summary table, caveat, per-pass table, hashes.
 * Pure.
 */
import { formatCountOf } from '../../src-shared/format-count';
import { DASH, fixed, pyBool, seconds, signedPct } from './report-format';
import { closedMeasurements, passRows, summaryRows, variantOrder } from './run-tables';
import type { BenchRunRecord, VariantInfo } from './run-record';

export type ReportBlock =
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; header: string[]; rows: string[][] }
  | { kind: 'list'; items: string[] };

/** "plan: cuda, capture on, wide: 64 running (16 prefilled a step), buckets on: talker 64 rows (prefill 64), code predictor 64". */
function planText(v: VariantInfo): string {
  const p = v.plan;
  if (!p) return 'plan not reported';
  const buckets = p.shapeBuckets === 'on' ? `buckets on: talker ${p.talkerRows} rows (prefill ${p.talkerPrefillRows}), code predictor ${p.codePredictorRows}` : 'buckets off';
  return `plan: ${p.provider}, capture ${p.capture}, ${p.concurrency}: ${p.maxRunningSequences} running (${p.maxPrefillSequences} prefilled a step), ${buckets}`;
}

function headerBlocks(record: BenchRunRecord): ReportBlock[] {
  const c = record.config as Record<string, unknown>;
  const gpu = record.machine.gpu;
  const gpuLine = gpu
    ? `GPU: ${gpu.name}, ${fixed(gpu.memoryTotalMiB, 0)} MiB; driver ${gpu.driverVersion}.`
    : `GPU: none reported; ${record.telemetry.gpuNote ?? 'no NVIDIA GPU telemetry'}.`;
  const providers = record.variants.map((v) => `${v.name}: ${v.targetName}, provider ${v.provider ?? 'unknown'}, engine ${v.engineVersion ?? 'unknown'}${v.modelHash ? `, model ${v.modelHash.slice(0, 12)}` : ''}, ${planText(v)}`).join('; ');
  const windowS = Number(c.windowMs) / 1000;
  const numPasses = Number(c.numPasses);
  return [
    { kind: 'heading', level: 1, text: 'Sustained concurrent inference' },
    { kind: 'paragraph', text: gpuLine },
    { kind: 'paragraph', text: `CPU: ${record.machine.cpuModel}, ${record.machine.numCpuCores} cores, ${record.machine.totalMemoryMiB} MiB; ${record.machine.platform} ${record.machine.osRelease}, Node ${record.machine.nodeVersion}.` },
    { kind: 'paragraph', text: `Variants: ${providers || DASH}.` },
    {
      kind: 'paragraph',
      text:
        `Mode ${record.mode}. ${fixed(windowS, 1)}-second steady windows, ${numPasses} pass${numPasses === 1 ? '' : 'es'} at each client count and workload. ` +
        'Variant order (and workload/client order) reverses on even passes. Each client immediately replaces its completed request. ' +
        'A completed cycle of clients fills the queue before timing starts; the final drain is excluded from throughput. ' +
        `Each variant discards a seed-${String(c.warmupSeed)} warm-up, then records the seed-${String(c.goldenSeed)} golden recording alone. ` +
        'Every load-test response, including fill and drain, must match that golden byte for byte.',
    },
    {
      kind: 'paragraph',
      text:
        'Plain is one fixed English paragraph. Processed is two SSML turns with rate/pitch/volume, a 120 ms pause and whole-recording normalisation. ' +
        'Each workload repeats one fixed seed, so audio duration and request content are identical across clients, passes and variants.',
    },
    {
      kind: 'paragraph',
      text:
        `Sampling: GPU every ${fixed(record.telemetry.gpuIntervalMs / 1000, 2)} s (${record.telemetry.gpuAvailable ? `${record.samples.gpu.length} samples` : (record.telemetry.gpuNote ?? 'unavailable')}); ` +
        `target status every ${fixed(record.telemetry.statusIntervalMs / 1000, 2)} s (${record.samples.status.length} samples). ` +
        `Client occupancy is integrated from actual send/receive transitions. Queue depth is time-weighted from timestamped status samples. ` +
        `Latencies describe requests completing inside the steady window, from send to last byte, including queue wait. ` +
        (c.stream ? 'Responses were streamed; first-audio latency is the first response byte.' : 'Complete WAV responses; complete-response latency is not a streaming first-audio measurement.'),
    },
  ];
}

function summaryBlocks(record: BenchRunRecord): ReportBlock[] {
  const rows = summaryRows(record);
  if (rows.length === 0) return [];
  const [before, after] = variantOrder(record);
  const measurements = closedMeasurements(record);
  const audioRate = (variant: string | undefined, workload: string, numClients: number) => {
    const ms = measurements.filter((m) => m.variant === variant && m.workload === workload && m.numClients === numClients);
    return ms.length ? ms.reduce((s, m) => s + m.audioSecondsPerS, 0) / ms.length : null;
  };
  const header = after
    ? ['Workload', 'Clients', `${before} req/s`, `${after} req/s`, 'Throughput change', 'Pass change range', `Completed ${before} / ${after}`, `${before} audio-s/s`, `${after} audio-s/s`]
    : ['Workload', 'Clients', `${before} req/s`, `Completed ${before}`, `${before} audio-s/s`];
  const table = rows.map((r) => {
    const range = r.passChangeMin === null ? DASH : `${signedPct(r.passChangeMin)} to ${signedPct(r.passChangeMax)}`;
    return after
      ? [r.workload, String(r.numClients), fixed(r.beforeReqPerS, 4), fixed(r.afterReqPerS, 4), signedPct(r.throughputChange), range, `${r.numCompletedBefore} / ${r.numCompletedAfter ?? DASH}`, fixed(audioRate(before, r.workload, r.numClients), 3), fixed(audioRate(after, r.workload, r.numClients), 3)]
      : [r.workload, String(r.numClients), fixed(r.beforeReqPerS, 4), String(r.numCompletedBefore), fixed(audioRate(before, r.workload, r.numClients), 3)];
  });
  return [
    { kind: 'heading', level: 2, text: 'Summary' },
    { kind: 'table', header, rows: table },
    { kind: 'paragraph', text: 'Completed-request counts have finite-window boundary variation. Pass results below show repeatability; two passes do not establish statistical confidence or a universal speedup. Burst, ramp and open-loop results are reported separately.' },
  ];
}

function passBlocks(record: BenchRunRecord): ReportBlock[] {
  const measurements = closedMeasurements(record);
  if (measurements.length === 0) return [];
  const rows = passRows(record);
  const header = ['Pass', 'Variant', 'Workload', 'Clients', 'Req/s', 'Mean outstanding', 'Mean waiting', 'Median latency s', 'p95 latency s', 'Mean GPU use %', 'Peak VRAM MiB', 'Valid',
    'Audio s/s', 'Median RTF', 'p99 latency s', 'First audio median s', 'Errors', 'Rejected', 'Timeouts', 'Host ms/step'];
  const table = rows.map((r, i) => {
    const m = measurements[i];
    return [String(r.pass), r.variant, r.workload, String(r.numClients), fixed(r.reqPerS, 4), fixed(r.meanOutstanding, 3), fixed(r.meanWaiting, 3), fixed(r.latencyMedianS, 3), fixed(r.latencyP95S, 3),
      fixed(r.gpuUtilMeanPct, 1), fixed(r.vramPeakMiB, 0), pyBool(r.valid),
      fixed(m.audioSecondsPerS, 3), fixed(m.rtfMedian, 3), seconds(m.latency?.p99Ms), seconds(m.firstAudio?.medianMs), String(m.counts.numErrors), String(m.counts.numRejected), String(m.counts.numTimeouts), fixed(m.hostMsPerStep, 1)];
  });
  const invalid = measurements.filter((m) => !m.valid).map((m) => `${m.id}: ${m.invalidReasons.join('; ')}`);
  return [
    { kind: 'heading', level: 2, text: 'Passes' },
    { kind: 'table', header, rows: table },
    { kind: 'paragraph', text: 'GPU use and peak VRAM include other processes on the GPU (a desktop, other services). GPU telemetry covers fill and drain as well as the steady window. Mean waiting is time-weighted from the target status; "—" means the target reports no status. Host ms/step: the engine\'s steps in the steady window, the time each spent outside the model stages\' runs (scheduling, sampling, copies), from its status.' },
    ...(invalid.length ? [{ kind: 'heading', level: 2, text: 'Invalid measurements' } as ReportBlock, { kind: 'list', items: invalid } as ReportBlock] : []),
  ];
}

function otherModeBlocks(record: BenchRunRecord): ReportBlock[] {
  const blocks: ReportBlock[] = [];
  if (record.bursts.length) {
    blocks.push({ kind: 'heading', level: 2, text: 'Burst' }, {
      kind: 'table',
      header: ['Pass', 'Variant', 'Workload', 'Requests', 'Time to drain s', 'Median latency s', 'p95 latency s', 'Errors', 'Rejected', 'Timeouts', 'Valid'],
      rows: record.bursts.map((b) => [String(b.pass), b.variant, b.workload, String(b.numRequests), seconds(b.drainMs), seconds(b.latency?.medianMs), seconds(b.latency?.p95Ms), String(b.counts.numErrors), String(b.counts.numRejected), String(b.counts.numTimeouts), pyBool(b.valid)]),
    });
  }
  for (const ramp of record.ramps) {
    blocks.push({ kind: 'heading', level: 2, text: `Ramp · pass ${ramp.pass} · ${ramp.variant} · ${ramp.workload}` }, {
      kind: 'table',
      header: ['Clients', 'Req/s', 'Median latency s', 'Error rate'],
      rows: ramp.steps.map((s) => [String(s.numClients), fixed(s.reqPerS, 4), seconds(s.latencyMedianMs), signedPct(s.errorRate).replace('+', '')]),
    }, { kind: 'paragraph', text: `Knee: ${ramp.knee ? formatCountOf(ramp.knee.numClients, 'client') : 'not found'} — ${ramp.kneeNote}.` });
  }
  if (record.openLoops.length) {
    blocks.push({ kind: 'heading', level: 2, text: 'Open loop (Poisson arrivals; latency from the scheduled send)' }, {
      kind: 'table',
      header: ['Pass', 'Variant', 'Workload', 'Offered req/s', 'Arrivals', 'Achieved req/s', 'Goodput req/s', 'Objective s', 'Median latency s', 'p99 latency s', 'Dropped', 'Max send lag ms', 'Valid'],
      rows: record.openLoops.map((o) => [String(o.pass), o.variant, o.workload, fixed(o.ratePerS, 3), String(o.numArrivals), fixed(o.achievedReqPerS, 4), fixed(o.goodputReqPerS, 4), seconds(o.latencyObjectiveMs), seconds(o.latency?.medianMs), seconds(o.latency?.p99Ms), String(o.counts.numDropped), fixed(o.maxSendLagMs, 1), pyBool(o.valid)]),
    });
  }
  return blocks;
}

function runBlocks(record: BenchRunRecord): ReportBlock[] {
  const identical = Object.entries(record.goldensIdenticalAcrossVariants).map(([w, same]) => `${w}: ${same === null ? 'one variant' : same ? 'identical' : 'different'}`);
  return [
    { kind: 'heading', level: 2, text: 'Run' },
    { kind: 'paragraph', text: `Run: ${record.runId}; harness ${record.harnessVersion}${record.harnessRevision ? ` (${record.harnessRevision})` : ''}; schema ${record.schemaVersion}; ${record.startedAt} → ${record.finishedAt}${record.cancelled ? '; CANCELLED (partial)' : ''}.` },
    { kind: 'paragraph', text: `Goldens across variants — ${identical.join(', ') || DASH}.` },
    { kind: 'list', items: record.inferenceHashes.map((h) => `Pass ${h.pass} ${h.variant} inference hash: ${h.sha256}.`) },
    { kind: 'heading', level: 2, text: 'Caveats' },
    { kind: 'list', items: record.caveats },
    ...(record.errors.length ? [{ kind: 'heading', level: 2, text: 'Errors' } as ReportBlock, { kind: 'list', items: record.errors } as ReportBlock] : []),
  ];
}

export function buildReportBlocks(record: BenchRunRecord): ReportBlock[] {
  return [...headerBlocks(record), ...summaryBlocks(record), ...passBlocks(record), ...otherModeBlocks(record), ...runBlocks(record)];
}
