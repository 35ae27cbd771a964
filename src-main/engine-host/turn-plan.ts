/**
 * Turns a SynthesisRequest into the turn parts the engine runs as separate sequences. Plain text is
 * one turn, passed through untouched and not post-processed (its PCM is the model's). SSML is parsed
 * (src-main/ssml) in the request's dialect and strict/lenient mode into turn segments, breaks, marks
 * and audio; each turn segment becomes a sequence (a part) with its own voice, language and instruct,
 * and the segments drive the audio pipeline afterwards. Parts carry their dialogue turn (a speaker's
 * stretch), which is what results report. With `turnIndex`, only that dialogue turn is planned (a new take).
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { SynthesisRequest, VoiceInfo } from '../../src-shared/synthesis';
import { StudioError } from '../../src-shared/errors';
import { DIALECT_LABELS } from '../ssml/dialects';
import { parseSsml } from '../ssml/parse-ssml';
import type { MarkSegment, SsmlSegment, TurnSegment } from '../ssml/segments';
import { ssmlOptionsForRequest } from '../ssml/ssml-options';
import { numDialogueTurns } from '../ssml/turn-builder';
import { conditioningFor, findSavedVoice, type LoadedModelFacts } from './saved-voices';

/** One part of a turn: one engine sequence. */
export interface PlannedTurn {
  /** The part's segment index: 0, 1, 2… over the plan's parts, in order. */
  index: number;
  /** The dialogue turn the part belongs to (SsmlSegment's dialogueTurnIndex; 0 for plain text). */
  dialogueTurnIndex: number;
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
    const turn = withSavedVoice({ index: 0, dialogueTurnIndex: 0, text: request.input, voice: request.voice, language: request.language, instruct: request.instruct }, request, facts, warnings);
    return { turns: [turn], segments: null, warnings };
  }
  const saved = facts.model ? (request.savedVoices ?? []).map((v) => ({ name: v.name })) : [];
  const voices = [...facts.voices.map((v) => (typeof v === 'string' ? { name: v } : v)), ...saved];
  const parsed = parseSsml(request.input, ssmlOptionsForRequest(request.ssmlOptions, { voices, languages: facts.languages, requestLanguage: request.language }));
  const turns: PlannedTurn[] = [];
  const savedWarnings: string[] = [];
  for (const s of parsed.segments) {
    if (s.kind !== 'turn') continue;
    const turn = { index: s.index, dialogueTurnIndex: s.dialogueTurnIndex, text: s.text, voice: s.voice ?? request.voice, language: s.language ?? request.language, instruct: s.voiceDescription ?? request.instruct };
    turns.push(s.voiceDescription ? turn : withSavedVoice(turn, request, facts, savedWarnings));
  }
  const warnings = [...parsed.warnings.map((w) => `SSML ${w.line}:${w.column}: ${w.message}`), ...savedWarnings];
  if (parsed.dialectDetectedFrom !== null && parsed.dialect !== 'ssml11') warnings.unshift(`SSML dialect: ${DIALECT_LABELS[parsed.dialect]} (detected from ${parsed.dialectDetectedFrom})`);
  const plan: TurnPlan = { turns, segments: parsed.segments, warnings };
  return request.turnIndex === undefined ? plan : onlyTurn(plan, request.turnIndex);
}

/**
 * A new take of one dialogue turn: all its parts, renumbered from 0 as dialogue turn 0, with the
 * segments from its first part to its last (their prosody, the breaks, marks and audio between
 * them) and the marks inside its last part; the breaks, audio and other turns around it are left out.
 */
export function onlyTurn(plan: TurnPlan, turnIndex: number): TurnPlan {
  const segments = plan.segments ?? [];
  const inTurn = (s: SsmlSegment): s is TurnSegment => s.kind === 'turn' && s.dialogueTurnIndex === turnIndex;
  const first = segments.findIndex(inTurn);
  const last = segments.findLastIndex(inTurn);
  if (first < 0) {
    throw new StudioError('invalid-argument', `turnIndex ${turnIndex} is not a turn of this document (it has ${numDialogueTurns(segments)}); the document changed since its last full generation — generate it again`, { field: 'turnIndex' });
  }
  const lastPart = segments[last] as TurnSegment;
  let end = last + 1;
  while (end < segments.length && isMarkIn(segments[end], lastPart.index)) end++;
  const slice = segments.slice(first, end);
  const renumbered = new Map(slice.filter((s): s is TurnSegment => s.kind === 'turn').map((s, i) => [s.index, i]));
  const turns = plan.turns.filter((t) => renumbered.has(t.index)).map((t) => ({ ...t, index: renumbered.get(t.index)!, dialogueTurnIndex: 0 }));
  if (turns.length !== renumbered.size) throw new StudioError('internal', `turn ${turnIndex} has ${renumbered.size} parts but ${turns.length} were planned`, { turnIndex });
  const taken = slice.map((s): SsmlSegment => {
    if (s.kind === 'turn') return { ...s, index: renumbered.get(s.index)!, dialogueTurnIndex: 0 };
    if (s.kind === 'mark' && s.turnIndex !== null) return { ...s, turnIndex: renumbered.get(s.turnIndex) ?? null };
    return s;
  });
  return { turns, segments: taken, warnings: plan.warnings };
}

function isMarkIn(segment: SsmlSegment, partIndex: number): segment is MarkSegment {
  return segment.kind === 'mark' && segment.turnIndex === partIndex;
}
