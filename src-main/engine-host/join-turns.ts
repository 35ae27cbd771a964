/**
 * Joins turn PCM in order. Plain text (one turn, no post-processing) passes the model's PCM through
 * untouched, so streamed chunks and the final result are the same samples. SSML turns are handed
 * to the audio pipeline (prosody, breaks, crossfades, loudness).
 */
import type { MarkTimestamp, ProcessingTrace, SynthesisResult } from '../../src-shared/synthesis';
import type { TurnPlan } from './turn-plan';

export interface JoinedAudio {
  pcm: Float32Array;
  turnSpans: SynthesisResult['turnSpans'];
  marks: MarkTimestamp[];
  trace: ProcessingTrace | null;
}

export function joinTurns(plan: TurnPlan, turns: readonly SynthesisResult[]): JoinedAudio {
  if (!plan.postProcess && turns.length === 1) {
    return { pcm: turns[0].pcm, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: turns[0].pcm.length }], marks: [], trace: null };
  }
  const sampleRateHz = turns[0].sampleRateHz;
  const breakSamples = plan.turns.map((t) => Math.round((t.breakBeforeMs * sampleRateHz) / 1000));
  const total = turns.reduce((n, t, i) => n + t.pcm.length + breakSamples[i], 0) + Math.round((plan.trailingBreakMs * sampleRateHz) / 1000);
  const pcm = new Float32Array(total);
  const turnSpans: SynthesisResult['turnSpans'] = [];
  let at = 0;
  turns.forEach((t, i) => {
    at += breakSamples[i];
    pcm.set(t.pcm, at);
    turnSpans.push({ turnIndex: i, startSample: at, endSample: at + t.pcm.length });
    at += t.pcm.length;
  });
  const marks = plan.marks.map((m) => {
    const span = turnSpans[m.turnIndex];
    return { name: m.name, timeMs: ((m.atTurnStart ? span.startSample : span.endSample) * 1000) / sampleRateHz };
  });
  return { pcm, turnSpans, marks, trace: null };
}
