/**
 * One variant within one pass: create its target, run setup, warm up (seed 9001, discarded) and
 * record the golden (seed 42, alone) per workload, then run the configured mode's measurements in
 * this pass's order, each closed, ramp or burst level after a warm-up at its own concurrency
 * (level-warm-up.ts), then teardown and dispose. Failures are recorded in the run, not thrown.
 */
import { createHash } from 'node:crypto';
import { toStudioError } from '../../src-shared/errors';
import type { BenchSynthesisRequest, BenchTarget, BenchVariant } from './target';
import { builtInWorkload, type BenchWorkload } from './workloads';
import { runClosedLoop } from './closed-loop';
import { runBurst } from './burst';
import { runOpenLoop } from './open-loop';
import { countOutcomes, invalidReasonsOf, summariseClosedMeasurement } from './measurement-summary';
import { findRampKnee } from './ramp-knee';
import { warmLevel } from './level-warm-up';
import { sendRequest } from './send-request';
import { startStatusSampler } from './status-sampler';
import { summariseLatencies } from '../telemetry/percentile';
import type { ClosedMeasurement } from './run-record';
import type { RunContext } from './run-context';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

function loadRequest(ctx: RunContext, workload: BenchWorkload, seed: number): BenchSynthesisRequest {
  return { ...workload.request, seed, stream: ctx.config.stream };
}

/** Warm-up and golden for one workload; returns the golden bytes or null when it failed. */
async function recordGolden(ctx: RunContext, pass: number, variant: BenchVariant, target: BenchTarget, workload: BenchWorkload): Promise<Uint8Array | null> {
  const { config } = ctx;
  const measurementId = `golden-p${pass}-${variant.name}-${workload.name}`;
  const base = { measurementId, target, golden: null, clock: ctx.clock, requestTimeoutMs: config.requestTimeoutMs, signal: ctx.signal };
  const common = { pass, variant: variant.name, workload: workload.name, numClients: 1, windowLeftMs: null, numCompleted: 0 };
  ctx.emit({ ...common, phase: 'warmup' });
  const warm = await sendRequest({ ...base, request: loadRequest(ctx, workload, config.warmupSeed), phaseAt: () => 'warmup' }, 0, 0);
  ctx.out.requestSamples.push(warm.sample);
  ctx.emit({ ...common, phase: 'golden' });
  const gold = await sendRequest({ ...base, request: loadRequest(ctx, workload, config.goldenSeed), phaseAt: () => 'golden' }, 1, 0);
  ctx.out.requestSamples.push(gold.sample);
  const ok = gold.sample.outcome === 'ok';
  const first = ctx.firstGoldens.get(variant.name)?.get(workload.name) ?? null;
  const digest = ok ? sha256(gold.bytes) : '';
  ctx.out.goldens.push({
    pass,
    variant: variant.name,
    workload: workload.name,
    sha256: digest,
    numBytes: gold.bytes.length,
    audioDurationMs: gold.sample.audioDurationMs,
    latencyMs: gold.sample.endMs - gold.sample.sendMs,
    matchesFirstPass: ok && first ? sha256(first) === digest : null,
    errorMessage: ok ? null : (gold.sample.errorMessage ?? `golden request ended as ${gold.sample.outcome}`),
  });
  if (!ok) {
    ctx.out.errors.push(`pass ${pass} ${variant.name} ${workload.name}: golden request failed (${gold.sample.errorMessage}); its measurements were skipped`);
    return null;
  }
  if (!first) {
    if (!ctx.firstGoldens.has(variant.name)) ctx.firstGoldens.set(variant.name, new Map());
    ctx.firstGoldens.get(variant.name)?.set(workload.name, gold.bytes);
  }
  return gold.bytes;
}

