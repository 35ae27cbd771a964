/**
 * Accumulates text, breaks, marks and audio into the segment list. Text joins the open turn
 * while the context (voice, language, prosody) stays equal; whitespace collapses to single
 * spaces. A turn starts a new dialogue turn only when its speaker (voice, description, language)
 * differs from the turn before. Punctuation-only text never makes a turn of its own: closing punctuation joins the
 * turn before it, opening punctuation the turn after it. Element boundaries are soft word breaks
 * (a space, except before closing punctuation); sentence ends add a full stop where the text has
 * none, and paragraph ends leave a pause before whatever is spoken next. Owned by one parse.
 */
import type { SsmlSegment, TurnSegment } from './segments';

export interface TurnContext {
  voice: string | null;
  voiceDescription: string | null;
  language: string | null;
  rate: number;
  pitchSemitones: number;
  volumeGainDb: number;
}

/** How many dialogue turns a segment list has (what the editor and the Timeline count as turns). */
export function numDialogueTurns(segments: readonly SsmlSegment[]): number {
  let num = 0;
  for (const s of segments) if (s.kind === 'turn') num = Math.max(num, s.dialogueTurnIndex + 1);
  return num;
}

export function defaultTurnContext(): TurnContext {
  return { voice: null, voiceDescription: null, language: null, rate: 1, pitchSemitones: 0, volumeGainDb: 0 };
}

