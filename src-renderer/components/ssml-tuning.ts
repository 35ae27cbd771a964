/**
 * Visual SSML tuning: the markup the editor's tuning controls write around a text selection —
 * <prosody rate="+20%" pitch="+2st" volume="+3dB">, <emphasis level="strong">, <break time="500ms"/>
 * — in the portable forms every dialect reads the same (signed rate percentages are relative changes
 * everywhere). A selection that crosses markup grows to whole elements (ssml-markup.ts); a change
 * that would take a stretch outside the shared prosody ranges (with the markup around and inside it)
 * is limited to fit, so the document stays valid. Pure; the generation parser checks it in the tests.
 */
import { PROSODY_MAX_BREAK_MS, PROSODY_PITCH_RANGE_ST, PROSODY_RATE_RANGE, PROSODY_VOLUME_MAX_DB } from '../../src-shared/prosody-limits';
import { ATTRIBUTES, chainAround, extremesWithin, firstOutOfRange, type Attribute } from './prosody-chains';
import { insertionPoint, readMarkup, wrappableRange, type Markup } from './ssml-markup';

export interface ProsodyTuning {
  /** Change of speaking rate in percent (0 = unchanged). */
  ratePercent: number;
  /** Pitch change in semitones. */
  pitchSemitones: number;
  /** Volume change in dB. */
  volumeDb: number;
}

export const NO_TUNING: ProsodyTuning = Object.freeze({ ratePercent: 0, pitchSemitones: 0, volumeDb: 0 });
/** What the controls offer: the shared ranges as changes from the voice's own (steps are the UI's). */
export const TUNING_RANGES = Object.freeze({
  ratePercent: { min: Math.round((PROSODY_RATE_RANGE.min - 1) * 100), max: Math.round((PROSODY_RATE_RANGE.max - 1) * 100), step: 5 },
  pitchSemitones: { min: PROSODY_PITCH_RANGE_ST.min, max: PROSODY_PITCH_RANGE_ST.max, step: 0.5 },
  volumeDb: { min: -PROSODY_VOLUME_MAX_DB, max: PROSODY_VOLUME_MAX_DB, step: 1 },
  breakMs: { min: 50, max: PROSODY_MAX_BREAK_MS, step: 50 },
});
export const EMPHASIS_CHOICES = ['strong', 'moderate', 'reduced'] as const;
export type EmphasisLevel = (typeof EMPHASIS_CHOICES)[number];

export interface Edit {
  text: string;
  /** The selection after the edit (the wrapped text, or the caret after an inserted break). */
  anchor: number;
  head: number;
  /** Said to the user beside the result: a value limited to fit, a selection grown to whole elements. */
  note?: string;
}

const KEY: Record<Attribute, keyof ProsodyTuning> = { rate: 'ratePercent', pitch: 'pitchSemitones', volume: 'volumeDb' };
const UNIT: Record<Attribute, string> = { rate: '%', pitch: 'st', volume: 'dB' };

