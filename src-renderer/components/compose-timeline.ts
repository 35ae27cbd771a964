/**
 * Builds the whole-clip audio from each turn's chosen take: the base clip's layout (the gaps
 * between turns: breaks and crossfade tails) with every turn's span replaced by its chosen take,
 * and each turn's edits applied (trim, gap before it, gain). Pure; the Timeline shows the result
 * and exports exactly it.
 */
import type { ProjectTurn, TakeRef, TurnEdit } from '../../src-shared/contract/projects';

export const NO_EDIT: TurnEdit = Object.freeze({ trimStartMs: 0, trimEndMs: 0, gapBeforeMs: null, gainDb: 0 });

export function isEdited(edit: TurnEdit | undefined): boolean {
  return edit !== undefined && (edit.trimStartMs > 0 || edit.trimEndMs > 0 || edit.gapBeforeMs !== null || edit.gainDb !== 0);
}

/** The take's samples after the turn's trim and gain (a copy when gain or trim applies). */
export function editedSamples(samples: Float32Array, sampleRateHz: number, edit: TurnEdit | undefined): Float32Array {
  if (!isEdited(edit)) return samples;
  const e = edit!;
  const from = Math.min(samples.length, Math.round((e.trimStartMs * sampleRateHz) / 1000));
  const to = Math.max(from, samples.length - Math.round((e.trimEndMs * sampleRateHz) / 1000));
  const out = samples.slice(from, to);
  if (e.gainDb !== 0) {
    const g = 10 ** (e.gainDb / 20);
    for (let i = 0; i < out.length; i++) out[i] *= g;
  }
  return out;
}

export interface ClipAudio {
  sampleRateHz: number;
  pcm: Float32Array;
}

export interface BaseLayout {
  clipId: string;
  numSamples: number;
  turnSpans: { turnIndex: number; startSample: number; endSample: number }[];
}

export interface ComposedTimeline {
  sampleRateHz: number;
  pcm: Float32Array;
  /** Where each turn sits in the composed audio, in samples. */
  regions: { turnIndex: number; startSample: number; endSample: number }[];
}

export function chosenTake(turn: ProjectTurn): TakeRef | undefined {
  return turn.takes.find((t) => t.takeId === turn.chosenTakeId);
}

export function takeSamples(take: TakeRef, audio: ClipAudio): Float32Array {
  return audio.pcm.subarray(take.startSample, Math.min(take.endSample, audio.pcm.length));
}

/**
 * Returns null while any needed clip audio is not loaded. When every chosen take is the base clip's
 * own, the base clip is returned untouched; otherwise gaps keep the base clip's lengths and are
 * silent, so a new take never inherits the old take's crossfade tail.
 */
export function composeTimeline(base: BaseLayout, turns: ProjectTurn[], audio: Record<string, ClipAudio | undefined>): ComposedTimeline | null {
  const spans = [...base.turnSpans].sort((a, b) => a.startSample - b.startSample);
  const baseAudio = audio[base.clipId];
  if (baseAudio && turns.every((t) => chosenTake(t)?.clipId === base.clipId && !isEdited(t.edit))) {
    return { sampleRateHz: baseAudio.sampleRateHz, pcm: baseAudio.pcm, regions: spans };
  }
  const pieces: { gap: number; samples: Float32Array; turnIndex: number }[] = [];
  let sampleRateHz = 0;
  let cursor = 0;
  for (const span of spans) {
    const turn = turns.find((t) => t.turnIndex === span.turnIndex);
    const take = turn && chosenTake(turn);
    const clip = take && audio[take.clipId];
    if (!take || !clip) return null;
    sampleRateHz = clip.sampleRateHz;
    const gap = turn.edit?.gapBeforeMs != null ? Math.round((turn.edit.gapBeforeMs * sampleRateHz) / 1000) : Math.max(0, span.startSample - cursor);
    pieces.push({ gap, samples: editedSamples(takeSamples(take, clip), sampleRateHz, turn.edit), turnIndex: span.turnIndex });
    cursor = span.endSample;
  }
  const tail = Math.max(0, base.numSamples - cursor);
  const total = pieces.reduce((n, p) => n + p.gap + p.samples.length, 0) + tail;
  const pcm = new Float32Array(total);
  const regions: ComposedTimeline['regions'] = [];
  let at = 0;
  for (const p of pieces) {
    at += p.gap;
    pcm.set(p.samples, at);
    regions.push({ turnIndex: p.turnIndex, startSample: at, endSample: at + p.samples.length });
    at += p.samples.length;
  }
  return { sampleRateHz, pcm, regions };
}
