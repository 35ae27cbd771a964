/**
 * Test helper: the batch-invariance check. Each request's codes and PCM bytes are the same run alone,
 * run with all the others at once and run with staggered arrivals; with `reference`, its codes also
 * equal the unbatched reference path's (reference-synthesis.ts).
 */
import { expect } from 'vitest';
import type { SynthesisRequest } from '../../../src-shared/synthesis';
import type { Engine } from '../engine';
import { referenceSynthesis } from '../reference-synthesis';
import { runAndCollect } from './run-and-collect';

export async function expectBatchInvariant(engine: Engine, requests: readonly SynthesisRequest[], arrivalSteps: readonly number[], options: { reference?: boolean } = {}): Promise<void> {
  const together = await runAndCollect(engine, requests);
  const staggered = await runAndCollect(engine, requests, arrivalSteps);
  const p = engine.parts;
  for (const r of requests) {
    const alone = (await runAndCollect(engine, [r])).get(r.requestId)!;
    expect(together.get(r.requestId), r.requestId).toEqual(alone);
    expect(staggered.get(r.requestId), r.requestId).toEqual(alone);
    if (options.reference) expect(alone.codes).toEqual((await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r)).codes);
  }
}