/** Rounds away float noise (0.8 × 1.25) so that equal contexts compare equal. */
export function roundValue(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function sameContext(a: TurnContext, b: TurnContext): boolean {
  return a.voice === b.voice && a.voiceDescription === b.voiceDescription && a.language === b.language && a.rate === b.rate && a.pitchSemitones === b.pitchSemitones && a.volumeGainDb === b.volumeGainDb;
}

/** The same speaker: a dialogue turn goes on across prosody changes, breaks, marks and audio. */
function sameSpeaker(turn: TurnSegment, c: TurnContext): boolean {
  return turn.voice === c.voice && (turn.voiceDescription ?? null) === c.voiceDescription && turn.language === c.language;
}

const PUNCTUATION_ONLY = /^[\s\p{P}]+$/u;
/** Punctuation that opens what follows: brackets, opening quotes, ¿ and ¡. */
const OPENING = /^[\p{Ps}\p{Pi}¿¡]+$/u;
/** Text that must not be preceded by a space the markup introduced: closing punctuation. */
const STARTS_CLOSING = /^[\p{Pe}\p{Pf},.;:!?%…。，、；：！？）」』’”'"]/u;
const LEADING_CLOSING = /^[\p{Pe}\p{Pf},.;:!?…。，、；：！？]+(?=\s|$)/u;
const SENTENCE_FINAL = /[.!?…。！？；;:]["'”’)\]」』）]*$/u;
/** Chinese and Japanese text (and full-width punctuation) takes no space at a markup boundary. */
const CJK_EDGE = /[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const CJK_LAST = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]$/;

interface OpenTurn {
  context: TurnContext;
  text: string;
  marks: { name: string; charOffset: number }[];
}

type Space = 'none' | 'soft' | 'hard';

export class TurnBuilder {
  readonly segments: SsmlSegment[] = [];
  private open: OpenTurn | null = null;
  /** The last flushed turn, for punctuation and sentence ends that arrive after it closed. */
  private lastTurn: TurnSegment | null = null;
  private space: Space = 'none';
  /** Opening punctuation waiting for the next turn. */
  private prefix = '';
  /** A paragraph pause owed before the next spoken segment. */
  private pendingPauseMs = 0;
  private numTurns = 0;

  appendText(context: TurnContext, raw: string): void {
    const text = raw.replace(/\s+/g, ' ');
    if (text === '') return;
    if (text === ' ') {
      this.space = 'hard';
      return;
    }
    const core = text.trim();
    const leadingSpace = text.startsWith(' ') || this.space === 'hard';
    if (PUNCTUATION_ONLY.test(core) && (!this.open || !sameContext(this.open.context, context) || this.pendingPauseMs > 0)) {
      const target = this.open?.text ?? this.lastTurn?.text;
      const opens = OPENING.test(core) || (leadingSpace && !text.endsWith(' ') && target !== undefined);
      if (!opens && target !== undefined) {
        // Opening punctuation still waiting for a turn came first: "(" then ")" stay in that order.
        this.appendToPrevious(this.prefix ? `${target.endsWith(' ') ? '' : ' '}${this.prefix}${core}` : core);
        this.prefix = '';
        this.space = text.endsWith(' ') ? 'hard' : 'none';
        return;
      }
      this.prefix += (this.prefix && leadingSpace ? ' ' : '') + core;
      this.space = text.endsWith(' ') ? 'hard' : 'none';
      return;
    }
    const changesTurn = this.open ? !sameContext(this.open.context, context) : this.lastTurn !== null;
    const lead = (changesTurn || this.pendingPauseMs > 0) && !this.prefix ? LEADING_CLOSING.exec(core)?.[0] : undefined;
    if (lead) {
      // "</lang>. Next" — the full stop ends the turn before; the rest starts the next one.
      this.appendToPrevious(lead);
      this.space = 'hard';
      this.appendText(context, core.slice(lead.length));
      return;
    }
    if (this.open && !sameContext(this.open.context, context)) this.flush();
    this.startPendingPause();
    if (!this.open) this.open = { context, text: '', marks: [] };
    const open = this.open;
    if (this.prefix) {
      open.text += (open.text.length > 0 ? ' ' : '') + this.prefix;
      this.prefix = '';
      this.space = text.startsWith(' ') ? 'hard' : 'none';
    }
    if (open.text.length > 0) {
      const softSpace = !STARTS_CLOSING.test(core) && !CJK_EDGE.test(open.text.slice(-1)) && !CJK_EDGE.test(core[0]);
      const wantsSpace = text.startsWith(' ') || this.space === 'hard' || (this.space === 'soft' && softSpace);
      if (wantsSpace) open.text += ' ';
    }
    open.text += core;
    this.space = text.endsWith(' ') ? 'hard' : 'none';
  }

  /** The open turn's text when it has this context (for say-as language), else ''. */
  currentText(context: TurnContext): string {
    return this.open && sameContext(this.open.context, context) ? this.open.text : '';
  }

  /** An element boundary such as <say-as>…</say-as> or <break strength="none">: a word break, but none before closing punctuation. */
  wordBreak(): void {
    if (this.space === 'none') this.space = 'soft';
  }

  /** The end of a sentence (<s>, a paragraph): a full stop unless the text already ends one. */
  sentenceEnd(): void {
    this.wordBreak();
    const target = this.open ?? this.lastTurn;
    if (!target || target.text === '' || SENTENCE_FINAL.test(target.text)) return;
    const stop = CJK_LAST.test(target.text) ? '。' : '.';
    if (this.open) this.open.text += stop;
    else this.lastTurn!.text += stop;
  }

  /** A paragraph boundary: a sentence end now, and a pause before the next spoken segment. */
  paragraphEnd(pauseMs: number): void {
    this.sentenceEnd();
    // A break already standing here (</p><break/><p>) is the pause; nothing is added to it.
    if (!this.open && this.segments[this.segments.length - 1]?.kind === 'break') return;
    if (this.open || this.lastTurn || this.segments.some((s) => s.kind === 'audio')) this.pendingPauseMs = Math.max(this.pendingPauseMs, pauseMs);
  }

  addBreak(durationMs: number): void {
    this.flush();
    const merged = Math.max(durationMs, this.pendingPauseMs);
    this.pendingPauseMs = 0;
    this.segments.push({ kind: 'break', durationMs: merged });
  }

  addMark(name: string): void {
    if (this.open) this.open.marks.push({ name, charOffset: this.open.text.length });
    else this.segments.push({ kind: 'mark', name, turnIndex: null, charOffset: 0 });
  }

  addAudio(src: string, fallbackText: string): void {
    this.flush();
    this.startPendingPause();
    this.segments.push({ kind: 'audio', src, fallbackText });
  }

  finish(): SsmlSegment[] {
    this.flush();
    if (this.prefix && this.lastTurn) this.lastTurn.text += this.prefix;
    this.prefix = '';
    return this.segments;
  }

  private startPendingPause(): void {
    if (this.pendingPauseMs <= 0) return;
    const pauseMs = this.pendingPauseMs;
    this.pendingPauseMs = 0;
    this.flush();
    this.segments.push({ kind: 'break', durationMs: pauseMs });
  }

  private appendToPrevious(punctuation: string): void {
    if (this.open) {
      this.open.text += (this.space === 'hard' && OPENING.test(punctuation) ? ' ' : '') + punctuation;
    } else if (this.lastTurn) {
      this.lastTurn.text += punctuation;
    }
  }

  private flush(): void {
    const open = this.open;
    this.open = null;
    if (this.space === 'hard') this.space = 'soft';
    if (!open) return;
    const c = open.context;
    const last = this.lastTurn;
    const dialogueTurnIndex = last === null ? 0 : sameSpeaker(last, c) ? last.dialogueTurnIndex : last.dialogueTurnIndex + 1;
    const turn: TurnSegment = { kind: 'turn', index: this.numTurns++, dialogueTurnIndex, text: open.text, voice: c.voice, language: c.language, rate: c.rate, pitchSemitones: c.pitchSemitones, volumeGainDb: c.volumeGainDb };
    if (c.voiceDescription !== null) turn.voiceDescription = c.voiceDescription;
    this.segments.push(turn);
    this.lastTurn = turn;
    for (const m of open.marks) this.segments.push({ kind: 'mark', name: m.name, turnIndex: turn.index, charOffset: Math.min(m.charOffset, open.text.length) });
  }
}
