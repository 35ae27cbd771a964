/**
 * Joins turn PCM in order. Plain text (one turn, no segments) gets the same whole-recording
 * loudness normalisation and true-peak ceiling as SSML (one gain, nothing else), so its streamed
 * chunks are the model's samples before that gain (a gain needs the whole clip's loudness). SSML
 * goes through the audio pipeline: per-turn rate/pitch/gain, breaks, crossfades, <audio> inserts, whole-recording
 * loudness normalisation (to the request's `loudness`, else the default; null: none), mark timestamps and the processing trace. Pure: the <audio> files are
 * loaded beforehand (audio-inserts.ts), so nothing here touches the file system.
 */
import type { MarkTimestamp, ProcessingTrace, SynthesisResult } from '../../src-shared/synthesis';
import { renderTimeline } from '../audio/pipeline';
import { resolveAudioConfig } from '../audio/audio-config';
import { normalizeLoudness } from '../audio/normalize-loudness';
import { measureIntegratedLoudness } from '../audio/loudness';
import { measureTruePeakDbtp } from '../audio/true-peak';
import { timelineFromSegments } from '../audio/timeline-from-segments';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { LoadedInserts } from './audio-inserts';
import type { TurnPlan } from './turn-plan';

export interface JoinedAudio {
  pcm: Float32Array;
  turnSpans: SynthesisResult['turnSpans'];
  marks: MarkTimestamp[];
  trace: ProcessingTrace | null;
  warnings: string[];
}

/** Joins the turns; `inserts` holds the already-loaded <audio> files (a refused one is left out). */
export function joinTurns(request: SynthesisRequest, plan: TurnPlan, turns: readonly SynthesisResult[], inserts: LoadedInserts): JoinedAudio {
  if (plan.segments === null) {
    const turn = turns[0];
    const target = request.loudness === undefined ? resolveAudioConfig().loudness : request.loudness;
    const normalised = target === null ? measuredOnly(turn.pcm, turn.sampleRateHz) : normalizeLoudness(turn.pcm, turn.sampleRateHz, target);
    const trace: ProcessingTrace = {
      turns: [{ turnIndex: 0, voice: request.voice, language: request.language, rate: 1, pitchSemitones: 0, gainDb: 0, durationMs: (turn.pcm.length * 1000) / turn.sampleRateHz, breakBeforeMs: 0 }],
      loudnessMeasuredLufs: normalised.measuredLufs,
      loudnessFinalLufs: normalised.finalLufs,
      truePeakFinalDbtp: normalised.finalTruePeakDbtp,
    };
    return { pcm: normalised.pcm, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: normalised.pcm.length }], marks: [], trace, warnings: normalised.warning ? [normalised.warning] : [] };
  }
  const items = timelineFromSegments(plan.segments, {
    turns: new Map(plan.turns.map((t, i) => [t.index, { pcm: turns[i].pcm, sampleRateHz: turns[i].sampleRateHz }])),
    audio: inserts.audio,
    defaultVoice: request.voice,
    defaultLanguage: request.language,
  });
  const rendered = renderTimeline({ items, ...(request.loudness !== undefined ? { loudness: request.loudness } : {}) });
  return { pcm: rendered.pcm, turnSpans: rendered.turnSpans, marks: rendered.marks, trace: rendered.trace, warnings: [...inserts.warnings, ...(rendered.loudness?.warning ? [rendered.loudness.warning] : [])] };
}

/** The turn as the model made it (`loudness: null`): no gain, its loudness and true peak measured for the trace. */
function measuredOnly(pcm: Float32Array, sampleRateHz: number): { pcm: Float32Array; measuredLufs: number | null; finalLufs: number | null; finalTruePeakDbtp: number | null; warning?: string } {
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const measuredLufs = finite(measureIntegratedLoudness(pcm, sampleRateHz));
  return { pcm, measuredLufs, finalLufs: measuredLufs, finalTruePeakDbtp: finite(measureTruePeakDbtp(pcm, sampleRateHz)) };
}
