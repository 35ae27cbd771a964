/**
 * Convenience front doors over an Engine: synthesize(engine, request) resolves with the request's
 * SynthesisResult (driving engine.step() itself when nobody else runs the loop), and
 * synthesizeToWav writes it as 16-bit PCM or 32-bit float WAV. Cancellation and failures reject
 * with a StudioError ('cancelled' or the failure's code).
 */
import fs from 'node:fs';
import { StudioError } from '../../src-shared/errors';
import type { SynthesisOutcome, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { Engine } from './engine';
import { encodeWav, type WavFormat } from '../audio/wav-encode';

export async function synthesize(engine: Engine, request: SynthesisRequest): Promise<SynthesisResult> {
  const box: { outcome: SynthesisOutcome | null } = { outcome: null };
  const unsubscribe = engine.onDidFinish((o) => {
    const id = o.status === 'done' ? o.result.requestId : o.requestId;
    if (id === request.requestId) box.outcome = o;
  });
  try {
    engine.addRequest(request);
    while (box.outcome === null) {
      const report = await engine.step();
      if (report.kind === 'idle' && box.outcome === null) throw new StudioError('internal', `engine went idle before request '${request.requestId}' finished`);
    }
  } finally {
    unsubscribe();
  }
  const o: SynthesisOutcome = box.outcome;
  switch (o.status) {
    case 'done':
      return o.result;
    case 'cancelled':
      throw new StudioError('cancelled', `request '${request.requestId}' was cancelled`, { requestId: request.requestId });
    case 'failed':
      throw StudioError.fromSerialized(o.error);
  }
}

/** Synthesizes and writes a WAV file; returns the result (its pcm is what was written). */
export async function synthesizeToWav(engine: Engine, request: SynthesisRequest, outPath: string, format: WavFormat = 'pcm16'): Promise<SynthesisResult> {
  const result = await synthesize(engine, request);
  fs.writeFileSync(outPath, encodeWav(result.pcm, result.sampleRateHz, format));
  return result;
}
