/**
 * Joins turn PCM in order. Plain text (one turn, no segments) passes the model's PCM through
 * untouched, so streamed chunks and the final result are the same samples. SSML goes through the
 * audio pipeline: per-turn rate/pitch/gain, breaks, crossfades, <audio> inserts, whole-recording
 * loudness normalisation, mark timestamps and the processing trace.
 */
import fs from 'node:fs';
import type { MarkTimestamp, ProcessingTrace, SynthesisResult } from '../../src-shared/synthesis';
import { decodeWav } from '../audio/wav';
import { renderTimeline } from '../audio/pipeline';
import { timelineFromSegments } from '../audio/timeline-from-segments';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { TurnPlan } from './turn-plan';

export interface JoinedAudio {
  pcm: Float32Array;
  turnSpans: SynthesisResult['turnSpans'];
  marks: MarkTimestamp[];
  trace: ProcessingTrace | null;
  warnings: string[];
}

/** Loads the local files of <audio> elements; a file that cannot be read is skipped with a warning. */
function loadAudioInserts(plan: TurnPlan, warnings: string[]): Map<string, { pcm: Float32Array; sampleRateHz: number }> {
  const audio = new Map<string, { pcm: Float32Array; sampleRateHz: number }>();
  for (const s of plan.segments ?? []) {
    if (s.kind !== 'audio' || audio.has(s.src)) continue;
    try {
      audio.set(s.src, decodeWav(new Uint8Array(fs.readFileSync(s.src))));
    } catch (err) {
      warnings.push(`<audio src="${s.src}"> was not inserted: ${(err as Error).message}`);
    }
  }
  return audio;
}

export function joinTurns(request: SynthesisRequest, plan: TurnPlan, turns: readonly SynthesisResult[]): JoinedAudio {
  if (plan.segments === null) {
    return { pcm: turns[0].pcm, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: turns[0].pcm.length }], marks: [], trace: null, warnings: [] };
  }
  const warnings: string[] = [];
  const items = timelineFromSegments(plan.segments, {
    turns: new Map(plan.turns.map((t, i) => [t.index, { pcm: turns[i].pcm, sampleRateHz: turns[i].sampleRateHz }])),
    audio: loadAudioInserts(plan, warnings),
    defaultVoice: request.voice,
    defaultLanguage: request.language,
  });
  const rendered = renderTimeline({ items });
  return { pcm: rendered.pcm, turnSpans: rendered.turnSpans, marks: rendered.marks, trace: rendered.trace, warnings };
}