async function measureClosed(ctx: RunContext, pass: number, variant: string, target: BenchTarget, workload: BenchWorkload, golden: Uint8Array, numClients: number, kind: ClosedMeasurement['kind']): Promise<ClosedMeasurement> {
  const { config } = ctx;
  const id = `${kind === 'closed' ? '' : 'ramp-'}p${pass}-${variant}-${workload.name}-c${numClients}`;
  await warmLevel(ctx, pass, variant, target, workload, numClients);
  const sampler = startStatusSampler(target, id, config.statusIntervalMs, ctx.clock, ctx.signal);
  const run = await runClosedLoop({
    measurementId: id, target, request: loadRequest(ctx, workload, config.goldenSeed), golden, numClients,
    windowMs: config.windowMs, requestTimeoutMs: config.requestTimeoutMs, fillTimeoutMs: config.fillTimeoutMs,
    drainTimeoutMs: config.drainTimeoutMs, maxRequestsPerClient: config.maxRequestsPerClient,
    rejectionBackoffMs: config.rejectionBackoffMs, clock: ctx.clock, signal: ctx.signal,
    onDidUpdate: (s) => ctx.emit({ pass, variant, workload: workload.name, numClients, phase: kind === 'closed' ? s.phase : 'ramp', windowLeftMs: s.windowLeftMs, numCompleted: s.numCompleted }),
  });
  await sampler.stop();
  ctx.out.requestSamples.push(...run.samples);
  ctx.out.statusSamples.push(...sampler.samples);
  const measurement = summariseClosedMeasurement({
    id, kind, pass, variant, workload: workload.name, numClients, windowMs: config.windowMs, ...run,
    status: sampler.samples, gpu: ctx.gpu.samples, goldenSha256: sha256(golden),
  });
  ctx.out.measurements.push(measurement);
  return measurement;
}

async function measureBurst(ctx: RunContext, pass: number, variant: string, target: BenchTarget, workload: BenchWorkload, golden: Uint8Array, numRequests: number) {
  const id = `burst-p${pass}-${variant}-${workload.name}-n${numRequests}`;
  await warmLevel(ctx, pass, variant, target, workload, numRequests);
  ctx.emit({ pass, variant, workload: workload.name, numClients: numRequests, phase: 'burst', windowLeftMs: null, numCompleted: 0 });
  const run = await runBurst({ measurementId: id, target, request: loadRequest(ctx, workload, ctx.config.goldenSeed), golden, numRequests, requestTimeoutMs: ctx.config.requestTimeoutMs, clock: ctx.clock, signal: ctx.signal });
  ctx.out.requestSamples.push(...run.samples);
  const counts = countOutcomes(run.samples);
  const invalidReasons = invalidReasonsOf(run.samples, counts);
  const answered = run.samples.filter((s) => s.outcome === 'ok' || s.outcome === 'mismatch');
  ctx.out.bursts.push({
    id, pass, variant, workload: workload.name, numRequests, startMs: run.startMs, drainMs: run.endMs - run.startMs,
    latency: summariseLatencies(answered.map((s) => s.endMs - s.sendMs)), counts, valid: invalidReasons.length === 0, invalidReasons,
  });
}

async function measureOpen(ctx: RunContext, pass: number, variant: string, target: BenchTarget, workload: BenchWorkload, golden: Uint8Array) {
  const { config } = ctx;
  const id = `open-p${pass}-${variant}-${workload.name}-r${config.open.ratePerS}`;
  const sampler = startStatusSampler(target, id, config.statusIntervalMs, ctx.clock, ctx.signal);
  const run = await runOpenLoop({
    measurementId: id, target, request: loadRequest(ctx, workload, config.goldenSeed), golden, open: config.open, durationMs: config.windowMs,
    requestTimeoutMs: config.requestTimeoutMs, drainTimeoutMs: config.drainTimeoutMs, clock: ctx.clock, signal: ctx.signal,
    onDidUpdate: (s) => ctx.emit({ pass, variant, workload: workload.name, numClients: null, phase: 'open', windowLeftMs: null, numCompleted: s.numCompleted }),
  });
  await sampler.stop();
  ctx.out.requestSamples.push(...run.samples);
  ctx.out.statusSamples.push(...sampler.samples);
  const counts = countOutcomes(run.samples);
  const invalidReasons = [...invalidReasonsOf(run.samples, counts), ...run.notes];
  const answered = run.samples.filter((s) => s.outcome === 'ok' || s.outcome === 'mismatch');
  const latenciesMs = answered.map((s) => s.endMs - s.scheduledMs); // from the arrival clock: no coordinated omission
  const numGood = answered.filter((s) => s.outcome === 'ok' && s.endMs - s.scheduledMs <= config.open.latencyObjectiveMs).length;
  const sent = run.samples.filter((s) => s.outcome !== 'dropped');
  ctx.out.openLoops.push({
    id, pass, variant, workload: workload.name, ratePerS: config.open.ratePerS, latencyObjectiveMs: config.open.latencyObjectiveMs,
    durationMs: config.windowMs, numArrivals: run.numArrivals, startMs: run.startMs, endMs: run.endMs,
    achievedReqPerS: answered.length / (config.windowMs / 1000), goodputReqPerS: numGood / (config.windowMs / 1000),
    maxSendLagMs: sent.length ? Math.max(...sent.map((s) => s.sendMs - s.scheduledMs)) : 0,
    latency: summariseLatencies(latenciesMs), counts, valid: invalidReasons.length === 0, invalidReasons,
  });
}