function sentence(parts: string[]): string {
  const s = parts.join('; ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

function signed(value: number, unit: string): string {
  const rounded = Math.round(value * 100) / 100;
  return `${rounded >= 0 ? '+' : ''}${rounded}${unit}`;
}

/** The <prosody> start tag for `t`, or null when nothing changes. */
export function prosodyOpenTag(t: ProsodyTuning): string | null {
  const attrs = ATTRIBUTES.filter((a) => t[KEY[a]] !== 0).map((a) => `${a}="${signed(t[KEY[a]], UNIT[a])}"`);
  return attrs.length ? `<prosody ${attrs.join(' ')}>` : null;
}

/** Why [from, to) cannot be tuned ('' when it can). */
export function selectionProblem(doc: string, from: number, to: number, needsText = true): string {
  if (needsText && to <= from) return 'Select the words to tune first.';
  const m = readMarkup(doc);
  if (typeof m === 'string') return m;
  const r = needsText ? wrappableRange(doc, m, from, to) : '';
  return typeof r === 'string' ? r : '';
}

/** The markup and the range to wrap, or why not. */
function target(doc: string, from: number, to: number): { m: Markup; from: number; to: number; grown: boolean } | string {
  if (to <= from) return 'Select the words to tune first.';
  const m = readMarkup(doc);
  if (typeof m === 'string') return m;
  const r = wrappableRange(doc, m, from, to);
  if (typeof r === 'string') return r;
  if (!/[^\s]/.test(doc.slice(r.from, r.to).replace(/<[^>]*>/g, ''))) return 'Select some words (the selection holds no text).';
  return { m, ...r, grown: r.from < from || r.to > to };
}

export function wrapSelection(doc: string, from: number, to: number, open: string, close: string): Edit {
  const inner = doc.slice(from, to);
  return { text: doc.slice(0, from) + open + inner + close + doc.slice(to), anchor: from + open.length, head: from + open.length + inner.length };
}

/** The change of `a` that keeps every stretch of the range in its range: [lowest, highest] in the control's unit, or null when unknown. */
function allowedChange(m: Markup, from: number, to: number, a: Attribute): [number, number] | null {
  const base = chainAround(m, from, to)[a];
  const { lo, hi } = extremesWithin(m, from, to);
  if (base === null || lo[a] === null || hi[a] === null) return null;
  if (a === 'rate') {
    const minFactor = PROSODY_RATE_RANGE.min / (base * lo.rate!);
    const maxFactor = PROSODY_RATE_RANGE.max / (base * hi.rate!);
    return [Math.ceil((minFactor - 1) * 100 - 1e-9), Math.floor((maxFactor - 1) * 100 + 1e-9)];
  }
  const floor = a === 'pitch' ? PROSODY_PITCH_RANGE_ST.min : -Infinity;
  const ceiling = a === 'pitch' ? PROSODY_PITCH_RANGE_ST.max : PROSODY_VOLUME_MAX_DB;
  return [Math.ceil((floor - base - lo[a]!) * 100 - 1e-9) / 100, Math.floor((ceiling - base - hi[a]!) * 100 + 1e-9) / 100];
}

export function tuneProsody(doc: string, from: number, to: number, t: ProsodyTuning): Edit | string {
  const at = target(doc, from, to);
  if (typeof at === 'string') return at;
  if (!prosodyOpenTag(t)) return 'Move a rate, pitch or volume control away from 0 first.';
  const fitted = { ...t };
  const notes: string[] = [];
  for (const a of ATTRIBUTES) {
    const asked = t[KEY[a]];
    if (asked === 0) continue;
    const allowed = allowedChange(at.m, at.from, at.to, a);
    if (!allowed) return `The ${a} around or inside the selection is written in a form the controls cannot combine with; change the ${a} there, or tune only the others.`;
    const [lo, hi] = allowed;
    if (lo > hi) return `The ${a} around or inside the selection is already at its limit; change it there first.`;
    fitted[KEY[a]] = Math.min(hi, Math.max(lo, asked));
    if (fitted[KEY[a]] !== asked) notes.push(`${a} limited to ${signed(fitted[KEY[a]], UNIT[a])} to stay in range with the markup around it`);
  }
  const open = prosodyOpenTag(fitted);
  if (!open) return `No room to change that: ${notes.join('; ')}.`;
  if (at.grown) notes.push('the selection was grown to whole words and elements');
  const edit = wrapSelection(doc, at.from, at.to, open, '</prosody>');
  const out = newlyOutOfRange(doc, edit.text);
  if (out) return `That change would take the markup inside the selection out of range (${out}); use a smaller one.`;
  return { ...edit, ...(notes.length ? { note: sentence(notes) } : {}) };
}

export function addEmphasis(doc: string, from: number, to: number, level: EmphasisLevel): Edit | string {
  const at = target(doc, from, to);
  if (typeof at === 'string') return at;
  const edit = wrapSelection(doc, at.from, at.to, `<emphasis level="${level}">`, '</emphasis>');
  const out = newlyOutOfRange(doc, edit.text);
  if (out) return `Emphasis (${level}) would take the markup inside the selection out of range (${out}); pick another level or tune it there.`;
  return at.grown ? { ...edit, note: 'The selection was grown to whole words and elements.' } : edit;
}

/** A stretch of `after` out of range that `before` did not have, as "rate 2.1×", or null. */
function newlyOutOfRange(before: string, after: string): string | null {
  const [b, a] = [readMarkup(before), readMarkup(after)];
  if (typeof a === 'string') return a;
  const out = firstOutOfRange(a);
  return out && (typeof b === 'string' || firstOutOfRange(b) !== out) ? out : null;
}

/**
 * Takes the tuning off the selection: the pauses inside it, or else the innermost <prosody> or
 * <emphasis> around it (its text stays). Refused where that would take the markup inside out of range.
 */
export function clearTuning(doc: string, from: number, to: number): Edit | string {
  const m = readMarkup(doc);
  if (typeof m === 'string') return m;
  const breaks = m.tags.filter((t) => t.name === 'break' && t.kind === 'empty' && t.from >= from && t.to <= Math.max(to, from));
  let text: string;
  if (breaks.length > 0) {
    text = breaks.reduceRight((d, t) => d.slice(0, t.from) + d.slice(t.to), doc);
  } else {
    const around = m.tags.filter((t) => (t.name === 'prosody' || t.name === 'emphasis') && t.kind === 'open' && t.from <= from && m.tags[t.partner].to >= to);
    const inner = around[around.length - 1];
    if (!inner) return 'Put the caret in tuned words (or select pauses) to clear them.';
    const close = m.tags[inner.partner];
    text = doc.slice(0, inner.from) + doc.slice(inner.to, close.from) + doc.slice(close.to);
  }
  const out = newlyOutOfRange(doc, text);
  if (out) return `Clearing that would take the markup inside out of range (${out}); clear the inner tuning first.`;
  const caret = Math.min(from, text.length);
  return { text, anchor: caret, head: caret };
}

/** A pause after the selection (or at the caret), moved out of tags and text-only elements. */
export function insertBreak(doc: string, at: number, breakMs: number): Edit | string {
  const { min, max } = TUNING_RANGES.breakMs;
  if (!Number.isFinite(breakMs) || breakMs < min || breakMs > max) return `A pause is ${min} to ${max} ms.`;
  const m = readMarkup(doc);
  if (typeof m === 'string') return m;
  const pos = insertionPoint(doc, m, at);
  const tag = `<break time="${Math.round(breakMs)}ms"/>`;
  return { text: doc.slice(0, pos) + tag + doc.slice(pos), anchor: pos + tag.length, head: pos + tag.length };
}
