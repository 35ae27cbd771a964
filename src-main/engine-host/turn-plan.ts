/**
 * Turns a SynthesisRequest into the turns the engine runs as separate sequences. Plain text is one
 * turn, passed through untouched and not post-processed (its PCM is the model's). SSML is parsed
 * (src-main/ssml) in the request's dialect and strict/lenient mode into turns, breaks, marks and
 * audio; each turn becomes a sequence with its own voice, language and instruct, and the segments
 * drive the audio pipeline afterwards. With `turnIndex`, only that turn is planned (a new take).
 */
import type { SynthesisRequest, VoiceInfo } from '../../src-shared/synthesis';
import { StudioError } from '../../src-shared/errors';
import { DIALECT_LABELS } from '../ssml/dialects';
import { parseSsml } from '../ssml/parse-ssml';
import type { MarkSegment, SsmlSegment, TurnSegment } from '../ssml/segments';
import { ssmlOptionsForRequest } from '../ssml/ssml-options';
import { conditioningFor, findSavedVoice, type LoadedModelFacts } from './saved-voices';

export interface PlannedTurn {
  index: number;
  text: string;
  voice: string;
  language: string;
  instruct: string | undefined;
  /** Set when `voice` names a saved voice: its id; the engine then gets no speaker name. */
  savedVoiceId?: string;
  /** A saved cloned voice's speaker embedding, and its reference codes and text when in-context (else the request's own apply). */
  speakerEmbedding?: readonly number[];
  refCodes?: readonly (readonly number[])[];
  refText?: string;
}

export interface TurnPlan {
  turns: PlannedTurn[];
  /** The parsed SSML segments, or null for plain text (loudness normalisation only). */
  segments: SsmlSegment[] | null;
  warnings: string[];
}

export interface TurnPlanFacts {
  /** The model's speakers: names only, or VoiceInfo (whose descriptions let <voice gender> pick one). */
  voices: readonly string[] | readonly VoiceInfo[];
  languages: readonly string[];
  /** The loaded model's kind and size, which decide whether a saved voice can speak on it; absent: saved voices are not resolved. */
  model?: LoadedModelFacts;
}

/** A turn speaks in a saved voice when its voice names one: its conditioning replaces the speaker name. */
function withSavedVoice(turn: PlannedTurn, request: SynthesisRequest, facts: TurnPlanFacts, warnings: string[]): PlannedTurn {
  const saved = facts.model ? findSavedVoice(turn.voice, request.savedVoices) : null;
  if (!saved || !facts.model) return turn;
  const c = conditioningFor(saved, facts.model);
  for (const w of c.warnings) if (!warnings.includes(w)) warnings.push(w);
  return { ...turn, voice: saved.name, savedVoiceId: saved.id, instruct: c.instruct ?? turn.instruct, ...(c.speakerEmbedding ? { speakerEmbedding: c.speakerEmbedding } : {}), ...(c.refCodes ? { refCodes: c.refCodes, refText: c.refText } : {}) };
}

export function planTurns(request: SynthesisRequest, facts: TurnPlanFacts): TurnPlan {
  if (request.inputFormat !== 'ssml') {
    if (request.turnIndex !== undefined && request.turnIndex !== 0) {
      throw new StudioError('invalid-argument', `turnIndex ${request.turnIndex} is not a turn of plain text (it is one turn, 0)`, { field: 'turnIndex' });
    }
    const warnings: string[] = [];
    const turn = withSavedVoice({ index: 0, text: request.input, voice: request.voice, language: request.language, instruct: request.instruct }, request, facts, warnings);
    return { turns: [turn], segments: null, warnings };
  }
  const saved = facts.model ? (request.savedVoices ?? []).map((v) => ({ name: v.name })) : [];
  const voices = [...facts.voices.map((v) => (typeof v === 'string' ? { name: v } : v)), ...saved];
  const parsed = parseSsml(request.input, ssmlOptionsForRequest(request.ssmlOptions, { voices, languages: facts.languages, requestLanguage: request.language }));
  const turns: PlannedTurn[] = [];
  const savedWarnings: string[] = [];
  for (const s of parsed.segments) {
    if (s.kind !== 'turn') continue;
    const turn = { index: s.index, text: s.text, voice: s.voice ?? request.voice, language: s.language ?? request.language, instruct: s.voiceDescription ?? request.instruct };
    turns.push(s.voiceDescription ? turn : withSavedVoice(turn, request, facts, savedWarnings));
  }
  const warnings = [...parsed.warnings.map((w) => `SSML ${w.line}:${w.column}: ${w.message}`), ...savedWarnings];
  if (parsed.dialectDetectedFrom !== null && parsed.dialect !== 'ssml11') warnings.unshift(`SSML dialect: ${DIALECT_LABELS[parsed.dialect]} (detected from ${parsed.dialectDetectedFrom})`);
  const plan: TurnPlan = { turns, segments: parsed.segments, warnings };
  return request.turnIndex === undefined ? plan : onlyTurn(plan, request.turnIndex);
}

/**
 * A new take of one turn: that turn alone as turn 0, with its own segment (prosody, volume) and
 * the marks inside it; the breaks, audio and other turns around it are left out.
 */
export function onlyTurn(plan: TurnPlan, turnIndex: number): TurnPlan {
  const turn = plan.turns.find((t) => t.index === turnIndex);
  const segment = plan.segments?.find((s): s is TurnSegment => s.kind === 'turn' && s.index === turnIndex);
  if (!turn || !segment) {
    throw new StudioError('invalid-argument', `turnIndex ${turnIndex} is not a turn of this document (it has ${plan.turns.length}); the document changed since its last full generation — generate it again`, { field: 'turnIndex' });
  }
  const marks = (plan.segments ?? []).filter((s): s is MarkSegment => s.kind === 'mark' && s.turnIndex === turnIndex).map((m) => ({ ...m, turnIndex: 0 }));
  return { turns: [{ ...turn, index: 0 }], segments: [{ ...segment, index: 0 }, ...marks], warnings: plan.warnings };
}
