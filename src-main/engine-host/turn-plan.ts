/**
 * Turns a SynthesisRequest into the turns the engine runs as separate sequences. Plain text is one
 * turn, passed through untouched and not post-processed (its PCM is the model's). SSML is parsed
 * (src-main/ssml) into turns, breaks, marks and audio; each turn becomes a sequence with its own
 * voice, language and instruct, and the segments drive the audio pipeline afterwards.
 */
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { parseSsml } from '../ssml/parse-ssml';
import type { SsmlSegment } from '../ssml/segments';

export interface PlannedTurn {
  index: number;
  text: string;
  voice: string;
  language: string;
  instruct: string | undefined;
}

export interface TurnPlan {
  turns: PlannedTurn[];
  /** The parsed SSML segments, or null for plain text (no post-processing). */
  segments: SsmlSegment[] | null;
  warnings: string[];
}

export interface TurnPlanFacts {
  voices: readonly string[];
  languages: readonly string[];
}

export function planTurns(request: SynthesisRequest, facts: TurnPlanFacts): TurnPlan {
  if (request.inputFormat !== 'ssml') {
    return { turns: [{ index: 0, text: request.input, voice: request.voice, language: request.language, instruct: request.instruct }], segments: null, warnings: [] };
  }
  const { segments, warnings } = parseSsml(request.input, { knownVoices: [...facts.voices], knownLanguages: facts.languages.filter((l) => l !== 'auto') });
  const turns: PlannedTurn[] = [];
  for (const s of segments) {
    if (s.kind !== 'turn') continue;
    turns.push({ index: s.index, text: s.text, voice: s.voice ?? request.voice, language: s.language ?? request.language, instruct: s.voiceDescription ?? request.instruct });
  }
  return { turns, segments, warnings: warnings.map((w) => `SSML ${w.line}:${w.column}: ${w.message}`) };
}
