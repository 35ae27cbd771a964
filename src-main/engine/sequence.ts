/**
 * Per-request state inside the engine: the status union, the prompt, the generated codes, the
 * talker output waiting to be sampled, codec progress and timing marks. Plain data plus small
 * helpers; the engine loop mutates it, nothing here touches ORT.
 */
import type { SamplingParams, SynthesisRequest } from '../../src-shared/synthesis';
import type { TalkerOutput } from './stages/stages';
import type { Prompt } from './prompt';

export type SequenceStatus = 'waiting' | 'running' | 'finished' | 'cancelled' | 'failed';

export interface SequenceTimes {
  enqueuedMs: number;
  admittedMs: number | null;
  firstAudioMs: number | null;
  finishedMs: number | null;
}

export interface Sequence {
  /** Key of its state in the model stages (talker KV, codec stream); the scheduler knows it by request.requestId. */
  id: number;
  request: SynthesisRequest;
  params: SamplingParams;
  seed: number;
  prompt: Prompt;
  status: SequenceStatus;
  /** Frames accepted so far: codes[frame][codebook], codebook 0 first. */
  codes: number[][];
  /** Talker output at the last processed position, to be sampled next step. */
  pending: TalkerOutput | null;
  /** Frames allowed before the runaway guard stops the sequence. */
  maxFrames: number;
  truncated: boolean;
  /**
   * Base in-context mode: the reference clip's codes, decoded as left context in front of the first
   * generated frames (the official decodes reference + generated codes and cuts the reference's
   * share) and never output; [] otherwise.
   */
  codecPrefix: readonly (readonly number[])[];
  /** Frames already turned into PCM, and the PCM produced, in order. */
  numFramesDecoded: number;
  pcmChunks: Float32Array[];
  numChunksEmitted: number;
  times: SequenceTimes;
  warnings: string[];
}

/** Codebook-0 history of a sequence, for the repetition penalty. */
export function pastCodebook0(sequence: Sequence): number[] {
  return sequence.codes.map((frame) => frame[0]);
}

/** True when the sequence will not run another step. */
export function isDone(sequence: Sequence): boolean {
  switch (sequence.status) {
    case 'waiting':
    case 'running':
      return false;
    case 'finished':
    case 'cancelled':
    case 'failed':
      return true;
  }
}

/** Frames the runaway guard allows: cap from the text length, within maxNewTokens and the token budget. */
export function maxFramesFor(
  numTextTokens: number,
  numPromptRows: number,
  maxNewTokens: number,
  limits: { framesPerTextToken: number; minFramesCap: number; maxSequenceTokens: number },
): number {
  const fromText = limits.minFramesCap + limits.framesPerTextToken * numTextTokens;
  return Math.max(0, Math.min(maxNewTokens, fromText, limits.maxSequenceTokens - numPromptRows));
}
