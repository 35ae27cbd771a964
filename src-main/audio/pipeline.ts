/**
 * Renders an ordered timeline (turn clips, breaks, marks, inserted audio) into one recording.
 * Fixed order, documented once here:
 *   1. per clip: resample to the output rate → time-stretch (rate) → pitch shift → gain (dB);
 *   2. joins: breaks become generated silence; a clip next to silence or the recording's edge
 *      gets a crossfadeMs raised-cosine fade; two clips that touch overlap by crossfadeMs;
 *   3. one whole-recording loudness normalisation (BS.1770-4 gain under a true-peak ceiling).
 * Pure: PCM in, PCM out. Loading clips (synthesis, <audio> files) is the caller's job.
 */
import { StudioError } from '../../src-shared/errors';
import type { MarkTimestamp, ProcessingTrace, TurnTrace } from '../../src-shared/synthesis';
import { msToSamples, samplesToMs } from '../../src-shared/units';
import { resolveAudioConfig, type AudioConfig } from './audio-config';
import { fadeEdges, overlapAdd } from './crossfade';
import { applyGainDb } from './gain';
import { measureIntegratedLoudness } from './loudness';
import { normalizeLoudness, type LoudnessResult, type LoudnessTarget } from './normalize-loudness';
import { pitchShift } from './pitch-shift';
import { resample } from './resample';
import { timeStretch } from './time-stretch';
import { measureTruePeakDbtp } from './true-peak';

export interface TimelineTurn {
  kind: 'turn';
  turnIndex: number;
  /** Resolved names for the trace (the request's defaults already filled in). */
  voice: string;
  language: string;
  pcm: Float32Array;
  sampleRateHz: number;
  rate: number;
  pitchSemitones: number;
  gainDb: number;
}

export interface TimelineBreak {
  kind: 'break';
  durationMs: number;
}

/** A named point: inside turn `turnIndex` at `turnFraction` (0…1) of its length, or, with turnIndex null, where it stands. */
export interface TimelineMark {
  kind: 'mark';
  name: string;
  turnIndex: number | null;
  turnFraction: number;
}

/** Pre-recorded audio inserted as is (after resampling and optional gain). */
export interface TimelineAudio {
  kind: 'audio';
  pcm: Float32Array;
  sampleRateHz: number;
  gainDb?: number;
}

export type TimelineItem = TimelineTurn | TimelineBreak | TimelineMark | TimelineAudio;

export interface RenderTimelineInput {
  items: readonly TimelineItem[];
  /** Undefined: config.loudness; null: no normalisation (loudness is still measured). */
  loudness?: LoudnessTarget | null;
}

export interface TurnSpan {
  turnIndex: number;
  startSample: number;
  endSample: number;
}

export interface RenderedTimeline {
  pcm: Float32Array;
  sampleRateHz: number;
  trace: ProcessingTrace;
  turnSpans: TurnSpan[];
  marks: MarkTimestamp[];
  loudness: LoudnessResult | null;
}

interface PlacedClip {
  pcm: Float32Array;
  turn: TimelineTurn | null;
  breakBeforeMs: number;
  startSample: number;
}

type Piece = { kind: 'clip'; clip: PlacedClip } | { kind: 'silence'; numSamples: number } | { kind: 'mark'; mark: TimelineMark };

