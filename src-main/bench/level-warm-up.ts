/**
 * The warm-up of one level before its measured window: the level's concurrency of requests at once
 * (warm-up seed), answers discarded, so no level's figure carries the first use of its batch shapes
 * (a CUDA graph capture, a bucket's buffers). The bench does not rely on the engine's start-up warm-up
 * (EngineConfig.warmUp): that one stops at graphCapture.maxBuckets buckets a stage, and a request's own
 * top_k or a cloned voice's first codec chunk can open buckets it never saw (docs/benchmarks.md).
 */
import type { BenchTarget } from './target';
import type { BenchWorkload } from './workloads';
import type { RunContext } from './run-context';
import { sendRequest } from './send-request';

/** Sends numClients warm-up requests together and waits for all; their samples are kept as phase 'warmup' under their own id. */
export async function warmLevel(ctx: RunContext, pass: number, variant: string, target: BenchTarget, workload: BenchWorkload, numClients: number): Promise<void> {
  const { config } = ctx;
  const measurementId = `warmup-p${pass}-${variant}-${workload.name}-c${numClients}`;
  ctx.emit({ pass, variant, workload: workload.name, numClients, phase: 'warmup', windowLeftMs: null, numCompleted: 0 });
  const request = { ...workload.request, seed: config.warmupSeed, stream: config.stream };
  const base = { measurementId, target, request, golden: null, clock: ctx.clock, requestTimeoutMs: config.requestTimeoutMs, signal: ctx.signal, phaseAt: () => 'warmup' as const };
  const sent = await Promise.all(Array.from({ length: numClients }, (_, i) => sendRequest(base, i, i)));
  ctx.out.requestSamples.push(...sent.map((s) => s.sample));
}
