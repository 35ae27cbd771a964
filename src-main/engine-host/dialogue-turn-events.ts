/**
 * Reports one request's engine sequences by dialogue turn, the turn the user sees. A turn's parts
 * (one sequence per stretch with its own prosody, or after a break) run side by side, but its
 * streamed audio goes out part after part: a later part's chunks wait until the parts before it
 * are finished, then carry the turn's index and their offset in the turn. Progress adds up the
 * parts once each has reported. Pure bookkeeping; the synthesis service emits what it returns.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { AudioChunk, SynthesisProgress } from '../../src-shared/synthesis';

interface PartState {
  turnIndex: number;
  finished: boolean;
  /** Samples streamed so far (chunks are contiguous from 0 within a part). */
  numStreamedSamples: number;
  /** Chunks waiting for the parts before this one to finish. */
  held: AudioChunk[];
  progress: { numFramesDone: number; numFramesEstimated: number } | null;
}

export class DialogueTurnEvents {
  private readonly parts: PartState[];
  /** Dialogue turn → its parts' indices, in order. */
  private readonly partsOfTurn = new Map<number, number[]>();

  /** `dialogueTurnOfPart[i]`: the dialogue turn of part i (the plan's turns, in order). */
  constructor(dialogueTurnOfPart: readonly number[]) {
    this.parts = dialogueTurnOfPart.map((turnIndex, part) => {
      const list = this.partsOfTurn.get(turnIndex) ?? [];
      list.push(part);
      this.partsOfTurn.set(turnIndex, list);
      return { turnIndex, finished: false, numStreamedSamples: 0, held: [], progress: null };
    });
  }

  /** A part's chunk: the chunks to emit now (none while a part before it in its turn is still running). */
  audio(part: number, chunk: AudioChunk): AudioChunk[] {
    const state = this.parts[part];
    state.numStreamedSamples = Math.max(state.numStreamedSamples, chunk.startSample + chunk.pcm.length);
    if (!this.isCurrent(part)) {
      state.held.push(chunk);
      return [];
    }
    return [this.placed(part, chunk)];
  }

  /** A part is finished (all its audio is in): the chunks of the parts after it that may go out now. */
  finishPart(part: number): AudioChunk[] {
    const state = this.parts[part];
    state.finished = true;
    if (state.progress) state.progress.numFramesEstimated = state.progress.numFramesDone;
    const out: AudioChunk[] = [];
    for (const next of this.partsOfTurn.get(state.turnIndex)!) {
      if (!this.isCurrent(next)) break;
      for (const chunk of this.parts[next].held.splice(0)) out.push(this.placed(next, chunk));
    }
    return out;
  }

  /** A part's progress: its dialogue turn's progress (frames of its parts added up), or null until each part has reported. */
  progress(part: number, p: SynthesisProgress): SynthesisProgress | null {
    const state = this.parts[part];
    state.progress = { numFramesDone: p.numFramesDone, numFramesEstimated: p.numFramesEstimated };
    const parts = this.partsOfTurn.get(state.turnIndex)!.map((i) => this.parts[i].progress);
    if (parts.some((q) => q === null)) return null;
    let numFramesDone = 0;
    let numFramesEstimated = 0;
    for (const q of parts) {
      numFramesDone += q!.numFramesDone;
      numFramesEstimated += Math.max(q!.numFramesDone, q!.numFramesEstimated);
    }
    return { ...p, turnIndex: state.turnIndex, numFramesDone, numFramesEstimated };
  }

  /** Every part before this one in its turn is finished. */
  private isCurrent(part: number): boolean {
    const state = this.parts[part];
    for (const i of this.partsOfTurn.get(state.turnIndex)!) {
      if (i === part) return true;
      if (!this.parts[i].finished) return false;
    }
    return true;
  }

  private placed(part: number, chunk: AudioChunk): AudioChunk {
    const state = this.parts[part];
    let offset = 0;
    for (const i of this.partsOfTurn.get(state.turnIndex)!) {
      if (i === part) break;
      offset += this.parts[i].numStreamedSamples;
    }
    return { ...chunk, turnIndex: state.turnIndex, startSample: offset + chunk.startSample };
  }
}