export function renderTimeline(input: RenderTimelineInput, overrides: Parameters<typeof resolveAudioConfig>[0] = {}): RenderedTimeline {
  const config = resolveAudioConfig(overrides);
  const rateHz = config.outputSampleRateHz;
  const pieces = input.items.map((item) => toPiece(item, config));
  const fadeSamples = msToSamples(config.crossfadeMs, rateHz);

  // Layout: total length and the overlap at every clip-clip join.
  let numTotal = 0;
  let prevClip: PlacedClip | null = null;
  let breakMs = 0;
  const overlaps = new Map<PlacedClip, number>();
  for (const piece of pieces) {
    if (piece.kind === 'silence') {
      numTotal += piece.numSamples;
      if (piece.numSamples > 0) prevClip = null;
      breakMs += samplesToMs(piece.numSamples, rateHz);
    } else if (piece.kind === 'clip') {
      const overlap = prevClip ? Math.min(fadeSamples, prevClip.pcm.length >> 1, piece.clip.pcm.length >> 1) : 0;
      overlaps.set(piece.clip, overlap);
      piece.clip.breakBeforeMs = breakMs;
      breakMs = 0;
      numTotal += piece.clip.pcm.length - overlap;
      prevClip = piece.clip;
    }
  }

  const out = new Float32Array(numTotal);
  const freeMarks: MarkTimestamp[] = [];
  const turnMarks: TimelineMark[] = [];
  let cursor = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.kind === 'silence') {
      cursor += piece.numSamples;
    } else if (piece.kind === 'mark') {
      if (piece.mark.turnIndex === null) freeMarks.push({ name: piece.mark.name, timeMs: samplesToMs(cursor, rateHz) });
      else turnMarks.push(piece.mark);
    } else {
      const clip = piece.clip;
      const overlap = overlaps.get(clip) ?? 0;
      const nextIsClip = nextAudible(pieces, i)?.kind === 'clip';
      fadeEdges(clip.pcm, overlap > 0 ? 0 : fadeSamples, nextIsClip ? 0 : fadeSamples);
      clip.startSample = cursor - overlap;
      cursor = overlapAdd(out, clip.startSample, clip.pcm, overlap);
    }
  }

  const clips = pieces.flatMap((p) => (p.kind === 'clip' ? [p.clip] : []));
  const turnClips = clips.filter((c): c is PlacedClip & { turn: TimelineTurn } => c.turn !== null);
  const turnSpans = turnClips.map((c) => ({ turnIndex: c.turn.turnIndex, startSample: c.startSample, endSample: c.startSample + c.pcm.length }));
  const marks = [...freeMarks, ...turnMarks.map((m) => markInTurn(m, turnSpans, rateHz))].sort((a, b) => a.timeMs - b.timeMs);

  const target = input.loudness === undefined ? config.loudness : input.loudness;
  const loudness = target === null ? null : normalizeLoudness(out, rateHz, target);
  const pcm = loudness ? loudness.pcm : out;
  const measuredLufs = loudness ? loudness.measuredLufs : finiteOrNull(measureIntegratedLoudness(out, rateHz));
  const trace: ProcessingTrace = {
    turns: turnClips.map((c): TurnTrace => ({
      turnIndex: c.turn.turnIndex,
      voice: c.turn.voice,
      language: c.turn.language,
      rate: c.turn.rate,
      pitchSemitones: c.turn.pitchSemitones,
      gainDb: c.turn.gainDb,
      durationMs: samplesToMs(c.pcm.length, rateHz),
      breakBeforeMs: c.breakBeforeMs,
    })),
    loudnessMeasuredLufs: measuredLufs,
    loudnessFinalLufs: loudness ? loudness.finalLufs : measuredLufs,
    truePeakFinalDbtp: loudness ? loudness.finalTruePeakDbtp : finiteOrNull(measureTruePeakDbtp(out, rateHz)),
  };
  return { pcm, sampleRateHz: rateHz, trace, turnSpans, marks, loudness };
}

/** Step 1 of the order above, per item. */
function toPiece(item: TimelineItem, config: Readonly<AudioConfig>): Piece {
  const rateHz = config.outputSampleRateHz;
  switch (item.kind) {
    case 'break':
      if (!Number.isFinite(item.durationMs) || item.durationMs < 0 || item.durationMs > config.maxBreakMs) {
        throw new StudioError('invalid-argument', `break durationMs is ${item.durationMs} but must be from 0 to ${config.maxBreakMs} ms; split long pauses or raise audio.maxBreakMs`, { field: 'durationMs', value: String(item.durationMs), min: 0, max: config.maxBreakMs });
      }
      return { kind: 'silence', numSamples: msToSamples(item.durationMs, rateHz) };
    case 'mark':
      return { kind: 'mark', mark: item };
    case 'audio': {
      const pcm = applyGainDb(resample(item.pcm, item.sampleRateHz, rateHz), item.gainDb ?? 0);
      return { kind: 'clip', clip: { pcm, turn: null, breakBeforeMs: 0, startSample: 0 } };
    }
    case 'turn': {
      let pcm = resample(item.pcm, item.sampleRateHz, rateHz);
      if (item.rate !== 1) pcm = timeStretch(pcm, rateHz, item.rate, config.timeStretch);
      if (item.pitchSemitones !== 0) pcm = pitchShift(pcm, rateHz, item.pitchSemitones, config.timeStretch);
      pcm = applyGainDb(pcm, item.gainDb);
      return { kind: 'clip', clip: { pcm, turn: item, breakBeforeMs: 0, startSample: 0 } };
    }
  }
}

function nextAudible(pieces: Piece[], index: number): Piece | undefined {
  for (let j = index + 1; j < pieces.length; j++) {
    const p = pieces[j];
    if (p.kind === 'clip' || (p.kind === 'silence' && p.numSamples > 0)) return p;
  }
  return undefined;
}

/** A mark inside a turn: linear in the turn's length (text position → time is an estimate). */
function markInTurn(mark: TimelineMark, spans: TurnSpan[], rateHz: number): MarkTimestamp {
  const span = spans.find((s) => s.turnIndex === mark.turnIndex);
  if (!span) {
    throw new StudioError('invalid-argument', `mark '${mark.name}' points into turn ${mark.turnIndex}, which is not in the timeline; add the turn or set turnIndex to null`, { field: 'turnIndex', value: String(mark.turnIndex) });
  }
  const fraction = Math.min(1, Math.max(0, mark.turnFraction));
  return { name: mark.name, timeMs: samplesToMs(span.startSample + fraction * (span.endSample - span.startSample), rateHz) };
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
