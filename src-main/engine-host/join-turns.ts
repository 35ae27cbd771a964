/**
 * Joins turn PCM in order. Plain text (one turn, no segments) gets the same whole-recording
 * loudness normalisation and true-peak ceiling as SSML (one gain, nothing else), so its streamed
 * chunks are the model's samples before that gain (a gain needs the whole clip's loudness). SSML
 * goes through the audio pipeline: per-part rate/pitch/gain, breaks, crossfades, <audio> inserts, whole-recording
 * loudness normalisation (to the request's `loudness`, else the default; null: none), mark timestamps and the processing trace.
 * Spans and trace are then reported by dialogue turn: one span from a turn's first part to its last, its parts listed in the trace.
 * Pure: the <audio> files are loaded beforehand (audio-inserts.ts), so nothing here touches the file system.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { MarkTimestamp, ProcessingTrace, SynthesisResult, TurnTrace } from '../../src-shared/synthesis';
import { renderTimeline, type TurnSpan } from '../audio/pipeline';
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
      turns: [{ turnIndex: 0, partIndex: 0, voice: request.voice, language: request.language, rate: 1, pitchSemitones: 0, gainDb: 0, durationMs: (turn.pcm.length * 1000) / turn.sampleRateHz, breakBeforeMs: 0 }],
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
  const { turnSpans, trace } = byDialogueTurn(plan, rendered.turnSpans, rendered.trace);
  return { pcm: rendered.pcm, turnSpans, marks: rendered.marks, trace, warnings: [...inserts.warnings, ...(rendered.loudness?.warning ? [rendered.loudness.warning] : [])] };
}

/**
 * The pipeline's spans and trace are per part (segment index); a dialogue turn spans its first
 * part's start to its last part's end (inner breaks and audio inside), and its parts are listed in
 * the trace under its index, numbered within it. The samples are not touched.
 */
export function byDialogueTurn(plan: TurnPlan, partSpans: readonly TurnSpan[], partTrace: ProcessingTrace): { turnSpans: TurnSpan[]; trace: ProcessingTrace } {
  const dialogueTurnOf = new Map(plan.turns.map((t) => [t.index, t.dialogueTurnIndex]));
  const turnOf = (partIndex: number): number => dialogueTurnOf.get(partIndex) ?? partIndex;
  const turnSpans: TurnSpan[] = [];
  for (const span of partSpans) {
    const turnIndex = turnOf(span.turnIndex);
    const open = turnSpans[turnSpans.length - 1];
    if (open?.turnIndex === turnIndex) {
      open.startSample = Math.min(open.startSample, span.startSample);
      open.endSample = Math.max(open.endSample, span.endSample);
    } else {
      turnSpans.push({ turnIndex, startSample: span.startSample, endSample: span.endSample });
    }
  }
  const numParts = new Map<number, number>();
  const turns = partTrace.turns.map((t): TurnTrace => {
    const turnIndex = turnOf(t.turnIndex);
    const partIndex = numParts.get(turnIndex) ?? 0;
    numParts.set(turnIndex, partIndex + 1);
    return { ...t, turnIndex, partIndex };
  });
  return { turnSpans, trace: { ...partTrace, turns } };
}

/** The turn as the model made it (`loudness: null`): no gain, its loudness and true peak measured for the trace. */
function measuredOnly(pcm: Float32Array, sampleRateHz: number): { pcm: Float32Array; measuredLufs: number | null; finalLufs: number | null; finalTruePeakDbtp: number | null; warning?: string } {
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const measuredLufs = finite(measureIntegratedLoudness(pcm, sampleRateHz));
  return { pcm, measuredLufs, finalLufs: measuredLufs, finalTruePeakDbtp: finite(measureTruePeakDbtp(pcm, sampleRateHz)) };
}
