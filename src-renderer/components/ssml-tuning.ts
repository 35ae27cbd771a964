/**
 * Visual SSML tuning: the markup the editor's tuning controls write around a text selection —
 * <prosody rate="+20%" pitch="+2st" volume="+3dB">, <emphasis level="strong">, <break time="500ms"/>
 * — in the portable forms every dialect reads the same (signed rate percentages are relative
 * changes everywhere). Only plain text inside <speak> may be selected, so the markup stays well
 * formed. Pure; the generation parser (src-main/ssml) checks the result in the tests.
 */

export interface ProsodyTuning {
  /** Change of speaking rate in percent (−50 … +100; 0 = unchanged). */
  ratePercent: number;
  /** Pitch change in semitones (−12 … +12). */
  pitchSemitones: number;
  /** Volume change in dB (−20 … +20). */
  volumeDb: number;
}

export const NO_TUNING: ProsodyTuning = Object.freeze({ ratePercent: 0, pitchSemitones: 0, volumeDb: 0 });
export const TUNING_RANGES = Object.freeze({
  ratePercent: { min: -50, max: 100, step: 5 },
  pitchSemitones: { min: -12, max: 12, step: 0.5 },
  volumeDb: { min: -20, max: 20, step: 1 },
  breakMs: { min: 50, max: 10_000, step: 50 },
});
export const EMPHASIS_CHOICES = ['strong', 'moderate', 'reduced'] as const;
export type EmphasisLevel = (typeof EMPHASIS_CHOICES)[number];

export interface Edit {
  text: string;
  /** The selection after the edit (the wrapped text, or the caret after an inserted break). */
  anchor: number;
  head: number;
}

function signed(value: number, unit: string): string {
  const rounded = Math.round(value * 100) / 100;
  return `${rounded >= 0 ? '+' : ''}${rounded}${unit}`;
}

/** The <prosody> start tag for `t`, or null when nothing changes. */
export function prosodyOpenTag(t: ProsodyTuning): string | null {
  const attrs: string[] = [];
  if (t.ratePercent !== 0) attrs.push(`rate="${signed(t.ratePercent, '%')}"`);
  if (t.pitchSemitones !== 0) attrs.push(`pitch="${signed(t.pitchSemitones, 'st')}"`);
  if (t.volumeDb !== 0) attrs.push(`volume="${signed(t.volumeDb, 'dB')}"`);
  return attrs.length ? `<prosody ${attrs.join(' ')}>` : null;
}

function insideTag(doc: string, pos: number): boolean {
  return doc.lastIndexOf('<', pos - 1) > doc.lastIndexOf('>', pos - 1);
}

/** Why [from, to) cannot be tuned ('' when it can): it must be text inside <speak>, without markup. */
export function selectionProblem(doc: string, from: number, to: number, needsText = true): string {
  if (needsText && to <= from) return 'Select the words to tune first.';
  const open = /<speak\b[^>]*>/.exec(doc);
  const close = doc.lastIndexOf('</speak>');
  if (!open || close < 0) return 'The document has no <speak> … </speak> root; switch to SSML or add one.';
  if (from < open.index + open[0].length || to > close) return 'Select text inside <speak> … </speak>.';
  if (insideTag(doc, from) || insideTag(doc, to) || /[<>]/.test(doc.slice(from, to))) return 'Select text only, not markup (the selection cuts or holds a tag).';
  return '';
}

export function wrapSelection(doc: string, from: number, to: number, open: string, close: string): Edit {
  const inner = doc.slice(from, to);
  return { text: doc.slice(0, from) + open + inner + close + doc.slice(to), anchor: from + open.length, head: from + open.length + inner.length };
}

export function tuneProsody(doc: string, from: number, to: number, t: ProsodyTuning): Edit | string {
  const problem = selectionProblem(doc, from, to);
  if (problem) return problem;
  const open = prosodyOpenTag(t);
  if (!open) return 'Move a rate, pitch or volume control away from 0 first.';
  return wrapSelection(doc, from, to, open, '</prosody>');
}

export function addEmphasis(doc: string, from: number, to: number, level: EmphasisLevel): Edit | string {
  const problem = selectionProblem(doc, from, to);
  return problem || wrapSelection(doc, from, to, `<emphasis level="${level}">`, '</emphasis>');
}

/** A pause after the selection (or at the caret). */
export function insertBreak(doc: string, at: number, breakMs: number): Edit | string {
  const problem = selectionProblem(doc, at, at, false);
  if (problem) return problem;
  const { min, max } = TUNING_RANGES.breakMs;
  if (!Number.isFinite(breakMs) || breakMs < min || breakMs > max) return `A pause is ${min} to ${max} ms.`;
  const tag = `<break time="${Math.round(breakMs)}ms"/>`;
  return { text: doc.slice(0, at) + tag + doc.slice(at), anchor: at + tag.length, head: at + tag.length };
}
