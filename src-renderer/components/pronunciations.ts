/**
 * The document's pronunciations, as the lexicon editor reads and writes them: <sub alias="…"> (say
 * these words instead) and <phoneme alphabet="ipa|x-sampa" ph="…"> around a word or phrase; list,
 * apply to the selection or to every occurrence of the word, change, remove, and the one-word SSML
 * a preview speaks. Attribute values are escaped, so any alias or phoneme string stays well formed.
 * Pure; the tests check every result with the generation parser.
 */
import { OPAQUE_ELEMENTS, decodeEntities, enclosing, readMarkup, toWordEdge, type Markup } from './ssml-markup';
import type { Edit } from './ssml-tuning';

/** The phoneme alphabets the editor offers (the parser takes <phoneme> with any alphabet; these two are the portable ones). */
export const PHONEME_ALPHABETS = ['ipa', 'x-sampa'] as const;
export type PhonemeAlphabet = (typeof PHONEME_ALPHABETS)[number];

export type Pronunciation = { kind: 'sub'; alias: string } | { kind: 'phoneme'; alphabet: PhonemeAlphabet; ph: string };

export interface PronunciationEntry {
  /** The element's open tag in the document's markup (changes with every edit: re-read the list). */
  tagIndex: number;
  /** The written word or phrase. */
  word: string;
  pronunciation: Pronunciation | { kind: 'phoneme'; alphabet: string; ph: string };
  from: number;
  to: number;
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Why `p` cannot be written ('' when it can). */
export function pronunciationProblem(p: Pronunciation): string {
  if (p.kind === 'sub') return p.alias.trim() ? '' : 'Type what to say instead (the alias).';
  if (!PHONEME_ALPHABETS.includes(p.alphabet)) return `The alphabet is one of ${PHONEME_ALPHABETS.join(', ')}.`;
  return p.ph.trim() ? '' : 'Type the phonemes.';
}

function openTag(p: Pronunciation): string {
  return p.kind === 'sub' ? `<sub alias="${escapeAttr(p.alias.trim())}">` : `<phoneme alphabet="${p.alphabet}" ph="${escapeAttr(p.ph.trim())}">`;
}

export function listPronunciations(doc: string): PronunciationEntry[] {
  const m = readMarkup(doc);
  if (typeof m === 'string') return [];
  return m.tags.flatMap((t, i): PronunciationEntry[] => {
    if (t.kind !== 'open' || (t.name !== 'sub' && t.name !== 'phoneme')) return [];
    const close = m.tags[t.partner];
    const word = decodeEntities(doc.slice(t.to, close.from).trim());
    const pronunciation = t.name === 'sub' ? { kind: 'sub' as const, alias: t.attrs.alias ?? '' } : { kind: 'phoneme' as const, alphabet: t.attrs.alphabet ?? 'ipa', ph: t.attrs.ph ?? '' };
    return [{ tagIndex: i, word, pronunciation, from: t.from, to: close.to }];
  });
}

/** Plain-text spans of <speak>'s content where a word may be wrapped: outside tags and text-only elements. */
function textSpans(m: Markup): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = m.contentFrom;
  for (const t of m.tags) {
    if (t.to <= m.contentFrom || t.from >= m.contentTo) continue;
    if (t.from > at && !enclosing(m, at, t.from).some((i) => OPAQUE_ELEMENTS.has(m.tags[i].name))) spans.push([at, t.from]);
    at = Math.max(at, t.to);
  }
  if (m.contentTo > at) spans.push([at, m.contentTo]);
  return spans;
}

/** Where `word` stands as a whole word in the document's plain text (not in tags, <sub>, <phoneme>, <say-as>…). */
function occurrences(doc: string, m: Markup, word: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const [a, b] of textSpans(m)) {
    for (let i = doc.indexOf(word, a); i >= 0 && i + word.length <= b; i = doc.indexOf(word, i + word.length)) {
      if (toWordEdge(doc, i, false) === i && toWordEdge(doc, i + word.length, true) === i + word.length) found.push([i, i + word.length]);
    }
  }
  return found;
}

function wrapAll(doc: string, spans: Array<[number, number]>, p: Pronunciation): string {
  const open = openTag(p);
  const close = p.kind === 'sub' ? '</sub>' : '</phoneme>';
  return [...spans].reverse().reduce((d, [a, b]) => d.slice(0, a) + open + d.slice(a, b) + close + d.slice(b), doc);
}

/**
 * `p` around the selected word or phrase (grown to whole words), or around every occurrence of it
 * in the document's plain text when `everywhere`. The selection must hold text only.
 */
export function applyPronunciation(doc: string, from: number, to: number, p: Pronunciation, everywhere = false): Edit | string {
  const problem = pronunciationProblem(p);
  if (problem) return problem;
  const m = readMarkup(doc);
  if (typeof m === 'string') return m;
  const [a, b] = [toWordEdge(doc, from, false), toWordEdge(doc, to, true)];
  const word = doc.slice(a, b).trim();
  if (!word) return 'Select the word to give a pronunciation first.';
  const start = a + doc.slice(a, b).indexOf(word);
  const span = textSpans(m).find(([x, y]) => start >= x && start + word.length <= y);
  if (!span || /[<>]/.test(word)) return 'Select a word or phrase of plain text (not markup, and not inside another pronunciation or say-as).';
  const spans = everywhere ? occurrences(doc, m, word) : [[start, start + word.length] as [number, number]];
  const text = wrapAll(doc, spans, p);
  const caret = start + openTag(p).length;
  const before = spans.filter(([x]) => x < start).length * (openTag(p).length + (p.kind === 'sub' ? 6 : 10));
  return { text, anchor: caret + before, head: caret + before + word.length, note: spans.length > 1 ? `Applied to ${spans.length} occurrences of “${word}”.` : undefined };
}

/** The entry's element with `p` instead (its word stays). */
export function updatePronunciation(doc: string, entry: PronunciationEntry, p: Pronunciation): Edit | string {
  const problem = pronunciationProblem(p);
  if (problem) return problem;
  const inner = doc.slice(doc.indexOf('>', entry.from) + 1, doc.lastIndexOf('</', entry.to - 1));
  const element = `${openTag(p)}${inner}${p.kind === 'sub' ? '</sub>' : '</phoneme>'}`;
  const word = entry.from + openTag(p).length; // the word stays selected
  return { text: doc.slice(0, entry.from) + element + doc.slice(entry.to), anchor: word, head: word + inner.length };
}

/** The entry's element taken off (its word stays, spoken as written). */
export function removePronunciation(doc: string, entry: PronunciationEntry): Edit {
  const inner = doc.slice(doc.indexOf('>', entry.from) + 1, doc.lastIndexOf('</', entry.to - 1));
  return { text: doc.slice(0, entry.from) + inner + doc.slice(entry.to), anchor: entry.from, head: entry.from + inner.length };
}

/** The document a preview speaks: just the word with `p` (or as written, with null). */
export function previewDocument(word: string, p: Pronunciation | null): string {
  const w = escapeAttr(word).replace(/>/g, '&gt;');
  return p && !pronunciationProblem(p) ? `<speak>${openTag(p)}${w}${p.kind === 'sub' ? '</sub>' : '</phoneme>'}</speak>` : `<speak>${w}</speak>`;
}
