/**
 * Builds the SynthesisResult of a finished sequence: the PCM joined from its chunks, timings
 * (queue wait, first audio, total, RTF), effective params and warnings. Pure.
 */
import type { SynthesisResult } from '../../src-shared/synthesis';
import type { Sequence } from './sequence';

export function joinPcm(chunks: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export function buildResult(sequence: Sequence, sampleRateHz: number, modelHash: string): SynthesisResult {
  const pcm = joinPcm(sequence.pcmChunks);
  const t = sequence.times;
  const finishedMs = t.finishedMs ?? t.enqueuedMs;
  const latencyTotalMs = finishedMs - t.enqueuedMs;
  const audioDurationMs = (pcm.length * 1000) / sampleRateHz;
  const r = sequence.request;
  return {
    requestId: r.requestId,
    sampleRateHz,
    numSamples: pcm.length,
    pcm,
    timings: {
      numPromptTokens: sequence.prompt.rows.length,
      numFrames: sequence.codes.length,
      queueWaitMs: (t.admittedMs ?? finishedMs) - t.enqueuedMs,
      latencyFirstAudioMs: (t.firstAudioMs ?? finishedMs) - t.enqueuedMs,
      latencyTotalMs,
      audioDurationMs,
      rtf: audioDurationMs > 0 ? latencyTotalMs / audioDurationMs : 0,
    },
    effectiveParams: { ...sequence.params, seed: sequence.seed, voice: r.voice, language: r.language },
    warnings: sequence.warnings,
    truncated: sequence.truncated,
    modelHash,
    marks: [],
    trace: null,
    turnSpans: [{ turnIndex: 0, startSample: 0, endSample: pcm.length }],
  };
}
