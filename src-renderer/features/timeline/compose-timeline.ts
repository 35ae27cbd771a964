/**
 * Builds the whole-clip audio from each turn's chosen take: the base clip's layout (the gaps
 * between turns: breaks and crossfade tails) with every turn's span replaced by its chosen take.
 * Pure; the Timeline shows the result and exports it.
 */
import type { ProjectTurn, TakeRef } from '../../../src-shared/contract/projects';

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
  if (baseAudio && turns.every((t) => chosenTake(t)?.clipId === base.clipId)) {
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
    pieces.push({ gap: Math.max(0, span.startSample - cursor), samples: takeSamples(take, clip), turnIndex: span.turnIndex });
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
