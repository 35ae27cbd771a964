/**
 * Accumulates text, breaks, marks and audio into the segment list. Text joins the open turn
 * while the context (voice, language, prosody) stays equal; whitespace collapses to single
 * spaces and element boundaries count as word breaks. Owned by one parse; not reusable.
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

interface OpenTurn {
  context: TurnContext;
  text: string;
  marks: { name: string; charOffset: number }[];
}

export class TurnBuilder {
  readonly segments: SsmlSegment[] = [];
  private open: OpenTurn | null = null;
  private pendingSpace = false;
  private numTurns = 0;

  appendText(context: TurnContext, raw: string): void {
    const text = raw.replace(/\s+/g, ' ');
    if (text === '') return;
    if (text === ' ') {
      this.pendingSpace = true;
      return;
    }
    if (this.open && !sameContext(this.open.context, context)) this.flush();
    if (!this.open) this.open = { context, text: '', marks: [] };
    if (this.open.text.length > 0 && (this.pendingSpace || text.startsWith(' '))) this.open.text += ' ';
    this.open.text += text.trim();
    this.pendingSpace = text.endsWith(' ');
  }

  /** An element boundary such as <p>, <s> or <break strength="none">: a word break only. */
  wordBreak(): void {
    this.pendingSpace = true;
  }

  addBreak(durationMs: number): void {
    this.flush();
    this.segments.push({ kind: 'break', durationMs });
  }

  addMark(name: string): void {
    if (this.open) this.open.marks.push({ name, charOffset: this.open.text.length });
    else this.segments.push({ kind: 'mark', name, turnIndex: null, charOffset: 0 });
  }

  addAudio(src: string, fallbackText: string): void {
    this.flush();
    this.segments.push({ kind: 'audio', src, fallbackText });
  }

  finish(): SsmlSegment[] {
    this.flush();
    return this.segments;
  }

  private flush(): void {
    const open = this.open;
    this.open = null;
    this.pendingSpace = false;
    if (!open) return;
    const c = open.context;
    const turn: TurnSegment = { kind: 'turn', index: this.numTurns++, text: open.text, voice: c.voice, language: c.language, rate: c.rate, pitchSemitones: c.pitchSemitones, volumeGainDb: c.volumeGainDb };
    if (c.voiceDescription !== null) turn.voiceDescription = c.voiceDescription;
    this.segments.push(turn);
    for (const m of open.marks) this.segments.push({ kind: 'mark', name: m.name, turnIndex: turn.index, charOffset: Math.min(m.charOffset, open.text.length) });
  }
}
