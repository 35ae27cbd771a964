/**
 * The typed output of SSML parsing: the scheduler's input. Turn segments are maximal spans of text
 * with one voice/language/prosody context (each becomes one sequence); breaks, marks and inserted
 * audio sit between them in document order. Consecutive turn segments in one voice and language
 * form a dialogue turn (what the user sees as a turn); prosody and breaks split only segments. Types only.
 */

/** One span of text to synthesise. voice/language null mean "the request's default". */
export interface TurnSegment {
  kind: 'turn';
  /** 0, 1, 2… over turn segments only: one engine sequence each. */
  index: number;
  /**
   * 0, 1, 2… over dialogue turns: advances only where voice, voice description or language
   * changes, never on prosody, emphasis, breaks, marks or audio; tuned words keep their turn.
   */
  dialogueTurnIndex: number;
  text: string;
  voice: string | null;
  language: string | null;
  /** Speaking-rate multiplier (1 = unchanged, 1.2 = 20 % faster). */
  rate: number;
  pitchSemitones: number;
  volumeGainDb: number;
  /** A VoiceDesign description from <voice description="…">; voice is null then. */
  voiceDescription?: string;
}

export interface BreakSegment {
  kind: 'break';
  durationMs: number;
}

/**
 * A <mark>. Inside a turn's text: turnIndex and charOffset into that turn's text (the segment
 * follows the turn in the list). Between segments: turnIndex null, and it stands where it is.
 */
export interface MarkSegment {
  kind: 'mark';
  name: string;
  turnIndex: number | null;
  charOffset: number;
}

/** <audio src>: a local file the caller loads and inserts; fallbackText is the element's text. */
export interface AudioSegment {
  kind: 'audio';
  src: string;
  fallbackText: string;
}

export type SsmlSegment = TurnSegment | BreakSegment | MarkSegment | AudioSegment;

/** A value or element that was accepted with a change (lenient mode) or ignored. */
export interface SsmlWarning {
  message: string;
  line: number;
  column: number;
  element: string;
  attribute: string;
}

/** A vendor voice name (en-US-JennyNeural, Joanna, en-US-Neural2-F) and the model speaker that reads it. */
export interface VoiceMapping {
  vendorName: string;
  vendor: 'azure' | 'google' | 'polly';
  locale: string;
  /** As the vendor publishes it; null where the studio's table has no entry. */
  gender: 'female' | 'male' | null;
  /** null when the model's speakers are not known: the request's voice reads it. */
  speaker: string | null;
}

export interface SsmlParseResult {
  segments: SsmlSegment[];
  warnings: SsmlWarning[];
  /** The vendor voice names read and the speakers they became (each also a warning); absent when none. */
  voiceMappings?: VoiceMapping[];
  /** The dialect the document was read in (dialects.ts); plain text reads as 'ssml11'. */
  dialect: 'ssml11' | 'azure' | 'google' | 'polly';
  /** How 'auto' chose it ('xmlns:mstts on <speak>'); null when the caller named the dialect. */
  dialectDetectedFrom: string | null;
}