async function measureRamp(ctx: RunContext, pass: number, variant: string, target: BenchTarget, workload: BenchWorkload, golden: Uint8Array) {
  const steps: ClosedMeasurement[] = [];
  for (const numClients of ctx.config.ramp.clientCounts) {
    if (ctx.signal.aborted) break;
    ctx.nextMeasurement();
    steps.push(await measureClosed(ctx, pass, variant, target, workload, golden, numClients, 'ramp-step'));
  }
  const figures = steps.map((s) => ({ numClients: s.numClients, reqPerS: s.reqPerS, latencyMedianMs: s.latency?.medianMs ?? null }));
  const { knee, note } = findRampKnee(figures, ctx.config.ramp.kneeGainFraction);
  ctx.out.ramps.push({
    pass, variant, workload: workload.name, stepIds: steps.map((s) => s.id),
    steps: steps.map((s, i) => ({
      ...figures[i],
      errorRate: s.counts.numRequests ? (s.counts.numErrors + s.counts.numTimeouts + s.counts.numRejected) / s.counts.numRequests : 0,
    })),
    knee: knee ? { numClients: knee.numClients, reqPerS: knee.reqPerS } : null,
    kneeNote: note,
  });
}

/** Runs everything one variant does in one pass; `reversed` flips the workload/client order (pass 2). */
export async function runVariantSession(ctx: RunContext, pass: number, variant: BenchVariant, reversed: boolean): Promise<void> {
  const { config } = ctx;
  const workloadsInOrder = (reversed ? [...config.workloads].reverse() : [...config.workloads]).map((name) => builtInWorkload(name, config.voice, config.language));
  const common = { pass, variant: variant.name, workload: null, numClients: null, windowLeftMs: null, numCompleted: 0 };
  let target: BenchTarget | null = null;
  try {
    ctx.emit({ ...common, phase: 'setup' });
    target = await variant.createTarget();
    await variant.setup?.(target);
    if (!ctx.out.variants.some((v) => v.name === variant.name)) {
      const description = (await target.describe?.().catch(() => null)) ?? null;
      const statusAvailable = (await target.status?.().catch(() => null)) != null;
      ctx.out.variants.push({
        name: variant.name, description: variant.description ?? null, targetName: target.name,
        engineVersion: description?.engineVersion ?? null, provider: description?.provider ?? null, modelHash: description?.modelHash ?? null, statusAvailable, plan: description?.plan ?? null,
      });
    }
    const goldens = new Map<string, Uint8Array>();
    for (const workload of workloadsInOrder) {
      if (ctx.signal.aborted) return;
      const golden = await recordGolden(ctx, pass, variant, target, workload);
      if (golden) goldens.set(workload.name, golden);
    }
    const names = [...goldens.keys()].sort();
    ctx.out.inferenceHashes.push({ pass, variant: variant.name, sha256: sha256(names.map((n) => `${n}:${sha256(goldens.get(n) as Uint8Array)}`).join('\n')) });

    const clientCountsInOrder = reversed ? [...config.clientCounts].reverse() : [...config.clientCounts];
    for (const workload of workloadsInOrder) {
      const golden = goldens.get(workload.name);
      if (!golden || ctx.signal.aborted) continue;
      if (config.mode === 'closed' || config.mode === 'burst') {
        for (const numClients of clientCountsInOrder) {
          if (ctx.signal.aborted) break;
          ctx.nextMeasurement();
          if (config.mode === 'closed') await measureClosed(ctx, pass, variant.name, target, workload, golden, numClients, 'closed');
          else await measureBurst(ctx, pass, variant.name, target, workload, golden, numClients);
        }
      } else if (config.mode === 'ramp') {
        await measureRamp(ctx, pass, variant.name, target, workload, golden);
      } else {
        ctx.nextMeasurement();
        await measureOpen(ctx, pass, variant.name, target, workload, golden);
      }
    }
  } catch (err) {
    const e = toStudioError(err);
    ctx.out.errors.push(`pass ${pass} ${variant.name}: ${e.code}: ${e.message}`);
  } finally {
    if (target) {
      ctx.emit({ ...common, phase: 'teardown' });
      try {
        await variant.teardown?.(target);
        await target.dispose();
      } catch (err) {
        ctx.out.errors.push(`pass ${pass} ${variant.name} teardown: ${toStudioError(err).message}`);
      }
    }
  }
}
